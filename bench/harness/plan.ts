// What `pnpm bench` runs (run.ts does the running): the parameters of a full and a quick run, which client
// runs which workload (and which it is left out of, with the reason), how many passes each workload gets and
// which pass is kept. Kept apart from run.ts so the plan reads in one place; the server's options are in
// server.ts.
import { ROWS } from './report.js';
import type { ClientId, Outcome, RowWorkload } from './report.js';
import { DATA_WORKLOADS, LOCK_WORKLOADS, SCALE_WORKLOADS, TRACING_WORKLOADS } from './workloads.js';
import type { Metrics, WorkloadName, WorkloadParams } from './workloads.js';

export const FULL: WorkloadParams = {
  window: 1000,
  getOps: 50_000,
  getWarmup: 15_000,
  seqOps: 5_000,
  seqWarmup: 1_000,
  createDeletePairs: 8_000,
  createDeleteWarmup: 2_000,
  watches: 10_000,
  // A Mutex cycle runs code nothing else in the run does, and both V8 and the JVM compile it for a few thousand
  // cycles; on 2 cores their compiler threads also take the server's CPU. After 200 cycles, both sides' figures
  // still measured that (zkts 933-1,604 cycles/s at 355-479 µs CPU a cycle, Curator 849-1,333 at 637-900 µs);
  // after 3,000, zkts 1,746-2,153 at 148-180 µs and Curator 1,122-1,387 at 270-325 µs.
  lockCycles: 2000,
  lockWarmup: 3000,
  handoffs: 800,
  waiters: 1_000,
  waiterSessions: 10,
  scale: {
    sessions: 1_000,
    connectWindow: 100,
    // Three rounds of pings (a session pings every 10 s). The first round is the process's first (its code
    // still cold), and V8's memory reducer runs one to three full GCs about 8 s after the connects grew the
    // heap, sooner or later depending on the mutator: a 10 s window held one round and the reducer in some
    // passes and not others (bench/README.md, "What the row's idle window holds").
    idleMs: 30_000,
    // The full collections after the window give the young generation back at once; the cap only bounds a
    // process where they did not.
    settleCapMs: 10_000,
    fixtureChildren: 100_000,
    largeBytes: 1024 * 1024,
    largeOps: 100,
    largeWarmup: 10,
    childrenCalls: 7,
    childrenWarmup: 2,
  },
};
// Smoke runs only (`--quick`): every code path, small counts. Its figures are not the benchmark.
export const QUICK: WorkloadParams = {
  ...FULL,
  getOps: 5_000,
  getWarmup: 1_000,
  seqOps: 500,
  seqWarmup: 100,
  createDeletePairs: 1_000,
  createDeleteWarmup: 200,
  watches: 1_000,
  lockCycles: 100,
  lockWarmup: 20,
  handoffs: 200,
  waiters: 100,
  scale: {
    sessions: 100,
    connectWindow: 50,
    idleMs: 2_000,
    settleCapMs: 2_000,
    fixtureChildren: 10_000,
    largeBytes: 1024 * 1024,
    largeOps: 10,
    largeWarmup: 2,
    childrenCalls: 3,
    childrenWarmup: 1,
  },
};

export const LABELS: Record<ClientId, string> = {
  zkts: 'zkts',
  nzk: 'node-zookeeper-client',
  native: 'zookeeper (native)',
  java: 'ZooKeeper Java',
  curator: 'Curator',
  raw: 'raw socket (ceiling)',
};

// Node runners: which workloads each has (the native package gets no lock: the comparison is zkts's Mutex
// against Curator and the seeds' lock on node-zookeeper-client).
export const NODE_CLIENTS: { id: ClientId; workloads: readonly WorkloadName[] }[] = [
  { id: 'zkts', workloads: [...DATA_WORKLOADS, ...TRACING_WORKLOADS, ...LOCK_WORKLOADS, ...SCALE_WORKLOADS] },
  { id: 'nzk', workloads: [...DATA_WORKLOADS, ...LOCK_WORKLOADS, ...SCALE_WORKLOADS] },
  { id: 'native', workloads: [...DATA_WORKLOADS, ...SCALE_WORKLOADS] },
  // Not a client: the most a single connection can get from this server (getData, create, delete, and the
  // uncontended lock in the fewest requests a lock can make).
  { id: 'raw', workloads: ['getPipelined', 'getSequential', 'createDelete', 'mutexUncontended'] },
];

