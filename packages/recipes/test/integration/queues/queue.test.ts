// Queue against the shared server.
import { afterEach, describe, expect, it } from 'vitest';

import { Queue } from '@zkts/recipes';

import { Clients, sleep, text, uniqueRoot } from '../../support/helpers.js';

const clients = new Clients();
afterEach(() => clients.closeAll());

async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([p.then(() => true, () => true), sleep(ms).then(() => false)]);
}

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
