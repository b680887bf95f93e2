// Mutex against the shared real server: exclusion (with a negative control: the same check catches a lock that
// lets everyone in), the seeds' read-modify-write counter, FIFO fairness with a timing-out waiter, herd-freedom
// with 1,000 waiters, the lost-wakeup window, reentrancy, fencing tokens.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';

import { MultiError, type ZkClient } from '@zkts/protocol';
import { LockBusyError, LockLostError, LockNotHeldError, Mutex, type LockHandle } from '@zkts/recipes';

import { settleCleanups } from '../../../src/internal/cleanup.js';
import { setTestHooks } from '../../../src/internal/test-hooks.js';

import { CriticalSection, grantsEveryone, type Acquirable } from '../../support/exclusion.js';
import { Clients, childrenOf, sleep, text, uniqueRoot, until } from '../../support/helpers.js';

const clients = new Clients();
const stopRecording: (() => void)[] = [];
afterEach(async () => {
  for (const stop of stopRecording.splice(0)) stop();
  await clients.closeAll();
});

/** Records the removeWatches requests this process sends and their outcome (from the client's zkts:request traces). */
function watchRemovals(): { sessionId: bigint; path: string; errorCode: string | undefined }[] {
  const done: { sessionId: bigint; path: string; errorCode: string | undefined }[] = [];
  const onEnd = (msg: unknown): void => {
    const t = msg as { op: string; sessionId: bigint; path: string; errorCode: string | undefined };
    if (t.op === 'removeWatches') done.push({ sessionId: t.sessionId, path: t.path, errorCode: t.errorCode });
  };
  subscribe('tracing:zkts:request:asyncEnd', onEnd);
  stopRecording.push(() => unsubscribe('tracing:zkts:request:asyncEnd', onEnd));
  return done;
}

/** Each client takes its lock `rounds` times and runs the section across two round trips of its own session. */
async function contend(holders: readonly (readonly [ZkClient, Acquirable])[], rounds: number, section: CriticalSection): Promise<void> {
  await Promise.all(
    holders.map(async ([c, lock]) => {
      for (let i = 0; i < rounds; i++) {
        const lease = await lock.acquire({ timeout: 30_000 });
        await section.run(() => c.exists('/'));
        await lease.release();
      }
    }),
  );
}

