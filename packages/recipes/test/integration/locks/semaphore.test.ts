// Semaphore against the shared server: never more than N holders (with a negative control: the same check
// catches a semaphore that lets everyone in), all-or-nothing multi-lease acquires, disagreeing maxLeases.
import { afterEach, describe, expect, it } from 'vitest';

import type { ZkClient } from '@zkts/protocol';
import { RecipeArgumentError, Semaphore } from '@zkts/recipes';

import { CriticalSection, grantsEveryone, type Acquirable } from '../../support/exclusion.js';
import { Clients, childrenOf, sleep, uniqueRoot, until } from '../../support/helpers.js';

const clients = new Clients();
afterEach(() => clients.closeAll());

async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([p.then(() => true, () => true), sleep(ms).then(() => false)]);
}

/**
 * 12 workers on 4 clients take a lease twice each and run the section across round trips of their client. Until
 * 3 holders have been inside at once, a holder waits inside for that (a deadline, so a semaphore that admits fewer
 * than 3 fails instead of hanging): the peak is then 3 by construction of the test, not by timing luck.
 */
async function contend(cs: readonly ZkClient[], lockFor: (c: ZkClient) => Acquirable, section: CriticalSection): Promise<void> {
  await Promise.all(
    Array.from({ length: 12 }, async (_, i) => {
      const c = cs[i % cs.length]!;
      const s = lockFor(c);
      for (let k = 0; k < 2; k++) {
        const lease = await s.acquire({ timeout: 30_000 });
        await section.run(async () => {
          await until(() => section.peak >= section.capacity, 20_000, `${section.capacity} holders at once (peak ${section.peak})`);
          await c.exists('/');
        });
        await lease.release();
      }
    }),
  );
}

describe('Semaphore', () => {
  it('never more than N holders (12 workers, N = 3), and N at once', async () => {
    const root = uniqueRoot();
    const cs = await clients.many(4);
    const section = new CriticalSection(3);
    await contend(cs, (c) => ({ acquire: (o) => new Semaphore(c, `${root}/sem`, 3).acquire(1, o) }), section);
    expect(section.sections).toBe(24);
    expect(section.violations).toBe(0);
    expect(section.peak).toBe(3);
    expect(await childrenOf(cs[0]!, `${root}/sem/leases`)).toEqual([]);
  });

  it('negative control: the same check catches a semaphore that grants everyone', async () => {
    const root = uniqueRoot();
    const cs = await clients.many(4);
    const section = new CriticalSection(3);
    await contend(cs, (c) => grantsEveryone(c, `${root}/sem/leases`), section);
    expect(section.sections).toBe(24);
    expect(section.peak).toBeGreaterThan(3);
    expect(section.violations).toBeGreaterThan(0);
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
