// Curator's queue family (DistributedQueue, priority, delay, id) against the shared server: order, due times,
// removal by id, bounded puts, competing consumers. Faults: faults.test.ts beside it; Curator itself:
// interop.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { TimeoutError } from '@zkts/protocol';

import { DistributedDelayQueue, DistributedIdQueue, DistributedPriorityQueue, DistributedQueue } from '@zkts/recipes';

import { Clients, childrenOf, sleep, uniqueRoot, until } from '../../../support/helpers.js';
import { utf8 } from '../../../support/queue-serializer.js';

const clients = new Clients();
afterEach(() => clients.closeAll());

describe('Curator-compatible queues', () => {
  it('DistributedQueue: FIFO across producers, putMulti delivered together, items removed', async () => {
    const dir = `${uniqueRoot()}/q`;
    const [a, b, c] = await clients.many(3);
    const pa = new DistributedQueue(a!, dir, { serializer: utf8 });
    const pb = new DistributedQueue(b!, dir, { serializer: utf8 });
    const expected: string[] = [];
    for (let i = 0; i < 10; i++) {
      await (i % 2 === 0 ? pa : pb).put(`m${i}`);
      expected.push(`m${i}`);
    }
    const path = await pa.putMulti(['x1', 'x2', 'x3']);
    expect(path).toMatch(/\/queue-\d{10}$/);
    expected.push('x1', 'x2', 'x3');
    const got: string[] = [];
    await using consumer = new DistributedQueue(c!, dir, { serializer: utf8, consumer: (m) => void got.push(m) });
    await consumer.start();
    await until(() => got.length === expected.length);
    expect(got).toEqual(expected);
    expect(await childrenOf(c!, dir)).toEqual([]);
    expect(consumer.stats).toMatchObject({ delivered: 13, removed: 11 });
  });

  it('DistributedPriorityQueue: lowest priority first, FIFO within a priority', async () => {
    const dir = `${uniqueRoot()}/q`;
    const [a, b] = await clients.many(2);
    const q = new DistributedPriorityQueue(a!, dir, { serializer: utf8 });
    const puts: [string, number][] = [['p5-a', 5], ['p-3', -3], ['p5-b', 5], ['p0', 0], ['min', -2147483648], ['max', 2147483647], ['p-3-b', -3]];
    for (const [m, p] of puts) await q.put(m, p);
    expect((await childrenOf(a!, dir)).some((n) => n.startsWith('queue-080000000'))).toBe(true); // Curator's encoding
    const got: string[] = [];
    for await (const m of new DistributedPriorityQueue(b!, dir, { serializer: utf8 }).messages()) {
      got.push(m);
      if (got.length === puts.length) break;
    }
    expect(got).toEqual(['min', 'p-3', 'p-3-b', 'p0', 'p5-a', 'p5-b', 'max']);
  });

  it('DistributedDelayQueue: nothing before its time, then in due order', async () => {
    const dir = `${uniqueRoot()}/q`;
    const [a, b] = await clients.many(2);
    const q = new DistributedDelayQueue(a!, dir, { serializer: utf8 });
    const t0 = Date.now();
    const due = { late: t0 + 1500, soon: t0 + 600, now: t0 };
    await q.put('late', due.late);
    await q.put('soon', due.soon);
    await q.put('now', due.now);
    const got: { m: string; at: number }[] = [];
    await using consumer = new DistributedDelayQueue(b!, dir, { serializer: utf8, consumer: (m) => void got.push({ m, at: Date.now() }) });
    await consumer.start();
    await until(() => got.length === 3);
    expect(got.map((g) => g.m)).toEqual(['now', 'soon', 'late']);
    for (const g of got) expect(g.at).toBeGreaterThanOrEqual(due[g.m as keyof typeof due]);
  });

  it('DistributedIdQueue: remove(id) takes out exactly the items with that id', async () => {
    const dir = `${uniqueRoot()}/q`;
    const [a, b] = await clients.many(2);
    const q = new DistributedIdQueue(a!, dir, { serializer: utf8 });
    await q.put('1', 'keep');
    await q.put('2', 'drop/me');
    await q.put('3', 'keep');
    await q.put('4', 'drop/me');
    expect((await childrenOf(a!, dir)).filter((n) => n.startsWith('queue-|drop_me|'))).toHaveLength(2);
    expect(await q.remove('drop/me')).toBe(2);
    expect(await q.remove('drop/me')).toBe(0);
    expect(await q.has('keep')).toBe(true);
    const got: string[] = [];
    await using consumer = new DistributedIdQueue(b!, dir, { serializer: utf8, consumer: (m) => void got.push(m) });
    await consumer.start();
    await until(() => got.length === 2);
    await sleep(200);
    expect(got).toEqual(['1', '3']);
  });

  it('maxItems: put waits for room and gives up with TimeoutError', async () => {
    const dir = `${uniqueRoot()}/q`;
    const [a, b] = await clients.many(2);
    const q = new DistributedQueue(a!, dir, { serializer: utf8, maxItems: 2 });
    await q.put('1');
    await q.put('2');
    await expect(q.put('3', { timeout: 300 })).rejects.toBeInstanceOf(TimeoutError);
    expect(await q.size()).toBe(2);
    const blocked = q.put('3', { timeout: 20_000 });
    const it = new DistributedQueue(b!, dir, { serializer: utf8 }).messages();
    expect((await it.next()).value).toBe('1');
    await blocked;
    expect((await it.next()).value).toBe('2');
    expect((await it.next()).value).toBe('3');
    await it.return!(); // '3' was in hand, not finished: it is given back
    expect(await q.size()).toBe(1);
  });

  it('lock-safe: an item is removed together with its lock, in one transaction', async () => {
    const root = uniqueRoot();
    const dir = `${root}/q`;
    const lockPath = `${root}/locks`;
    const [a, b] = await clients.many(2);
    await new DistributedQueue(a!, dir, { serializer: utf8 }).put('one');
    const got: string[] = [];
    await using consumer = new DistributedQueue(b!, dir, { serializer: utf8, lockPath, consumer: (m) => void got.push(m) });
    await consumer.start();
    await until(() => consumer.stats.removed === 1);
    // Each parent's pzxid is the zxid of its last child created or deleted: one zxid means one transaction, so no
    // reader ever sees the item finished while its lock is still there.
    const [queue, locks] = await Promise.all([a!.exists(dir), a!.exists(lockPath)]);
    expect(locks!.pzxid).toBe(queue!.pzxid);
    expect(await childrenOf(a!, lockPath)).toEqual([]);
    expect(got).toEqual(['one']);
  });

  it('competing consumers, normal and lock-safe: every message delivered exactly once', async () => {
    for (const lockPath of [undefined, `${uniqueRoot()}/locks`]) {
      const dir = `${uniqueRoot()}/q`;
      const cs = await clients.many(4);
      const producer = new DistributedQueue(cs[0]!, dir, { serializer: utf8 });
      const got: string[] = [];
      // Competition made certain, not left to the scheduler (a loaded machine let one consumer take all 60): a
      // consumer holds its first message until a second consumer has one too. A consumer takes its next item only
      // after its callback returned, so the others take items meanwhile.
      const holding = new Set<number>();
      let secondGotOne!: () => void;
      const twoHaveOne = new Promise<void>((resolve) => (secondGotOne = resolve));
      const consumeAs = (i: number) => async (m: string): Promise<void> => {
        got.push(m);
        if (holding.has(i)) return;
        holding.add(i);
        if (holding.size === 2) secondGotOne();
        await twoHaveOne;
      };
      const consumers = cs.slice(1).map((c, i) => new DistributedQueue(c, dir, { serializer: utf8, ...(lockPath === undefined ? {} : { lockPath }), consumer: consumeAs(i) }));
      await Promise.all(consumers.map((q) => q.start()));
      const n = 60;
      await Promise.all(Array.from({ length: n }, (_, i) => producer.put(`m${i}`)));
      await until(() => got.length >= n, 30_000);
      await sleep(300);
      expect(got.length).toBe(n);
      expect(new Set(got).size).toBe(n);
      // Lock-safe removals count when the delete is answered, after the delivery: wait for them, then count exactly.
      const removed = (): number => consumers.reduce((s, q) => s + q.stats.removed, 0);
      await until(() => removed() >= n, 10_000, 'every removal counted');
      expect(removed()).toBe(n);
      expect(consumers.filter((q) => q.stats.removed > 0).length).toBeGreaterThan(1);
      await Promise.all(consumers.map((q) => q.close()));
      expect(await childrenOf(cs[0]!, dir)).toEqual([]);
      if (lockPath !== undefined) expect(await childrenOf(cs[0]!, lockPath)).toEqual([]);
    }
  });
});
