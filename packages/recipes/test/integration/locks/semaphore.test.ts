// Semaphore against the shared server.
import { afterEach, describe, expect, it } from 'vitest';

import { RecipeArgumentError, Semaphore } from '@zkts/recipes';

import { Clients, childrenOf, sleep, uniqueRoot } from '../../support/helpers.js';

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
