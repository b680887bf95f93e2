/**
 * A scripted workload that makes a real ZooKeeper server write every kind of transaction it can write into
 * its log, and a snapshot with sessions, ACLs and ephemeral owners in it. Shared by the fixture script
 * (scripts/persistence-fixtures.ts, which copies the files into test/fixtures/persistence) and the CLI's
 * integration test that compares `zkts txnlog` / `zkts snapshot` with ZooKeeper's own tools.
 *
 * Transactions produced: createSession, create (persistent, sequential, ephemeral), createContainer,
 * createTTL, setData, setACL, delete, multi (all ok: create/setData/check/delete), multi with an error
 * (ErrorTxn sub-txns), error (a failed single write), deleteContainer (the server reaping an empty container
 * and an expired TTL node), closeSession (client close, and server-side expiry with paths to delete).
 * Not producible by a 3.8 server: CreateTxnV0 (pre-3.3), SetMaxChildrenTxn (never logged) — they are
 * covered by codec vectors built in the unit tests instead.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { createClient } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';
import { startFaultProxy, startZooKeeper } from '@zkts/testkit';
import type { ServerOptions, ZooKeeperServer } from '@zkts/testkit';

export const WORKLOAD_SERVER_OPTIONS: ServerOptions = {
  // The files are read from the server's data dir on this machine.
  backend: 'local',
  extendedTypesEnabled: true,
  containerCheckIntervalMs: 100,
  tickTime: 500,
  minSessionTimeout: 1000,
  maxSessionTimeout: 30_000,
  // 16 KiB preallocation (default 64 MiB) keeps log files small enough to commit as fixtures.
  config: { preAllocSize: 16 },
};

async function expectFailure(what: string, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch {
    return;
  }
  throw new Error(`${what} should have failed`);
}

/** Waits until `check` is true (the server's reaper and session expiry run on their own clocks). */
async function until(what: string, check: () => Promise<boolean>, timeout = 20_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

export interface WorkloadResult {
  /** Session ids as the clients saw them (hex without 0x). */
  sessions: { main: string; expired: string; short: string; holder: string };
}

/**
 * Runs the workload against `server`. The `holder` session stays open (its ephemeral node and the session
 * itself end up in the snapshot that a restart writes); the caller closes it via the returned function.
 */
export async function runWorkload(server: ZooKeeperServer): Promise<WorkloadResult & { closeHolder: () => Promise<void> }> {
  const connectString = server.connectString;
  const main = createClient(connectString, { sessionTimeout: 10_000 });
  await main.connect();
  const holder = createClient(connectString, { sessionTimeout: 30_000 });
  await holder.connect();
  const sessions = { main: hexId(main), holder: hexId(holder), expired: '', short: '' };
  try {
    await main.create('/app', 'hello');
    await main.create('/app/cfg', 'v1');
    await main.create('/app/seq-', 'one', { mode: 'persistent-sequential' });
    await main.create('/app/eph', 'mine', { mode: 'ephemeral' });
    await holder.create('/app/held', 'still here', { mode: 'ephemeral' });
    await main.create('/app/ttl-long', 'ttl', { mode: 'persistent-ttl', ttl: 3_600_000 });
    await main.create('/app/ttl-short', 'ttl', { mode: 'persistent-ttl', ttl: 200 });
    await main.create('/app/box', null, { mode: 'container' });
    await main.create('/app/box/item', 'x');
    await main.setData('/app', 'world', { version: 0 });
    await main.setData('/app/cfg', new Uint8Array([0, 1, 2, 0xff]));
    await main.setACL('/app/cfg', [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }, { perms: 1, id: { scheme: 'ip', id: '127.0.0.1' } }]);
    await main.multi([
      { op: 'create', path: '/app/m1', data: 'm' },
      { op: 'setData', path: '/app/m1', data: 'mm' },
      { op: 'check', path: '/app', version: 1 },
      { op: 'delete', path: '/app/m1' },
    ]);
    await expectFailure('multi with a missing node', () =>
      main.multi([
        { op: 'create', path: '/app/m2', data: 'm' },
        { op: 'delete', path: '/app/missing' },
        { op: 'setData', path: '/app', data: 'never' },
      ]),
    );
    await expectFailure('delete of a missing node', () => main.delete('/app/missing'));
    await expectFailure('setData with a stale version', () => main.setData('/app', 'stale', { version: 0 }));
    const seq = (await main.getChildren('/app')).children.find((c) => c.startsWith('seq-'));
    if (seq === undefined) throw new Error('no sequential child');
    await main.delete(`/app/${seq}`);
    await main.delete('/app/box/item');
    // The reaper deletes the now empty container and the expired TTL node (deleteContainer, session 0).
    await until('the container and the TTL node to be reaped', async () => (await main.exists('/app/box')) === null && (await main.exists('/app/ttl-short')) === null);

    // A short session that creates an ephemeral node and then goes silent: the server expires it.
    const proxy = await startFaultProxy({ host: server.host, port: server.port });
    const doomed = createClient(proxy.connectString, { sessionTimeout: 1000 });
    await doomed.connect();
    sessions.expired = hexId(doomed);
    await doomed.create('/app/doomed', 'bye', { mode: 'ephemeral' });
    proxy.blackhole();
    await until('the silent session to expire', async () => (await main.exists('/app/doomed')) === null);
    await proxy.close();
    await doomed.close().catch(() => undefined);

    // A session that opens, writes and closes cleanly.
    const short = createClient(connectString, { sessionTimeout: 5000 });
    await short.connect();
    sessions.short = hexId(short);
    await short.create('/app/short', 'brief', { mode: 'ephemeral' });
    await short.close();
    await main.delete('/app/eph');
  } finally {
    await main.close();
  }
  return {
    sessions,
    closeHolder: async () => {
      // A request that succeeds proves the session is attached to the restarted server (a connection loss
      // while the client notices the restart is retried).
      for (let attempt = 0; ; attempt++) {
        try {
          await holder.exists('/app/held', { timeout: 10_000 });
          break;
        } catch (error) {
          if (attempt >= 20) throw error;
          await sleep(200);
        }
      }
      await holder.close();
    },
  };
}

