import { describe, expect, it } from 'vitest';

import { ExclusiveLock, LeaderElection, LockUpgradeError, Queue, ReadWriteLock, RecipeArgumentError, Semaphore } from '../../../src/index.js';
import { FakeZk } from '../../support/fake-zk.js';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

describe('ReadWriteLock (in-memory ZooKeeper)', () => {
  it('downgrade creates a read node with the write node sequence; upgrade is rejected', async () => {
    const zk = new FakeZk();
    const rw = new ReadWriteLock(zk.client(), '/rw');
    const w = await rw.writeLock.acquire();
    const r = await rw.readLock.acquire();
    expect(r.node).toMatch(/__READ__0000000000$/);
    expect(w.node).toMatch(/__WRIT__0000000000$/);
    expect(zk.nodes.get(r.node)?.stat.ephemeralOwner).not.toBe(0n);
    await w.release();
    await expect(rw.writeLock.acquire()).rejects.toBeInstanceOf(LockUpgradeError);
    await r.release();
    expect(zk.children('/rw')).toEqual([]);
  });

  it('a writer waiting behind a downgraded holder is granted only when the read side goes', async () => {
    const zk = new FakeZk();
    const a = new ReadWriteLock(zk.client(), '/rw');
    const w = await a.writeLock.acquire();
    let granted = false;
    const bP = new ReadWriteLock(zk.client(), '/rw').writeLock.acquire().then((l) => {
      granted = true;
      return l;
    });
    await tick();
    const r = await a.readLock.acquire();
    await w.release();
    await tick();
    expect(granted).toBe(false);
    await r.release();
    await (await bP).release();
  });
});

describe('ExclusiveLock (in-memory ZooKeeper)', () => {
  it('a lost create reply is recognised by its token and adopted', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    zk.create('/x', null, 'persistent', 0n);
    c.loseReplyOf = 'create';
    const lock = new ExclusiveLock(c, '/x', { id: 'me' });
    const lease = await lock.acquire();
    expect(lease.node).toBe('/x/lock');
    expect((await lock.owner())?.id).toBe('me');
  });

  it("another instance's node in the same session is not adopted", async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const first = await new ExclusiveLock(c, '/x', { id: 'one' }).acquire();
    expect(await new ExclusiveLock(c, '/x', { id: 'two' }).tryAcquire()).toBeNull();
    await first.release();
  });
});

describe('Queue (in-memory ZooKeeper)', () => {
  it('a lost offer reply does not add the item twice', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const q = new Queue(c, '/q');
    await q.offer('a');
    c.loseReplyOf = 'create';
    await q.offer('b');
    expect(await q.size()).toBe(2);
    expect(text((await q.poll())!)).toBe('a');
    expect(text((await q.poll())!)).toBe('b');
    expect(await q.poll()).toBeNull();
  });
});

describe('Queue claims (in-memory ZooKeeper)', () => {
  it('a claim whose reply was lost is settled by its receipt: delivered exactly once', async () => {
    const zk = new FakeZk();
    const producer = new Queue(zk.client(), '/q');
    await producer.offer('only');
    const c = zk.client();
    c.loseReplyOf = 'multi';
    const got = await new Queue(c, '/q').poll();
    expect(text(got!)).toBe('only');
    expect(await new Queue(zk.client(), '/q').poll()).toBeNull();
    await tick();
    expect(zk.children('/q')).toEqual([]); // the receipt is gone too
  });

  it('two consumers racing for one item: exactly one gets it', async () => {
    const zk = new FakeZk();
    await new Queue(zk.client(), '/q').offer('x');
    const results = await Promise.all([new Queue(zk.client(), '/q').poll(), new Queue(zk.client(), '/q').poll()]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });
});

describe('Semaphore (in-memory ZooKeeper)', () => {
  it('rejects impossible quantities before touching ZooKeeper', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    expect(() => new Semaphore(c, '/s', 0)).toThrow(RecipeArgumentError);
    await expect(new Semaphore(c, '/s', 2).acquire(3)).rejects.toBeInstanceOf(RecipeArgumentError);
    expect(c.calls).toEqual([]);
  });

  it('holds at most maxLeases; a waiter is admitted when a lease comes back', async () => {
    const zk = new FakeZk();
    const s1 = new Semaphore(zk.client(), '/s', 2);
    const a = await s1.acquire(2);
    let admitted = false;
    const bP = new Semaphore(zk.client(), '/s', 2).acquire(1).then((l) => {
      admitted = true;
      return l;
    });
    await tick();
    expect(admitted).toBe(false);
    await a.release();
    const b = await bP;
    expect(b.nodes).toHaveLength(1);
    expect(zk.children('/s/leases')).toHaveLength(1);
  });
});

describe('LeaderElection (in-memory ZooKeeper)', () => {
  it('a first node not owned by our current session does not make us leader (CURATOR-696)', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const e = new LeaderElection(c, '/e', { id: 'me' });
    await e.start();
    const stale = e.node!;
    // Before the loop's ownership check runs, the node turns out to belong to another (older) session.
    zk.nodes.get(stale)!.stat.ephemeralOwner = 999n;
    await tick();
    expect(e.isLeader).toBe(false);
    expect(e.node).not.toBe(stale); // it re-entered with a node of its own session
    zk.delete(stale);
    await e.awaitLeadership({ timeout: 1000 });
    expect(zk.nodes.get(e.node!)?.stat.ephemeralOwner).toBe(c.sessionId);
    await e.close();
    expect(zk.children('/e')).toEqual([]);
  });
});
