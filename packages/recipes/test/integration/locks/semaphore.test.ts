// Semaphore against the shared server: never more than N holders (with a negative control: the same check
// catches a semaphore that lets everyone in), all-or-nothing multi-lease acquires, disagreeing maxLeases; in both
// layouts (Curator's, and kazoo's: leases are the children of the path itself); kazoo's lease create with a lost reply.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

import { afterEach, describe, expect, it } from 'vitest';

import type { ZkClient } from '@zkts/protocol';
import { RecipeArgumentError, Semaphore, type SemaphoreLayout } from '@zkts/recipes';

import { CriticalSection, grantsEveryone, type Acquirable } from '../../support/exclusion.js';
import { Proxies } from '../../support/expiry.js';
import { Clients, childrenOf, sleep, uniqueRoot, until } from '../../support/helpers.js';

const clients = new Clients();
const proxies = new Proxies();
afterEach(async () => {
  await clients.closeAll();
  await proxies.closeAll();
});

const LAYOUTS: readonly SemaphoreLayout[] = ['curator', 'kazoo'];

/** Where a layout keeps its lease nodes. */
const leasesOf = (sem: string, layout: SemaphoreLayout): string => (layout === 'kazoo' ? sem : `${sem}/leases`);

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
  it.each(LAYOUTS)('never more than N holders (12 workers, N = 3), and N at once (layout %s)', async (layout) => {
    const root = uniqueRoot();
    const cs = await clients.many(4);
    const section = new CriticalSection(3);
    await contend(cs, (c) => ({ acquire: (o) => new Semaphore(c, `${root}/sem`, 3, { layout }).acquire(1, o) }), section);
    expect(section.sections).toBe(24);
    expect(section.violations).toBe(0);
    expect(section.peak).toBe(3);
    expect(await childrenOf(cs[0]!, leasesOf(`${root}/sem`, layout))).toEqual([]);
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

  it.each(LAYOUTS)('several leases are all-or-nothing; a timed-out multi-lease acquire returns everything it created (layout %s)', async (layout) => {
    const root = uniqueRoot();
    const cs = await clients.many(2);
    const sem = (c: ZkClient): Semaphore => new Semaphore(c, `${root}/sem`, 4, { layout });
    const a = await sem(cs[0]!).acquire(3);
    expect(a.nodes).toHaveLength(3);
    await expect(sem(cs[1]!).acquire(2, { timeout: 300 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(await childrenOf(cs[0]!, leasesOf(`${root}/sem`, layout))).toHaveLength(3);
    const one = await sem(cs[1]!).acquire(1, { timeout: 2000 });
    const twoP = sem(cs[1]!).acquire(2, { timeout: 10_000 });
    expect(await settlesWithin(twoP, 200)).toBe(false);
    await a.release();
    const two = await twoP;
    expect(two.nodes).toHaveLength(2);
    await Promise.all([one.release(), two.release()]);
    await expect(sem(cs[0]!).acquire(5)).rejects.toBeInstanceOf(RecipeArgumentError);
  });

  it.each(LAYOUTS)('participants that disagree on maxLeases are detected (layout %s)', async (layout) => {
    const root = uniqueRoot();
    const cs = await clients.many(2);
    const held = await new Semaphore(cs[0]!, `${root}/sem`, 2, { layout }).acquire();
    await expect(new Semaphore(cs[1]!, `${root}/sem`, 5, { layout }).acquire(1, { timeout: 2000 })).rejects.toThrow(/maxLeases 2, not 5/);
    expect(await childrenOf(cs[0]!, leasesOf(`${root}/sem`, layout))).toHaveLength(1);
    await held.release();
  });

  it("kazoo's layout: a lease create whose reply is lost is adopted, once (the fixed name is asked about after the reconnect)", async () => {
    const sem = `${uniqueRoot()}/sem`;
    const p = await proxies.start();
    const direct = await clients.connect();
    const c = await clients.connect(p.connectString);
    // Drop the reply of exactly the lease create: armed as the client starts that request, before it is written.
    const lease = new RegExp(`^${sem}/[0-9a-f]{32}$`);
    const ops: string[] = [];
    const onRequest = (msg: unknown): void => {
      const m = msg as { op?: string; path?: string };
      if (m.path === undefined || !lease.test(m.path) || m.op === undefined) return;
      if (m.op === 'create' && ops.length === 0) p.dropNextReply();
      ops.push(m.op);
    };
    subscribe('tracing:zkts:request:start', onRequest);
    let held;
    try {
      held = await new Semaphore(c, sem, 2, { layout: 'kazoo' }).acquire(1, { timeout: 20_000 });
    } finally {
      unsubscribe('tracing:zkts:request:start', onRequest);
    }
    // One create, its reply lost; then the question whether it landed (it did: adopted, not created again).
    expect(ops).toEqual(['create', 'exists']);
    const kids = await childrenOf(direct, sem);
    expect(kids).toEqual([held.nodes[0]!.slice(sem.length + 1)]);
    expect((await direct.exists(held.nodes[0]!))!.ephemeralOwner).toBe(c.sessionId);
    await held.release();
    expect(await childrenOf(direct, sem)).toEqual([]);
  });
});