/** The first host of a connect string (the proxy's upstream). */
export function parseHost(connectString: string): { host: string; port: number } {
  const [host = '127.0.0.1', port = '2181'] = (connectString.split(',')[0] ?? '').split(':');
  return { host, port: Number(port) };
}

/**
 * A row a client is left out of although it has the operations, and why (printed under the table, kept in the
 * JSON): here, only where running it would cost the run minutes and say no more than the reason does.
 */
export function notRun(client: ClientId, workload: WorkloadName, params: WorkloadParams): string | undefined {
  if (client === 'native' && workload === 'watchReplay' && (params.scale?.fixtureChildren ?? 0) > 20_000) {
    return (
      'its C client hands every session event (disconnected, connected again) to every watcher, collecting them ' +
      'into a list it de-duplicates by linear search (zk_hashtable.c: collect_session_watchers → add_to_list → ' +
      'search_watcher): O(n²) per session event with one watcher per aw_get. Replays measured by hand on this ' +
      'machine (reconnect → all fired): 10k watches 0.5-0.7 s, 20k 3.1 s, 50k 14 s, 100k 36 s once and more than ' +
      'the row\'s 3 minutes in two other runs (perf: 77% of its CPU in search_watcher).'
    );
  }
  return undefined;
}

/** How many passes each workload gets (its best is kept); the waiters' figures are counts, not rates. */
export const PASSES: Partial<Record<RowWorkload, number>> = {
  getPipelined: 3,
  // Six measured rounds in each pass already (tracing.ts); three passes show the spread between processes.
  getPipelinedTracing: 3,
  // One connection's round trip is bimodal on a shared 2-core machine (client and server on one core, or
  // on two with a wake-up between): five short passes let each client show its better mode.
  getSequential: 5,
  getSequentialInterleaved: 3,
  // Both rows are bound by the server, and a client's first pass also warms the server's side of it: with two
  // passes, one pass decided the row (pairs/s of one client ranged 7,247-8,599 and the raw socket 5,849-8,227 in one run).
  createDelete: 4,
  watches: 4,
  mutexUncontended: 3,
  handoffs8: 3,
  handoffs32: 3,
  waiters: 1,
  sessions1k: 2,
  watchReplay: 2,
  getLarge: 3,
  children100k: 3,
};

/** The run whose headline figure (the workload's first row in the table) is best; every run is kept in `runs`. */
export function best(workload: RowWorkload, outcomes: Outcome[]): Outcome {
  const row = ROWS.find((r) => r.workload === workload);
  const ok = outcomes.filter((o): o is { metrics: Metrics } => 'metrics' in o);
  if (!row || ok.length === 0) return outcomes[0] ?? { error: 'not run' };
  const score = (o: { metrics: Metrics }): number => {
    const v = o.metrics[row.metric] ?? Number.NaN;
    return row.better === 'higher' ? v : -v;
  };
  const top = ok.reduce((a, b) => (score(b) > score(a) ? b : a));
  return { metrics: top.metrics, runs: ok.map((o) => o.metrics) };
}

/**
 * The interleaved row keeps ONE pass for every client, so each ratio compares figures measured side by side:
 * the quietest pass, the one with the lowest geometric mean of every client's p50 (no client's own luck
 * decides). Taking each client's own best pass would pair figures from different passes, which is the noise
 * this row exists to remove. Every pass stays in `runs`.
 */
export function interleavedPick(passes: readonly Map<ClientId, Outcome>[], ids: readonly ClientId[]): Partial<Record<ClientId, Outcome>> {
  const noise = (m: Map<ClientId, Outcome>): number => {
    let logSum = 0;
    for (const id of ids) {
      const o = m.get(id);
      const v = o && 'metrics' in o ? o.metrics['p50Us'] : undefined;
      if (v === undefined || !(v > 0)) return Number.POSITIVE_INFINITY;
      logSum += Math.log(v);
    }
    return logSum;
  };
  const kept = passes.reduce<Map<ClientId, Outcome> | undefined>((a, b) => (a === undefined || noise(b) < noise(a) ? b : a), undefined);
  const out: Partial<Record<ClientId, Outcome>> = {};
  for (const id of ids) {
    const runs = passes.flatMap((m) => {
      const o = m.get(id);
      return o && 'metrics' in o ? [o.metrics] : [];
    });
    const mine = kept?.get(id);
    out[id] = mine && 'metrics' in mine ? { metrics: mine.metrics, runs } : (mine ?? { error: 'not run' });
  }
  return out;
}
