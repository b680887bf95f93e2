// Semaphore on the in-memory ZooKeeper: argument checks and at most maxLeases holders.
import { describe, expect, it } from 'vitest';

import { RecipeArgumentError, Semaphore } from '../../../src/index.js';
import { FakeZk } from '../../support/fake-zk.js';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

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