describe('Mutex', () => {
  it('mutual exclusion: 8 clients × 200 rounds, never two in the critical section, no increment lost', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const cs = await clients.many(8);
    const section = new CriticalSection();
    await contend(cs.map((c) => [c, new Mutex(c, dir)] as const), 200, section);
    expect(section.sections).toBe(1600);
    expect(section.violations).toBe(0);
    expect(section.peak).toBe(1);
    expect(section.cell).toBe(1600);
    expect(await childrenOf(cs[0]!, dir)).toEqual([]);
  });

  it('negative control: the same check catches a lock that grants everyone', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const cs = await clients.many(8);
    const section = new CriticalSection();
    await contend(cs.map((c) => [c, grantsEveryone(c, dir)] as const), 20, section);
    expect(section.sections).toBe(160);
    expect(section.peak).toBeGreaterThan(1);
    expect(section.violations).toBeGreaterThan(0);
    expect(section.lostUpdates).toBeGreaterThan(0);
  });

  it('100 workers read-modify-write a counter node under the lock (no version checks) → exactly 100', async () => {
    const root = uniqueRoot();
    const cs = await clients.many(5);
    await cs[0]!.create(root, null);
    await cs[0]!.create(`${root}/counter`, '0');
    await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const c = cs[i % cs.length]!;
        await using _lease = await new Mutex(c, `${root}/lock`).acquire({ timeout: 60_000 });
        const { data } = await c.getData(`${root}/counter`);
        await c.setData(`${root}/counter`, String(Number(text(data)) + 1));
      }),
    );
    expect(text((await cs[0]!.getData(`${root}/counter`)).data)).toBe('100');
  });

  it('fairness: grants in creation order; a waiter that times out leaves no node, the rest keep order', async () => {
    const root = uniqueRoot();
    const cs = await clients.many(3);
    const dir = `${root}/lock`;
    const head = await new Mutex(cs[0]!, dir).acquire();
    const removals = watchRemovals();
    const order: number[] = [];
    const waiters: Promise<void>[] = [];
    const mutexes: Mutex[] = [];
    for (let i = 0; i < 6; i++) {
      const m = new Mutex(cs[i % 3]!, dir);
      mutexes.push(m);
      const timeout = i === 2 ? 300 : 30_000;
      waiters.push(
        m.acquire({ timeout }).then(
          async (l) => {
            order.push(i);
            await l.release();
          },
          (e: unknown) => {
            order.push(-i);
            if (!(e instanceof Error && 'code' in e && e.code === 'TIMEOUT')) throw e;
          },
        ),
      );
      // Wait until this waiter's node exists, so creation order is the loop order.
      while ((await childrenOf(cs[0]!, dir)).length < i + 2) await sleep(5);
    }
    await sleep(500); // waiter 2 times out while the head still holds
    expect(order).toEqual([-2]);
    // It left no watch behind on the node it waited for (waiter 1's): its client removed it on the server.
    // (ZooKeeper's checkWatches cannot show this: it answers for any session while others watch the path.)
    const waitedFor = (await mutexes[1]!.participants())[2]!.node;
    expect(removals).toContainEqual({ sessionId: cs[2]!.sessionId, path: waitedFor, errorCode: undefined });
    expect((await childrenOf(cs[0]!, dir)).length).toBe(6); // head + 5 waiters, the timed-out one is gone
    await head.release();
    await Promise.all(waiters);
    expect(order).toEqual([-2, 0, 1, 3, 4, 5]);
    expect(await childrenOf(cs[0]!, dir)).toEqual([]);
  });

  it('herd-free: 1,000 waiters, each release wakes exactly one of them', async () => {
    const root = uniqueRoot();
    const cs = await clients.many(4);
    const dir = `${root}/lock`;
    let deletedEvents = 0;
    const onEvent = (msg: unknown): void => {
      const m = msg as { type: string; path: string };
      if (m.path.startsWith(`${dir}/`) && (m.type === 'deleted' || m.type === 'NodeDeleted')) deletedEvents++;
    };
    subscribe('zkts:event', onEvent);
    try {
      const head = await new Mutex(cs[0]!, dir).acquire();
      const n = 1000;
      const mutexes = Array.from({ length: n }, (_, i) => new Mutex(cs[i % cs.length]!, dir));
      const section = new CriticalSection();
      const all = mutexes.map(async (m, i) => {
        const l = await m.acquire({ timeout: 100_000 });
        await section.run(() => cs[i % cs.length]!.exists(dir));
        await l.release();
      });
      while ((await childrenOf(cs[0]!, dir)).length < n + 1) await sleep(50);
      // Every waiter has its watch set (each watches one distinct predecessor) before the first release.
      while (mutexes.reduce((s, m) => s + m.stats.watches, 0) < n) await sleep(20);
      await head.release();
      await Promise.all(all);
      expect(section.sections).toBe(n);
      expect(section.violations).toBe(0);
      expect(section.cell).toBe(n);
      const wakeups = mutexes.reduce((s, m) => s + m.stats.wakeups, 0);
      const listings = mutexes.reduce((s, m) => s + m.stats.listings, 0);
      // n releases to wait for (the head's + n-1 waiters'), one wakeup each: exactly n.
      expect(wakeups).toBe(n);
      // Watch events delivered by the client for deletions in the lock dir: one per watched predecessor.
      expect(deletedEvents).toBe(n);
      // Each waiter listed once when it enqueued and once after its wakeup, except the one that was second in
      // line when it enqueued: its only predecessor's deletion makes it the head without another listing.
      expect(listings).toBe(2 * n - 1);
    } finally {
      unsubscribe('zkts:event', onEvent);
    }
  });

  it('no lost wakeup: predecessor deleted between getChildren and the watch call', async () => {
    const root = uniqueRoot();
    const [c1, c2] = await clients.many(2);
    const dir = `${root}/lock`;
    const held = await new Mutex(c1!, dir).acquire();
    let injected = 0;
    const waiter = setTestHooks(new Mutex(c2!, dir), {
      afterGetChildren: async ({ watch }) => {
        injected++;
        expect(`${dir}/${watch}`).toBe(held.node);
        await held.release(); // the node it is about to watch is gone before the getData call
      },
    });
    const lease = await waiter.acquire({ timeout: 5000 });
    expect(injected).toBe(1);
    expect(await childrenOf(c1!, dir)).toEqual([lease.node.slice(dir.length + 1)]);
    await lease.release();
  });

  it('reentrant counts balance; non-reentrant rejects a second acquire; two instances never share', async () => {
    const root = uniqueRoot();
    const c = await clients.connect();
    const r = new Mutex(c, `${root}/r`, { reentrant: true });
    const a = await r.acquire();
    const b = await r.acquire();
    expect(r.holdCount).toBe(2);
    expect(b.node).toBe(a.node);
    await a.release();
    expect(await childrenOf(c, `${root}/r`)).toHaveLength(1);
    await b.release();
    expect(await childrenOf(c, `${root}/r`)).toHaveLength(0);
    await expect(r.release()).rejects.toBeInstanceOf(LockNotHeldError);

    const n = new Mutex(c, `${root}/n`);
    const held = await n.acquire();
    await expect(n.acquire()).rejects.toBeInstanceOf(LockBusyError);
    expect(await new Mutex(c, `${root}/n`).tryAcquire()).toBeNull();
    await held.release();
    const other = await new Mutex(c, `${root}/n`).tryAcquire();
    expect(other).not.toBeNull();
    await other!.release();
  });

  it('fencing token (czxid) strictly increases, even after the container parent is deleted and recreated', async () => {
    const root = uniqueRoot();
    const c = await clients.connect();
    const dir = `${root}/lock`;
    const tokens: bigint[] = [];
    const seqs: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 3; i++) {
        const lease: LockHandle = await new Mutex(c, dir).acquire();
        tokens.push(lease.fencingToken);
        seqs.push(lease.node.slice(-10));
        expect(lease.fencingToken).toBe((await c.exists(lease.node))!.czxid);
        await lease.release();
      }
      await c.delete(dir); // what ZooKeeper's container reaper does to an empty lock dir
    }
    for (let i = 1; i < tokens.length; i++) expect(tokens[i]! > tokens[i - 1]!).toBe(true);
    // The sequence number, by contrast, restarted with each new parent: useless as a token.
    expect(seqs[3]).toBe(seqs[0]);
  });

  it('guard() commits only while our node exists; a node deleted behind our back fires lost', async () => {
    const root = uniqueRoot();
    const [c1, admin] = await clients.many(2);
    await c1!.create(root, null);
    await c1!.create(`${root}/resource`, 'v0');
    const lease = await new Mutex(c1!, `${root}/lock`).acquire();
    const lost = lease.lost;
    const [r] = await lease.guard([{ op: 'setData', path: `${root}/resource`, data: 'v1' }]);
    expect(r).toMatchObject({ op: 'setData' });
    await admin!.delete(lease.node); // e.g. an operator, or the session's ephemerals going away
    const refused = await lease.guard([{ op: 'setData', path: `${root}/resource`, data: 'v2' }]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LockLostError);
    expect(refused).toMatchObject({ code: 'LOCK_LOST', cause: { code: 'NO_NODE', failedIndex: 0 } });
    expect(text((await c1!.getData(`${root}/resource`)).data)).toBe('v1');
    await until(() => lost.aborted, 3000, 'lost');
    await lease.release(); // already gone: completes without error
  });

  it("a failing guard() numbers the caller's ops, not the check it puts first", async () => {
    const root = uniqueRoot();
    const [c1] = await clients.many(1);
    await c1!.create(root, null);
    await c1!.create(`${root}/report`, 'done');
    const lease = await new Mutex(c1!, `${root}/lock`).acquire();
    // One op, and it fails: it is op #0 of what the caller passed, and the only result.
    const one = await lease.guard([{ op: 'create', path: `${root}/report`, data: 'again' }]).catch((e: unknown) => e);
    expect(one).toBeInstanceOf(MultiError);
    expect(one).toMatchObject({ code: 'NODE_EXISTS', failedIndex: 0, path: `${root}/report`, message: expect.stringMatching(/^multi op #0 failed/) });
    expect((one as MultiError).results.map((r) => r.code)).toEqual(['NODE_EXISTS']);
    // Two ops, the second fails: index 1, and the first op's outcome is the first result.
    const two = await lease
      .guard([
        { op: 'setData', path: `${root}/report`, data: 'v2' },
        { op: 'delete', path: `${root}/missing` },
      ])
      .catch((e: unknown) => e);
    expect(two).toMatchObject({ code: 'NO_NODE', failedIndex: 1, path: `${root}/missing` });
    expect((two as MultiError).results.map((r) => r.code)).toEqual(['OK', 'NO_NODE']);
    expect(text((await c1!.getData(`${root}/report`)).data)).toBe('done'); // rolled back
    expect(lease.lost.aborted).toBe(false); // the lock itself is fine
    await lease.release();
  });

  it('kazoo contenders (<uuid>__lock__<seq>) are queued behind; foreign children are ignored', async () => {
    const root = uniqueRoot();
    const [c1, c2] = await clients.many(2);
    const dir = `${root}/lock`;
    await c1!.mkdirp(dir);
    await c1!.create(`${dir}/config`, 'not a contender');
    await c1!.create(`${dir}/zz-lock-notanumber`, null);
    const kazoo = await c1!.create(`${dir}/0123456789abcdef0123456789abcdef__lock__`, 'kazoo-id', { mode: 'ephemeral-sequential' });
    const m = new Mutex(c2!, dir);
    expect(await m.tryAcquire()).toBeNull();
    const p = m.acquire({ timeout: 5000 });
    await sleep(100);
    expect((await m.holders()).map((h) => h.node)).toEqual([kazoo.path]);
    await c1!.delete(kazoo.path);
    const lease = await p;
    expect((await m.participants()).map((x) => x.node)).toEqual([lease.node]);
    await lease.release();
    expect((await childrenOf(c1!, dir)).sort()).toEqual(['config', 'zz-lock-notanumber']);
  });

  it('the lock dir is created as a container; participants() and holders() report owners in order', async () => {
    const root = uniqueRoot();
    const cs = await clients.many(2);
    const dir = `${root}/lock`;
    const created: string[] = [];
    const onRequest = (msg: unknown): void => {
      const m = msg as { op?: string; path?: string };
      if (m.op === 'createContainer' && m.path !== undefined) created.push(m.path);
    };
    subscribe('tracing:zkts:request:start', onRequest);
    let a: LockHandle;
    try {
      a = await new Mutex(cs[0]!, dir, { data: 'worker-a' }).acquire();
    } finally {
      unsubscribe('tracing:zkts:request:start', onRequest);
    }
    // Parents are made with createContainer (Curator's creatingParentContainersIfNeeded), lazily: after NoNode.
    expect(created).toEqual([root, dir]);
    const bP = new Mutex(cs[1]!, dir, { data: 'worker-b' }).acquire();
    while ((await childrenOf(cs[0]!, dir)).length < 2) await sleep(5);
    const m = new Mutex(cs[0]!, dir);
    const ps = await m.participants();
    expect(ps.map((p) => p.data)).toEqual(['worker-a', 'worker-b']);
    expect(ps.map((p) => p.ephemeralOwner)).toEqual([cs[0]!.sessionId, cs[1]!.sessionId]);
    expect((await m.holders()).map((p) => p.node)).toEqual([a.node]);
    await a.release();
    const b = await bP;
    expect((await m.holders()).map((p) => p.data)).toEqual(['worker-b']);
    await b.release();
    await settleCleanups(cs[0]!, cs[1]!);
  });
});
