// ReadWriteLock against the shared server: shared readers, exclusive writers, queued-writer blocking, nearest
// writer watch (no spurious wakeups), downgrade keeping its place (CURATOR-621), upgrade rejected, node names.
import { afterEach, describe, expect, it } from 'vitest';

import { LockUpgradeError, ReadWriteLock } from '@zkts/recipes';

import { Clients, childrenOf, sleep, uniqueRoot } from '../../support/helpers.js';

const clients = new Clients();
afterEach(() => clients.closeAll());

/** Resolves true if `p` settles within `ms`. */
async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([p.then(() => true, () => true), sleep(ms).then(() => false)]);
}

async function nodesIn(client: Parameters<typeof childrenOf>[0], dir: string, n: number): Promise<void> {
  while ((await childrenOf(client, dir)).length < n) await sleep(5);
}

describe('ReadWriteLock', () => {
  it('many readers at once; Curator-compatible node names', async () => {
    const dir = `${uniqueRoot()}/rw`;
    const cs = await clients.many(3);
    const leases = await Promise.all(cs.map((c) => new ReadWriteLock(c, dir).readLock.acquire({ timeout: 5000 })));
    for (const l of leases) expect(l.node).toMatch(/\/_c_[0-9a-f-]{36}-__READ__\d{10}$/);
    const w = new ReadWriteLock(cs[0]!, dir).writeLock;
    expect(await w.tryAcquire()).toBeNull();
    await Promise.all(leases.map((l) => l.release()));
    const wl = await w.acquire({ timeout: 5000 });
    expect(wl.node).toMatch(/\/_c_[0-9a-f-]{36}-__WRIT__\d{10}$/);
    await wl.release();
  });

  it('a writer excludes readers and writers', async () => {
    const dir = `${uniqueRoot()}/rw`;
    const cs = await clients.many(3);
    const w = await new ReadWriteLock(cs[0]!, dir).writeLock.acquire();
    const r = new ReadWriteLock(cs[1]!, dir).readLock.acquire({ timeout: 10_000 });
    // The reader queues first, so the grant order (reader, then writer) is known.
    await nodesIn(cs[0]!, dir, 2);
    const w2 = new ReadWriteLock(cs[2]!, dir).writeLock.acquire({ timeout: 10_000 });
    await nodesIn(cs[0]!, dir, 3);
    expect(await settlesWithin(Promise.race([r, w2]), 300)).toBe(false);
    await w.release();
    await (await r).release();
    await (await w2).release();
  });

  it('readers arriving after a queued writer wait for it; readers ahead of it never count it (kazoo #649)', async () => {
    const dir = `${uniqueRoot()}/rw`;
    const cs = await clients.many(3);
    const r1 = await new ReadWriteLock(cs[0]!, dir).readLock.acquire();
    const wP = new ReadWriteLock(cs[1]!, dir).writeLock.acquire({ timeout: 10_000 });
    await nodesIn(cs[0]!, dir, 2);
    const r2lock = new ReadWriteLock(cs[2]!, dir).readLock;
    const r2P = r2lock.acquire({ timeout: 10_000 });
    await nodesIn(cs[0]!, dir, 3);
    expect(await settlesWithin(Promise.race([wP, r2P]), 300)).toBe(false);
    await r1.release();
    const w = await wP;
    expect(await settlesWithin(r2P, 200)).toBe(false);
    await w.release();
    await (await r2P).release();
  });

  it('a reader behind two writers watches the nearest one: the first writer leaving does not wake it', async () => {
    const dir = `${uniqueRoot()}/rw`;
    const cs = await clients.many(3);
    const w1 = await new ReadWriteLock(cs[0]!, dir).writeLock.acquire();
    const w2P = new ReadWriteLock(cs[1]!, dir).writeLock.acquire({ timeout: 10_000 });
    await nodesIn(cs[0]!, dir, 2);
    const reader = new ReadWriteLock(cs[2]!, dir).readLock;
    const rP = reader.acquire({ timeout: 10_000 });
    while (reader.stats.watches < 1) await sleep(5);
    await w1.release();
    const w2 = await w2P;
    await sleep(100);
    expect(reader.stats.wakeups).toBe(0); // Curator's reader (watching the lowest writer) would have woken here
    await w2.release();
    await (await rP).release();
    expect(reader.stats.wakeups).toBe(1);
  });

  it('downgrade (write → read) keeps its place: a writer queued behind does not slip in', async () => {
    const dir = `${uniqueRoot()}/rw`;
    const cs = await clients.many(3);
    const a = new ReadWriteLock(cs[0]!, dir);
    const w = await a.writeLock.acquire();
    const bP = new ReadWriteLock(cs[1]!, dir).writeLock.acquire({ timeout: 10_000 });
    await nodesIn(cs[0]!, dir, 2);
    const r = await a.readLock.acquire({ timeout: 1000 }); // granted at once: we hold the write lock
    expect(r.node.slice(-10)).toBe(w.node.slice(-10)); // same sequence, so same place in the queue
    await w.release();
    expect(await settlesWithin(bP, 300)).toBe(false);
    // Another reader arriving now queues behind the waiting writer.
    const cP = new ReadWriteLock(cs[2]!, dir).readLock.acquire({ timeout: 10_000 });
    await nodesIn(cs[0]!, dir, 3);
    expect(await settlesWithin(cP, 200)).toBe(false);
    expect((await a.holders()).map((p) => p.node)).toEqual([r.node]);
    await r.release();
    const b = await bP;
    await b.release();
    await (await cP).release();
    expect(await childrenOf(cs[0]!, dir)).toEqual([]);
  });

  it('upgrade (read → write on one instance) is rejected at once, never hangs', async () => {
    const dir = `${uniqueRoot()}/rw`;
    const c = await clients.connect();
    const rw = new ReadWriteLock(c, dir);
    const r = await rw.readLock.acquire();
    await expect(rw.writeLock.acquire({ timeout: 10_000 })).rejects.toBeInstanceOf(LockUpgradeError);
    expect(await childrenOf(c, dir)).toHaveLength(1);
    await r.release();
    await (await rw.writeLock.acquire()).release();
  });
});
