// Queue on the in-memory ZooKeeper: offers and claims whose replies were lost take effect exactly once.
import { describe, expect, it } from 'vitest';

import { Queue } from '../../../src/index.js';
import { FakeZk } from '../../support/fake-zk.js';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

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
  it('an offer whose connection broke with the create in flight adds the item once, though the member it lists on applies that create late', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const q = new Queue(c, '/q');
    await q.offer('a');
    const lag = c.lagCreate();
    const offered = q.offer('b');
    await tick();
    lag.fail();
    await offered;
    await c.sync(); // whatever was still in flight has landed now
    expect(await q.size()).toBe(2);
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
