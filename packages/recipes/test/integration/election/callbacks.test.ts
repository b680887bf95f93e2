// Listeners that call ZooKeeper themselves (an election change, a lost lock) wedge nothing.
import { afterEach, describe, expect, it } from 'vitest';

import { LeaderElection, Mutex } from '@zkts/recipes';

import { Clients, uniqueRoot, until } from '../../support/helpers.js';

const clients = new Clients();
afterEach(() => clients.closeAll());

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
