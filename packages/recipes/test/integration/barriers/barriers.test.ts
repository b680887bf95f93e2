// Barrier and DoubleBarrier against the shared server.
import { afterEach, describe, expect, it } from 'vitest';

import { Barrier, DoubleBarrier } from '@zkts/recipes';

import { Clients, childrenOf, sleep, uniqueRoot } from '../../support/helpers.js';

const clients = new Clients();
afterEach(() => clients.closeAll());

async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([p.then(() => true, () => true), sleep(ms).then(() => false)]);
}

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
    // Already down: resolves (a wait for something that will never come would reject at its timeout instead). A
    // timeout far above a round trip, so a loaded machine cannot turn the one read it takes into a TIMEOUT.
    await new Barrier(c2!, `${root}/b`).wait({ timeout: 10_000 });
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
