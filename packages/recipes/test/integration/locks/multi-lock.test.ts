// MultiLock against the shared server.
import { afterEach, describe, expect, it } from 'vitest';

import { MultiLock, Mutex, type LockHandle, type Lockable } from '@zkts/recipes';
import { ManualClock } from '@zkts/testkit';

import { Clients, childrenOf, uniqueRoot, until } from '../../support/helpers.js';

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

    // Failure half-way: c is held elsewhere; a and b come back in reverse order, within ONE timeout overall. The
    // deadline runs on a manual clock, so it is checked to the millisecond whatever the machine's load.
    log.length = 0;
    const clock = new ManualClock();
    const blocker = await new Mutex(cs[1]!, `${root}/c`).acquire();
    const slowA: Lockable = {
      acquire: async (o) => {
        clock.advance(300); // a takes 300 ms of the shared budget
        return tracked('a', new Mutex(cs[0]!, `${root}/a`, { clock })).acquire(o);
      },
    };
    // The locks time on the same clock: a lock given a timeout of its own would be caught by it too.
    const mutexes = ['b', 'c'].map((n) => tracked(n, new Mutex(cs[0]!, `${root}/${n}`, { clock })));
    const ml2 = new MultiLock([slowA, ...mutexes], { clock });
    let outcome: unknown;
    void ml2.acquire({ timeout: 800 }).then(
      () => (outcome = 'granted'),
      (e: unknown) => (outcome = e),
    );
    await until(async () => (await childrenOf(cs[0]!, `${root}/c`)).length === 2, 10_000, 'c waiting behind the blocker');
    // 799 ms into the budget: still waiting for c (which has waited 499 ms of it).
    clock.advance(499);
    await cs[0]!.sync('/');
    expect(outcome).toBeUndefined();
    // 800 ms: the shared deadline. Per-lock timeouts would give c until 300 + 800.
    clock.advance(1);
    await until(() => outcome !== undefined, 10_000, 'the shared deadline');
    expect(outcome).toMatchObject({ code: 'TIMEOUT' });
    expect(log).toEqual(['+a', '+b', '-b', '-a']);
    await blocker.release();
    expect(await childrenOf(cs[0]!, `${root}/a`)).toEqual([]);
    expect(await childrenOf(cs[0]!, `${root}/c`)).toEqual([]);
  });
});
