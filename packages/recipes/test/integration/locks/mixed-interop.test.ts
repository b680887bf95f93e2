// zkts locks of every kind on one path with other libraries' locks. Every holder reports the
// interval it held on CLOCK_MONOTONIC (overlaps.ts); a writer's interval must meet no other.
//
// What can share a path is decided by the other libraries too (README, "Locks on one path"): kazoo's WriteLock,
// told zkts's and Curator's names through extra_lock_patterns, waits for every kind; Curator's two lock classes
// sort every name they do not know after their own, so InterProcessMutex sees only `lock-` nodes and
// InterProcessReadWriteLock only `__READ__`/`__WRIT__` nodes. So kazoo shares a path with every zkts kind, the
// Curator RW lock with zkts's ReadWriteLock, InterProcessMutex with zkts's Mutex; the last test pins the blind
// spots the README lists, so the table cannot drift from Curator.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { Mutex, ReadWriteLock, type LockHandle, type Lockable } from '@zkts/recipes';

import { checkKazoo, compileCurator, curator, kazooWriter, killAll } from '../../support/foreign.js';
import { Clients, childrenOf, sharedServer, sleep, uniqueRoot } from '../../support/helpers.js';
import { checkOverlaps, interleaved, parseHeld, type Held } from '../../support/overlaps.js';

const clients = new Clients();
let compiled: ReturnType<typeof compileCurator> | undefined;

beforeAll(() => {
  checkKazoo();
  compiled = compileCurator();
}, 120_000);

afterEach(async () => {
  killAll();
  await clients.closeAll();
});

afterAll(() => compiled?.dispose());

/** `rounds` acquire-hold-release cycles of each lock, recording the held intervals. */
async function zktsHolders(locks: readonly { kind: 'read' | 'write'; who: string; lock: Lockable }[], rounds: number, held: Held[]): Promise<void> {
  await Promise.all(
    locks.map(async ({ kind, who, lock }, n) => {
      for (let i = 0; i < rounds; i++) {
        const lease: LockHandle = await lock.acquire({ timeout: 60_000 });
        const start = process.hrtime.bigint();
        await sleep(kind === 'write' ? 1 : 2 + ((n + i) % 3));
        held.push({ kind, who, start, end: process.hrtime.bigint() });
        await lease.release();
      }
    }),
  );
}

function summary(what: string, held: readonly Held[]): ReturnType<typeof checkOverlaps> {
  const report = checkOverlaps(held);
  const by = (prefix: string): number => held.filter((h) => h.who.startsWith(prefix)).length;
  console.info(
    `${what}: ${report.grants} grants (zkts ${by('zkts')}, curator ${by('curator')}, kazoo ${by('kazoo')}), ` +
      `${report.overlaps} overlaps, up to ${report.maxConcurrentReaders} readers at once`,
  );
  return report;
}

