// MultiLock against the shared server.
import { afterEach, describe, expect, it } from 'vitest';

import { MultiLock, Mutex, type LockHandle, type Lockable } from '@zkts/recipes';

import { Clients, childrenOf, sleep, uniqueRoot } from '../../support/helpers.js';

const clients = new Clients();
afterEach(() => clients.closeAll());

describe('MultiLock', () => {
  it('takes locks in order under one shared deadline and releases in reverse order', async () => {
    const root = uniqueRoot();
    const cs = await clients.many(2);
    const log: string[] = [];
    const tracked = (name: string, m: Mutex): Lockable => ({
      acquire: async (o) => {
        const l = await m.acquire(o);
        log.push(`+${name}`);
        const release = l.release.bind(l);
        return Object.assign(Object.create(l) as LockHandle, {
          release: async () => {
            log.push(`-${name}`);
            await release();
          },
        });
      },
    });
    const ml = new MultiLock(['a', 'b', 'c'].map((n) => tracked(n, new Mutex(cs[0]!, `${root}/${n}`))));
    const lease = await ml.acquire({ timeout: 5000 });
    await lease.release();
    expect(log).toEqual(['+a', '+b', '+c', '-c', '-b', '-a']);

    // Failure half-way: c is held elsewhere; a and b come back in reverse order, within ONE timeout overall.
    log.length = 0;
    const blocker = await new Mutex(cs[1]!, `${root}/c`).acquire();
    const slowA: Lockable = {
      acquire: async (o) => {
        await sleep(300); // eats part of the shared budget
        return tracked('a', new Mutex(cs[0]!, `${root}/a`)).acquire(o);
      },
    };
    const t0 = Date.now();
    const ml2 = new MultiLock([slowA, tracked('b', new Mutex(cs[0]!, `${root}/b`)), tracked('c', new Mutex(cs[0]!, `${root}/c`))]);
    await expect(ml2.acquire({ timeout: 800 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const took = Date.now() - t0;
    expect(took).toBeLessThan(1500); // per-lock timeouts would allow 300 + 800 + 800
    expect(log).toEqual(['+a', '+b', '-b', '-a']);
    await blocker.release();
    expect(await childrenOf(cs[0]!, `${root}/a`)).toEqual([]);
    expect(await childrenOf(cs[0]!, `${root}/c`)).toEqual([]);
  });
});