function hexId(client: ZkClient): string {
  return client.sessionId.toString(16);
}

export interface DataDirFiles {
  logs: string[];
  snapshots: string[];
}

/** The log and snapshot files of a server's data dir (version-2/), oldest first. */
export async function dataDirFiles(dataDir: string): Promise<DataDirFiles> {
  const dir = join(dataDir, 'version-2');
  const names = await readdir(dir);
  const byZxid = (prefix: string): string[] =>
    names
      .filter((n) => n.startsWith(`${prefix}.`))
      .sort((a, b) => (BigInt(`0x${a.slice(prefix.length + 1)}`) < BigInt(`0x${b.slice(prefix.length + 1)}`) ? -1 : 1))
      .map((n) => join(dir, n));
  return { logs: byZxid('log'), snapshots: byZxid('snapshot') };
}

/**
 * Starts a server, runs the workload, then restarts the server while the holder session is still alive: the
 * restart writes a snapshot of the whole tree (sessions, ACL cache, ephemeral owners, digest). Stops the
 * server at the end; the caller disposes it.
 */
export async function workloadDataDir(options: ServerOptions = {}): Promise<{ server: ZooKeeperServer; result: WorkloadResult; files: DataDirFiles }> {
  const server = await startZooKeeper({ ...WORKLOAD_SERVER_OPTIONS, ...options });
  try {
    const { closeHolder, ...result } = await runWorkload(server);
    await server.kill();
    await server.start();
    // The holder reconnects to the restarted server (its session survived), so its close is logged too,
    // in a second log file.
    await closeHolder();
    await server.stop();
    return { server, result, files: await dataDirFiles(server.dataDir) };
  } catch (error) {
    await server[Symbol.asyncDispose]();
    throw error;
  }
}
