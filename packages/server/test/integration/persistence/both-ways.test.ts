// Persistence side by side with ZooKeeper 3.8: ZooKeeper started on a dataDir our server wrote (its logs
// replayed past an older snapshot, its digest checked) sees the same tree, continues the same sequence counters and lets the
// open session re-attach; our server started on a dataDir ZooKeeper wrote (after a crash: logs replayed)
// does the same. ZooKeeper's TxnLogToolkit and SnapshotFormatter and `zkts txnlog`/`zkts snapshot` read our
// files without a complaint.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readTxnLog, type TxnEntry } from '@zkts/protocol/codec';
import { connect } from '@zkts/protocol';
import { startServer } from '@zkts/server';
import { javaRuntime, startZooKeeper, type ZooKeeperServer } from '@zkts/testkit';

import { dumpTree, tempDir, writeWorkload, type DumpedNode } from '../../unit/persistence/support.js';

const ZK_OPTIONS = { systemProperties: { 'zookeeper.extendedTypesEnabled': true, 'zookeeper.preAllocSize': 16 } } as const;
const CLI = fileURLToPath(new URL('../../../../cli/bin/zkts.js', import.meta.url));

async function dumpAt(connectString: string): Promise<DumpedNode[]> {
  const zk = await connect(connectString);
  try {
    return await dumpTree(zk);
  } finally {
    await zk.close();
  }
}

async function nextSequential(connectString: string): Promise<string> {
  const zk = await connect(connectString);
  try {
    return (await zk.create('/app/seq-', null, { mode: 'persistent-sequential' })).path;
  } finally {
    await zk.close();
  }
}

/** Replaces a stopped ZooKeeper's version-2 with `from`'s. */
function installDataDir(zk: ZooKeeperServer, from: string): void {
  rmSync(join(zk.dataDir, 'version-2'), { recursive: true, force: true });
  cpSync(join(from, 'version-2'), join(zk.dataDir, 'version-2'), { recursive: true });
}

function snapshotsNewestFirst(dir: string): string[] {
  const zxid = (name: string): bigint => BigInt(`0x${name.slice('snapshot.'.length)}`);
  return readdirSync(dir)
    .filter((f) => f.startsWith('snapshot.'))
    .sort((a, b) => (zxid(b) > zxid(a) ? 1 : zxid(b) < zxid(a) ? -1 : 0));
}

/** Every entry of the logs in `dir`, in zxid order. */
function logEntries(dir: string): TxnEntry[] {
  const zxid = (name: string): bigint => BigInt(`0x${name.slice('log.'.length)}`);
  const logs = readdirSync(dir)
    .filter((f) => f.startsWith('log.'))
    .sort((a, b) => (zxid(a) < zxid(b) ? -1 : 1));
  return logs.flatMap((name) => readTxnLog(new Uint8Array(readFileSync(join(dir, name)))).records.map((r) => r.entry as TxnEntry));
}

/** Entries without what differs between two runs: times, digests, session ids (numbered by appearance). */
function normalized(entries: TxnEntry[]): string[] {
  const sessions = new Map<bigint, number>();
  return entries.map((e) => {
    if (!sessions.has(e.header.clientId)) sessions.set(e.header.clientId, sessions.size);
    const { clientId, time: _time, ...header } = e.header;
    return JSON.stringify({ session: sessions.get(clientId), ...header, txn: e.txn }, (_k, v: unknown) =>
      typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v,
    );
  });
}

const servers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => undefined);
});

