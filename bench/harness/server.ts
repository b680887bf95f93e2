// The one ZooKeeper every bench program starts, so their figures compare: `pnpm bench` (run.ts), the profile
// drivers (bench/profile/), the lock runs (bench/locks/run.ts). ZKTS_SERVER=host:port uses a running server
// instead (start one with bench/profile/server.ts).
//
// The testkit's defaults suit tests (C1 only, for a fast start); a benchmark server gets the full JIT so the
// server is not the bottleneck that flattens every ratio. forceSync=no is the testkit's default: writes then
// measure the clients and ZooKeeper, not this (shared) machine's disk. globalOutstandingLimit=100000: the
// default, 1,000, equals the pipeline window, so the server would switch reading off and on under every client.
// The rows at scale need frames above ZooKeeper's 1 MiB default (a 1 MiB node, a 100,000-child listing, a
// client replaying 100,000 watches in one SetWatches) and a session that survives the watch-replay row's time
// away (maxSessionTimeout 60 s, so the 30 s every client asks for is granted; the default is 20 ticks = 10 s).
// clientPortListenBacklog 1024: with the JVM's default of 50, the 1,000-session row's 100 connects in flight
// overflowed the accept queue (the kernel's ListenOverflows and SYN retransmits rose by 94 in one run of it), and
// a dropped SYN is retried after 1 s: every client's connect-all time was either ~0.4 s or ~1.0 s.
import { startZooKeeper } from '@zkts/testkit';
import type { ServerOptions, ZooKeeperServer } from '@zkts/testkit';

export const BENCH_SERVER_OPTIONS = {
  heap: '1g',
  logLevel: 'ERROR',
  maxSessionTimeout: 60_000,
  config: { clientPortListenBacklog: 1024 },
  jvmArgs: ['-XX:TieredStopAtLevel=4', '-Dzookeeper.globalOutstandingLimit=100000', '-Djute.maxbuffer=4194304'],
} as const satisfies ServerOptions;

/** A ZooKeeper with the bench's options (the caller stops it). */
export function startBenchServer(): Promise<ZooKeeperServer> {
  return startZooKeeper(BENCH_SERVER_OPTIONS);
}

export interface BenchServer {
  connectString: string;
  /** The server started here; undefined when `ZKTS_SERVER` named one. */
  server: ZooKeeperServer | undefined;
  /** Stops the server started here (nothing for `ZKTS_SERVER`). */
  stop(): Promise<void>;
}

/** `ZKTS_SERVER` when set, else a bench server started here. */
export async function benchServer(env: NodeJS.ProcessEnv = process.env): Promise<BenchServer> {
  const external = env['ZKTS_SERVER'];
  if (external) return { connectString: external, server: undefined, stop: () => Promise.resolve() };
  const server = await startBenchServer();
  return { connectString: server.connectString, server, stop: () => server.stop() };
}