describe('one lock path shared with other libraries', () => {
  it('kazoo WriteLock processes and every kind of zkts lock on one path: no overlap', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const cs = await clients.many(4);
    const kazoo = [0, 1].map((i) => kazooWriter(sharedServer(), dir, `kazoo-${i}`, 12, 3));
    const locks = [
      ...[0, 1].map((i) => ({ kind: 'write' as const, who: `zkts-mutex-${i}`, lock: new Mutex(cs[i]!, dir) })),
      ...[0, 1].map((i) => ({ kind: 'write' as const, who: `zkts-writer-${i}`, lock: new ReadWriteLock(cs[i + 2]!, dir).writeLock })),
      ...[0, 1, 2, 3, 4, 5].map((i) => ({ kind: 'read' as const, who: `zkts-reader-${i}`, lock: new ReadWriteLock(cs[i % 4]!, dir).readLock })),
    ];
    const held: Held[] = [];
    // Start once kazoo is queued, so the libraries really contend.
    while (!(await childrenOf(cs[0]!, dir)).some((n) => n.includes('__lock__'))) await sleep(20);
    await zktsHolders(locks, 8, held);
    for (const k of kazoo) await k.line(/DONE/, 60_000);
    expect(await Promise.all(kazoo.map((k) => k.exited))).toEqual([0, 0]);
    const kazooHeld = kazoo.flatMap((k) => parseHeld(k.output()));
    expect(interleaved(held, kazooHeld)).toBe(true);
    held.push(...kazooHeld);
    const report = summary('one path, zkts + kazoo', held);
    expect(report.overlaps, report.examples.join('\n')).toBe(0);
    expect(report.grants).toBe(80 + 24);
    expect(report.maxConcurrentReaders).toBeGreaterThan(1);
    expect(await childrenOf(cs[0]!, dir)).toEqual([]);
  });

  it('Curator InterProcessReadWriteLock (writer, reader) with zkts ReadWriteLock, InterProcessMutex with zkts Mutex: no overlap', async () => {
    const root = uniqueRoot();
    const rwDir = `${root}/rw`;
    const mutexDir = `${root}/mutex`;
    const cs = await clients.many(4);
    const jvm = curator(compiled!.classpath, 'loop', sharedServer(), '12', '3', `write:${rwDir}`, `read:${rwDir}`, `mutex:${mutexDir}`);
    const rwLocks = [
      ...[0, 1].map((i) => ({ kind: 'write' as const, who: `zkts-writer-${i}`, lock: new ReadWriteLock(cs[i]!, rwDir).writeLock })),
      ...[0, 1, 2, 3, 4, 5].map((i) => ({ kind: 'read' as const, who: `zkts-reader-${i}`, lock: new ReadWriteLock(cs[i % 4]!, rwDir).readLock })),
    ];
    const mutexLocks = [0, 1, 2].map((i) => ({ kind: 'write' as const, who: `zkts-mutex-${i}`, lock: new Mutex(cs[i]!, mutexDir) }));
    // Start once the JVM is queued on both paths (its start-up takes seconds), so the libraries really contend.
    while ((await childrenOf(cs[0]!, rwDir)).length === 0 || (await childrenOf(cs[0]!, mutexDir)).length === 0) await sleep(20);
    const rwHeld: Held[] = [];
    const mutexHeld: Held[] = [];
    await Promise.all([zktsHolders(rwLocks, 8, rwHeld), zktsHolders(mutexLocks, 8, mutexHeld)]);
    await jvm.line(/DONE/, 60_000);
    expect(await jvm.exited).toBe(0);
    const curatorHeld = parseHeld(jvm.output());
    expect(interleaved([...rwHeld, ...mutexHeld], curatorHeld)).toBe(true);
    rwHeld.push(...curatorHeld.filter((h) => !h.who.startsWith('curator-mutex')));
    mutexHeld.push(...curatorHeld.filter((h) => h.who.startsWith('curator-mutex')));
    const rw = summary('one path, zkts ReadWriteLock + Curator InterProcessReadWriteLock', rwHeld);
    const mutex = summary('one path, zkts Mutex + Curator InterProcessMutex', mutexHeld);
    expect(rw.overlaps, rw.examples.join('\n')).toBe(0);
    expect(mutex.overlaps, mutex.examples.join('\n')).toBe(0);
    expect([rw.grants, mutex.grants]).toEqual([64 + 24, 24 + 12]);
    expect(rw.maxConcurrentReaders).toBeGreaterThan(1);
  });

  it("pins Curator's blind spots: what InterProcessMutex and InterProcessReadWriteLock do not wait for", async () => {
    const root = uniqueRoot();
    const c = await clients.connect();
    const held = {
      reader: await new ReadWriteLock(c, `${root}/reader`).readLock.acquire(),
      mutex: await new Mutex(c, `${root}/mutex`).acquire(),
      writer: await new ReadWriteLock(c, `${root}/writer`).writeLock.acquire(),
    };
    // A kazoo writer's node, as kazoo names it (kazoo itself would take a second interpreter to start).
    await c.mkdirp(`${root}/kazoo`);
    await c.create(`${root}/kazoo/0123456789abcdef0123456789abcdef__lock__`, 'kazoo', { mode: 'ephemeral-sequential' });
    const probes: [string, 'ACQUIRED' | 'TIMEOUT'][] = [
      [`mutex:${root}/mutex`, 'TIMEOUT'], // same class of names: excluded
      [`mutex:${root}/reader`, 'ACQUIRED'], // blind to __READ__ ...
      [`mutex:${root}/writer`, 'ACQUIRED'], // ... to __WRIT__ ...
      [`mutex:${root}/kazoo`, 'ACQUIRED'], // ... and to kazoo's __lock__
      [`write:${root}/reader`, 'TIMEOUT'], // the RW lock sees __READ__ and __WRIT__
      [`write:${root}/writer`, 'TIMEOUT'],
      [`write:${root}/mutex`, 'ACQUIRED'], // blind to lock- ...
      [`write:${root}/kazoo`, 'ACQUIRED'], // ... and to __lock__
      [`read:${root}/mutex`, 'ACQUIRED'],
    ];
    const jvm = curator(compiled!.classpath, 'probe', sharedServer(), '400', ...probes.map(([spec]) => spec));
    expect(await jvm.exited).toBe(0);
    const seen = jvm.output().trim().split('\n');
    expect(seen).toEqual(probes.map(([spec, outcome]) => `${spec} ${outcome}`));
    await Promise.all(Object.values(held).map((l) => l.release()));
  });
});