describe('persistence against ZooKeeper 3.8', () => {
  it('ZooKeeper loads the dataDir our server wrote', async () => {
    const ours = tempDir('ours');
    const server = await startServer({ dataDir: ours, snapCount: 20, preAllocSize: 16 });
    const owner = await writeWorkload(server.connectString);
    const expected = await dumpAt(server.connectString);
    const sessionId = owner.sessionId;
    await server.close();
    // Leave out the snapshot written on close, so ZooKeeper has to replay our logs.
    const dir = join(ours, 'version-2');
    const snaps = snapshotsNewestFirst(dir);
    expect(snaps.length).toBeGreaterThan(2);
    const copy = tempDir('ours-copy');
    cpSync(ours, copy, { recursive: true });
    rmSync(join(copy, 'version-2', snaps[0] as string));

    const zk = await startZooKeeper(ZK_OPTIONS);
    servers.push({ close: async () => zk[Symbol.asyncDispose]() });
    await zk.stop();
    installDataDir(zk, copy);
    await zk.start();
    const seen = await dumpAt(zk.connectString);
    expect(seen).toEqual(expected);
    // ZooKeeper checked the tree it loaded against our snapshot's digest, and read everything without a word.
    if ('logFile' in zk && typeof zk.logFile === 'string') {
      const complaints = readFileSync(zk.logFile, 'utf8')
        .split('\n')
        .filter((l) => /WARN|ERROR/.test(l) && /persistence\.|DataTree|ZKDatabase|SerializeUtils|[Ss]napshot|[Dd]igest/.test(l));
      expect(complaints).toEqual([]);
    }
    // The open session's ephemerals are there, and the session re-attaches with its password.
    owner.updateServers(zk.connectString);
    await owner.connected();
    expect(owner.sessionId).toBe(sessionId);
    expect((await owner.exists('/app/eph'))?.ephemeralOwner).toBe(sessionId);
    await owner.close();
    // The same sequence counter: ZooKeeper and our server (restarted on its own files) name the next alike.
    const zkNext = await nextSequential(zk.connectString);
    await using again = await startServer({ dataDir: ours, preAllocSize: 16 });
    expect(await nextSequential(again.connectString)).toBe(zkNext);
  });

  it('our server loads the dataDir ZooKeeper wrote', async () => {
    // ZooKeeper snapshots (in the background, fuzzily) every 5 to 10 txns here.
    const zk = await startZooKeeper({ systemProperties: { ...ZK_OPTIONS.systemProperties, 'zookeeper.snapCount': 10 } });
    servers.push({ close: async () => zk[Symbol.asyncDispose]() });
    const owner = await writeWorkload(zk.connectString);
    const sessionId = owner.sessionId;
    const expected = await dumpAt(zk.connectString);
    // A crash: the newest snapshot is followed by more log.
    await zk.kill();
    const copy = tempDir('zk-copy');
    cpSync(zk.dataDir, copy, { recursive: true });
    expect(readdirSync(join(copy, 'version-2')).filter((f) => f.startsWith('snapshot.')).length).toBeGreaterThan(2);
    await using server = await startServer({ dataDir: copy, preAllocSize: 16 });
    expect(await dumpAt(server.connectString)).toEqual(expected);
    owner.updateServers(server.connectString);
    await owner.connected();
    expect(owner.sessionId).toBe(sessionId);
    expect((await owner.exists('/app/eph'))?.ephemeralOwner).toBe(sessionId);
    const ourNext = await nextSequential(server.connectString);
    await zk.start();
    expect(await nextSequential(zk.connectString)).toBe(ourNext);
    await owner.close();
  });

  it("logs the same transactions as ZooKeeper, record for record", async () => {
    const zk = await startZooKeeper(ZK_OPTIONS);
    servers.push({ close: async () => zk[Symbol.asyncDispose]() });
    await (await writeWorkload(zk.connectString)).close();
    await zk.kill();
    const dataDir = tempDir('same-log');
    const server = await startServer({ dataDir, tickTime: 500, preAllocSize: 16 });
    await (await writeWorkload(server.connectString)).close();
    await server.close();
    const theirs = normalized(logEntries(join(zk.dataDir, 'version-2')));
    expect(theirs.length).toBeGreaterThan(20);
    expect(normalized(logEntries(join(dataDir, 'version-2')))).toEqual(theirs);
  });

  it("ZooKeeper's tools and the zkts CLI read our files", async () => {
    const dataDir = tempDir('tools');
    const server = await startServer({ dataDir, snapCount: 15, preAllocSize: 16 });
    const owner = await writeWorkload(server.connectString);
    await owner.close();
    await server.close();
    const dir = join(dataDir, 'version-2');
    const { java, classpath } = javaRuntime();
    const files = readdirSync(dir);
    for (const name of files.filter((f) => f.startsWith('log.'))) {
      const out = execFileSync(java, ['-cp', classpath, 'org.apache.zookeeper.server.persistence.TxnLogToolkit', join(dir, name)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      const count = readTxnLog(new Uint8Array(execFileSync('cat', [join(dir, name)]))).records.length;
      expect(out).toContain(`EOF reached after ${count} txns.`);
      expect(out).not.toMatch(/CRC ERROR|Exception/);
    }
    for (const name of files.filter((f) => f.startsWith('snapshot.'))) {
      const run = spawnSync(java, ['-cp', classpath, 'org.apache.zookeeper.server.SnapshotFormatter', join(dir, name)], { encoding: 'utf8' });
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('----');
    }
    const last = snapshotsNewestFirst(dir)[0] as string;
    const snap = spawnSync(java, ['-cp', classpath, 'org.apache.zookeeper.server.SnapshotFormatter', join(dir, last)], { encoding: 'utf8' });
    expect(snap.stdout).toContain('/app/seq-0000000003');
    expect(snap.stdout).toContain('/ttl');
    for (const args of [['txnlog', dataDir], ['snapshot', dataDir]]) {
      const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain('/app');
    }
  });
});
