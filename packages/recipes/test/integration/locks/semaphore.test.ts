// Semaphore, MultiLock, ExclusiveLock, Barrier, DoubleBarrier and Queue against the shared server.
import { afterEach, describe, expect, it } from 'vitest';

import { Barrier, DoubleBarrier, ExclusiveLock, LeaderElection, MultiLock, Mutex, Queue, RecipeArgumentError, Semaphore, type LockHandle, type Lockable } from '@zkts/recipes';

import { Clients, childrenOf, sleep, text, uniqueRoot, until } from '../../support/helpers.js';

const clients = new Clients();
afterEach(() => clients.closeAll());

async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([p.then(() => true, () => true), sleep(ms).then(() => false)]);
}

describe('Semaphore', () => {
  it('never more than N holders (12 workers, N = 3)', async () => {
    const root = uniqueRoot();
    const cs = await clients.many(4);
    let held = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const s = new Semaphore(cs[i % 4]!, `${root}/sem`, 3);
        for (let k = 0; k < 2; k++) {
          const lease = await s.acquire(1, { timeout: 30_000 });
          held++;
          peak = Math.max(peak, held);
          await sleep(60); // long enough for the others to fill the remaining leases
          held--;
          await lease.release();
        }
      }),
    );
    expect(peak).toBeLessThanOrEqual(3);
    expect(peak).toBe(3); // and the semaphore does let N in at once
    expect(await childrenOf(cs[0]!, `${root}/sem/leases`)).toEqual([]);
  });

  it('several leases are all-or-nothing; a timed-out multi-lease acquire returns everything it created', async () => {
    const root = uniqueRoot();
    const cs = await clients.many(2);
    const a = await new Semaphore(cs[0]!, `${root}/sem`, 4).acquire(3);
    expect(a.nodes).toHaveLength(3);
    await expect(new Semaphore(cs[1]!, `${root}/sem`, 4).acquire(2, { timeout: 300 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(await childrenOf(cs[0]!, `${root}/sem/leases`)).toHaveLength(3);
    const one = await new Semaphore(cs[1]!, `${root}/sem`, 4).acquire(1, { timeout: 2000 });
    const twoP = new Semaphore(cs[1]!, `${root}/sem`, 4).acquire(2, { timeout: 10_000 });
    expect(await settlesWithin(twoP, 200)).toBe(false);
    await a.release();
    const two = await twoP;
    expect(two.nodes).toHaveLength(2);
    await Promise.all([one.release(), two.release()]);
    await expect(new Semaphore(cs[0]!, `${root}/sem`, 4).acquire(5)).rejects.toBeInstanceOf(RecipeArgumentError);
  });

  it('participants that disagree on maxLeases are detected', async () => {
    const root = uniqueRoot();
    const cs = await clients.many(2);
    const held = await new Semaphore(cs[0]!, `${root}/sem`, 2).acquire();
    await expect(new Semaphore(cs[1]!, `${root}/sem`, 5).acquire(1, { timeout: 2000 })).rejects.toThrow(/maxLeases 2, not 5/);
    expect(await childrenOf(cs[0]!, `${root}/sem/leases`)).toHaveLength(1);
    await held.release();
  });
});

describe('MultiLock', () => {
  it('takes locks in order under one shared deadline and releases in reverse order', async () => {
    const root = uniqueRoot();
    const cs = await clients.many(2);
    const log: string[] = [];
    const tracked = (name: string, m: Mutex): Lockable => ({
      acquire: async (o) => {
        const l = await m.acquire(o);
        log.push(`+${name}`);
        const release = l.release.bind(l);
        return Object.assign(Object.create(l) as LockHandle, {
          release: async () => {
            log.push(`-${name}`);
            await release();
          },
        });
      },
    });
    const ml = new MultiLock(['a', 'b', 'c'].map((n) => tracked(n, new Mutex(cs[0]!, `${root}/${n}`))));
    const lease = await ml.acquire({ timeout: 5000 });
    await lease.release();
    expect(log).toEqual(['+a', '+b', '+c', '-c', '-b', '-a']);

    // Failure half-way: c is held elsewhere; a and b come back in reverse order, within ONE timeout overall.
    log.length = 0;
    const blocker = await new Mutex(cs[1]!, `${root}/c`).acquire();
    const slowA: Lockable = {
      acquire: async (o) => {
        await sleep(300); // eats part of the shared budget
        return tracked('a', new Mutex(cs[0]!, `${root}/a`)).acquire(o);
      },
    };
    const t0 = Date.now();
    const ml2 = new MultiLock([slowA, tracked('b', new Mutex(cs[0]!, `${root}/b`)), tracked('c', new Mutex(cs[0]!, `${root}/c`))]);
    await expect(ml2.acquire({ timeout: 800 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const took = Date.now() - t0;
    expect(took).toBeLessThan(1500); // per-lock timeouts would allow 300 + 800 + 800
    expect(log).toEqual(['+a', '+b', '-b', '-a']);
    await blocker.release();
    expect(await childrenOf(cs[0]!, `${root}/a`)).toEqual([]);
    expect(await childrenOf(cs[0]!, `${root}/c`)).toEqual([]);
  });
});

describe('ExclusiveLock', () => {
  it('one holder at a time; isLocked/owner report it; the token grows', async () => {
    const root = uniqueRoot();
    const cs = await clients.many(2);
    const a = new ExclusiveLock(cs[0]!, `${root}/x`, { id: 'alpha' });
    const b = new ExclusiveLock(cs[1]!, `${root}/x`, { id: 'beta' });
    expect(await a.isLocked()).toBe(false);
    expect(await a.owner()).toBeNull();
    const la = await a.acquire();
    expect(await b.isLocked()).toBe(true);
    expect(await b.owner()).toMatchObject({ id: 'alpha', sessionId: cs[0]!.sessionId, fencingToken: la.fencingToken });
    expect(await b.tryAcquire()).toBeNull();
    const lbP = b.acquire({ timeout: 5000 });
    expect(await settlesWithin(lbP, 200)).toBe(false);
    await la.release();
    const lb = await lbP;
    expect(lb.fencingToken > la.fencingToken).toBe(true);
    expect((await a.owner())?.id).toBe('beta');
    await expect(b.acquire({ timeout: 100 })).rejects.toMatchObject({ code: 'LOCK_BUSY' });
    await lb.release();
    expect(await a.isLocked()).toBe(false);
  });
});

describe('Barrier and DoubleBarrier', () => {
  it('Barrier: waiters pass once it is removed', async () => {
    const root = uniqueRoot();
    const [c1, c2] = await clients.many(2);
    const b = new Barrier(c1!, `${root}/b`);
    await b.set();
    expect(await b.isSet()).toBe(true);
    const w = new Barrier(c2!, `${root}/b`).wait({ timeout: 5000 });
    expect(await settlesWithin(w, 200)).toBe(false);
    await b.remove();
    await w;
    await new Barrier(c2!, `${root}/b`).wait({ timeout: 100 }); // already down: returns at once
    await expect((async () => {
      await b.set();
      await new Barrier(c2!, `${root}/b`).wait({ timeout: 100 });
    })()).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('DoubleBarrier: nobody enters before all 4 arrive, nobody leaves before all 4 leave', async () => {
    const root = uniqueRoot();
    const cs = await clients.many(4);
    const events: string[] = [];
    const run = async (i: number): Promise<void> => {
      const db = new DoubleBarrier(cs[i]!, `${root}/db`, 4, { id: `p${i}` });
      await sleep(i * 100);
      events.push(`arrive${i}`);
      await db.enter({ timeout: 10_000 });
      events.push(`in${i}`);
      await sleep((3 - i) * 100);
      events.push(`leaving${i}`);
      await db.leave({ timeout: 10_000 });
      events.push(`out${i}`);
    };
    await Promise.all([0, 1, 2, 3].map(run));
    const firstIn = events.findIndex((e) => e.startsWith('in'));
    expect(events.slice(0, firstIn).filter((e) => e.startsWith('arrive'))).toHaveLength(4);
    const firstOut = events.findIndex((e) => e.startsWith('out'));
    expect(events.slice(0, firstOut).filter((e) => e.startsWith('leaving'))).toHaveLength(4);
    expect(await childrenOf(cs[0]!, `${root}/db`)).toEqual([]);
  });
});

describe('Queue', () => {
  it('FIFO, and each item goes to exactly one of several consumers', async () => {
    const root = uniqueRoot();
    const cs = await clients.many(4);
    const q = new Queue(cs[0]!, `${root}/q`);
    expect(await q.poll()).toBeNull();
    for (let i = 0; i < 5; i++) await q.offer(`item-${i}`);
    expect(await q.size()).toBe(5);
    const firstTwo = [text((await q.poll())!), text((await q.take())!)];
    expect(firstTwo).toEqual(['item-0', 'item-1']);

    const n = 60;
    for (let i = 0; i < n; i++) await q.offer(`job-${i}`);
    const got: string[][] = [[], [], []];
    await Promise.all(
      [1, 2, 3].map(async (k) => {
        const consumer = new Queue(cs[k]!, `${root}/q`);
        for (;;) {
          const item = await consumer.poll();
          if (item === null) return;
          got[k - 1]!.push(text(item));
        }
      }),
    );
    const all = got.flat().filter((s) => s.startsWith('job-'));
    expect(all).toHaveLength(n);
    expect(new Set(all).size).toBe(n);
    // Each consumer saw its items in FIFO order.
    for (const g of got) {
      const nums = g.filter((s) => s.startsWith('job-')).map((s) => Number(s.slice(4)));
      expect(nums).toEqual([...nums].sort((x, y) => x - y));
    }
  });

  it('take() waits for an offer', async () => {
    const root = uniqueRoot();
    const [c1, c2] = await clients.many(2);
    const t = new Queue(c1!, `${root}/q`).take({ timeout: 5000 });
    expect(await settlesWithin(t, 200)).toBe(false);
    await new Queue(c2!, `${root}/q`).offer('hello');
    expect(text(await t)).toBe('hello');
  });
});

describe('callbacks', () => {
  it('listeners that await ZooKeeper calls (election change, lost lease) do not wedge anything', async () => {
    const root = uniqueRoot();
    const [c1, c2] = await clients.many(2);
    const a = new LeaderElection(c1!, `${root}/e`, { id: 'a' });
    const b = new LeaderElection(c2!, `${root}/e`, { id: 'b' });
    const seen: string[][] = [];
    b.onChange((leader) => {
      if (!leader) return;
      void (async () => {
        seen.push((await b.participants()).map((p) => p.id));
        await (await new Mutex(c2!, `${root}/m`).acquire({ timeout: 5000 })).release();
        seen.push(['mutex done']);
      })();
    });
    await a.start();
    await a.awaitLeadership({ timeout: 5000 });
    await b.start();
    await a.close();
    await b.awaitLeadership({ timeout: 5000 });
    await until(() => seen.length === 2, 5000, 'listener work');
    expect(seen).toEqual([['b'], ['mutex done']]);

    // A lost handler that releases and then uses the client again.
    const lease = await new Mutex(c1!, `${root}/m`).acquire();
    let afterLost = '';
    lease.lost.addEventListener('abort', () => {
      void (async () => {
        await lease.release();
        afterLost = String((await c1!.exists(`${root}/m`)) !== null);
      })();
    });
    await c2!.delete(lease.node);
    await until(() => afterLost !== '', 5000, 'lost handler');
    expect(afterLost).toBe('true');
    await b.close();
  });
});
