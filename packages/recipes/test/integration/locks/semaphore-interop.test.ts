// Semaphore beside the real libraries, each in its own process on one server and one path. Every holder reports
// the interval it held a lease on CLOCK_MONOTONIC (taken after the grant, before the return), so the most
// intervals open at one instant is a lower bound of the leases really held at once.
//
// Curator's InterProcessSemaphoreV2 has zkts's default layout (`<path>/locks`, `<path>/leases/_c_<uuid>-lease-<seq>`):
// together they never exceed maxLeases. kazoo's Semaphore has another (leases `<path>/<uuidhex>` counted among
// every child of `<path>`, a kazoo Lock at `<path>-__lock__`), which zkts writes with `layout: 'kazoo'`: then
// kazoo and zkts never exceed maxLeases either. With the default layout beside kazoo, kazoo does not see zkts's
// leases and takes one while zkts holds them all: the check sees more than maxLeases held, the negative control.
import { describe, expect, it } from 'vitest';

import { Semaphore, type SemaphoreLayout } from '@zkts/recipes';

import { coordinationPeers } from '../../support/foreign.js';
import { Clients, sleep, uniqueRoot } from '../../support/helpers.js';

const clients = new Clients();
const foreign = coordinationPeers(clients);

interface Leased {
  readonly who: string;
  readonly start: bigint;
  readonly end: bigint;
}

/** Parses `lease <who> <t0> <t1>` lines printed by a foreign process. */
function parseLeases(output: string): Leased[] {
  return [...output.matchAll(/^lease (\S+) (\d+) (\d+)$/gm)].map((m) => ({ who: m[1]!, start: BigInt(m[2]!), end: BigInt(m[3]!) }));
}

/** The most intervals open at one instant (a return at the same instant as a grant counts first). */
function maxConcurrent(held: readonly Leased[]): number {
  const edges = held.flatMap((h) => [[h.start, 1] as const, [h.end, -1] as const]);
  edges.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1]));
  let open = 0;
  let most = 0;
  for (const [, d] of edges) {
    open += d;
    most = Math.max(most, open);
  }
  return most;
}

/** `holders` zkts Semaphores (one client each) taking one lease `grants` times, holding `holdMs`. */
async function zktsHolders(path: string, maxLeases: number, holders: number, grants: number, holdMs: number, layout: SemaphoreLayout = 'curator'): Promise<Leased[]> {
  const cs = await clients.many(holders);
  const held: Leased[] = [];
  await Promise.all(
    cs.map(async (c, n) => {
      const semaphore = new Semaphore(c, path, maxLeases, { layout, data: `zkts-${n}` });
      for (let i = 0; i < grants; i++) {
        const lease = await semaphore.acquire(1, { timeout: 60_000 });
        const start = process.hrtime.bigint();
        await sleep(holdMs);
        held.push({ who: `zkts-${n}`, start, end: process.hrtime.bigint() });
        await lease.release();
      }
    }),
  );
  return held;
}

/** Whether some holder of each group started while the other group held: they contended for the leases. */
function mixed(held: readonly Leased[]): boolean {
  const zkts = held.filter((h) => h.who.startsWith('zkts'));
  const other = held.filter((h) => !h.who.startsWith('zkts'));
  const during = (xs: readonly Leased[], ys: readonly Leased[]): boolean => ys.some((y) => xs.some((x) => y.start > x.start && y.start < x.end));
  return during(zkts, other) && during(other, zkts);
}

describe('Semaphore beside the real libraries on one path', () => {
  it("Curator's InterProcessSemaphoreV2 in a JVM and zkts Semaphores: never more than maxLeases held at once", async () => {
    const path = `${uniqueRoot()}/semaphore`;
    const max = 3;
    const c = await clients.connect();
    const java = foreign('curator', 'semaphore', path, String(max), '3', '10', '40');
    // Start once Curator holds leases, so the libraries really contend.
    while ((await c.exists(`${path}/leases`)) === null || (await c.getChildren(`${path}/leases`)).children.length === 0) await sleep(20);
    const held = await zktsHolders(path, max, 3, 10, 40);
    await java.line(/^DONE$/m, 90_000);
    held.push(...parseLeases(java.output()));
    const most = maxConcurrent(held);
    console.info(`curator + zkts semaphore: ${held.length} leases, at most ${most} at once (max ${max})`);
    expect(held).toHaveLength(60);
    expect(mixed(held)).toBe(true);
    expect(most).toBeLessThanOrEqual(max);
    expect(most).toBeGreaterThan(1); // the leases were shared, not taken one at a time
  }, 180_000);

  it("kazoo's Semaphore in python3 and zkts Semaphores with layout 'kazoo': never more than maxLeases held at once", async () => {
    const path = `${uniqueRoot()}/semaphore`;
    const max = 3;
    const c = await clients.connect();
    const kazoo = foreign('kazoo', 'semaphore', path, String(max), '3', '10', '40');
    // Start once kazoo holds leases, so the libraries really contend.
    while ((await c.exists(path)) === null || (await c.getChildren(path)).children.length === 0) await sleep(20);
    const held = await zktsHolders(path, max, 3, 10, 40, 'kazoo');
    await kazoo.line(/^DONE$/m, 90_000);
    held.push(...parseLeases(kazoo.output()));
    const most = maxConcurrent(held);
    console.info(`kazoo + zkts (layout kazoo) semaphore: ${held.length} leases, at most ${most} at once (max ${max})`);
    expect(held).toHaveLength(60);
    expect(mixed(held)).toBe(true);
    expect(most).toBeLessThanOrEqual(max);
    expect(most).toBeGreaterThan(1);
    // kazoo's own view: every child of the path is a lease, and none is left.
    expect((await c.getChildren(path)).children).toEqual([]);
  }, 180_000);

  it("negative control: kazoo's Semaphore and zkts Semaphores of the default layout on one path hold more than maxLeases at once", async () => {
    const path = `${uniqueRoot()}/semaphore`;
    const max = 3;
    // zkts takes every lease of its layout and keeps them until kazoo reports one of its own: kazoo, which does not
    // see them, takes it while all of them are held, whatever the timing. Two groups left to run side by side may
    // overlap by a single lease, or on a loaded machine not at all.
    const zkts = await Promise.all(
      (await clients.many(max)).map(async (c, n) => {
        const lease = await new Semaphore(c, path, max, { data: `zkts-${n}` }).acquire(1, { timeout: 60_000 });
        return { who: `zkts-${n}`, start: process.hrtime.bigint(), lease };
      }),
    );
    const kazoo = foreign('kazoo', 'semaphore', path, String(max), '3', '10', '40');
    await kazoo.line(/^lease /m, 90_000);
    const held: Leased[] = [];
    for (const { who, start, lease } of zkts) {
      held.push({ who, start, end: process.hrtime.bigint() });
      await lease.release();
    }
    await kazoo.line(/^DONE$/m, 90_000);
    held.push(...parseLeases(kazoo.output()));
    const most = maxConcurrent(held);
    console.info(`kazoo + zkts semaphore (control): ${held.length} leases, at most ${most} at once (max ${max})`);
    expect(held).toHaveLength(33);
    expect(most).toBeGreaterThan(max);
  }, 180_000);
});
