// ExclusiveLock against the shared server.
import { afterEach, describe, expect, it } from 'vitest';

import { ExclusiveLock } from '@zkts/recipes';

import { Clients, sleep, uniqueRoot } from '../../support/helpers.js';

const clients = new Clients();
afterEach(() => clients.closeAll());

async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([p.then(() => true, () => true), sleep(ms).then(() => false)]);
}

describe('ExclusiveLock', () => {
  it('one holder at a time; isLocked/owner report it; the token grows', async () => {
    const root = uniqueRoot();
    const cs = await clients.many(2);
    const a = new ExclusiveLock(cs[0]!, `${root}/x`, { id: 'alpha' });
    const b = new ExclusiveLock(cs[1]!, `${root}/x`, { id: 'beta' });
    expect(await a.isLocked()).toBe(false);
    expect(await a.owner()).toBeNull();
    const la = await a.acquire();
    expect(await b.isLocked()).toBe(true);
    expect(await b.owner()).toMatchObject({ id: 'alpha', sessionId: cs[0]!.sessionId, fencingToken: la.fencingToken });
    expect(await b.tryAcquire()).toBeNull();
    const lbP = b.acquire({ timeout: 5000 });
    expect(await settlesWithin(lbP, 200)).toBe(false);
    await la.release();
    const lb = await lbP;
    expect(lb.fencingToken > la.fencingToken).toBe(true);
    expect((await a.owner())?.id).toBe('beta');
    await expect(b.acquire({ timeout: 100 })).rejects.toMatchObject({ code: 'LOCK_BUSY' });
    await lb.release();
    expect(await a.isLocked()).toBe(false);
  });
});
