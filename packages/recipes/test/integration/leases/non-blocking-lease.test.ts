// kazoo's NonBlockingLease / MultiNonBlockingLease layout against a real server: exclusion under concurrent
// contenders, expiry and renewal, and kazoo processes (python3 + kazoo) on the same nodes.
import { afterEach, describe, expect, it } from 'vitest';

import { MultiNonBlockingLease, NonBlockingLease, type LeaseTerm } from '@zkts/recipes';
import { systemClock, type Clock } from '@zkts/protocol';

import { checkKazoo, kazooScript, killAll } from '../../support/foreign.js';
import { Clients, childrenOf, sharedServer, text, until, uniqueRoot } from '../../support/helpers.js';

const clients = new Clients();
afterEach(async () => {
  killAll();
  await clients.closeAll();
});

/** The system clock shifted by `ms`: a client whose clock runs ahead. */
const shifted = (ms: number): Clock => ({ ...systemClock, now: () => Date.now() + ms });
/** kazoo prints a naive UTC datetime's isoformat(): our Date without the zone and the (zero) fraction. */
const naiveIso = (d: Date): string => d.toISOString().replace(/\.000Z$/, '');

describe('NonBlockingLease (kazoo layout)', () => {
  it('takes a free lease; another holder is refused until its end; the same holder renews', async () => {
    const path = uniqueRoot('lease');
    const [c1, c2] = await clients.many(2);
    const mine = new NonBlockingLease(c1!, path, { duration: 2000, identifier: 'host-a' });
    const theirs = new NonBlockingLease(c2!, path, { duration: 2000, identifier: 'host-b' });
    const term = (await mine.tryAcquire()) as LeaseTerm;
    expect(term).toMatchObject({ path, holder: 'host-a' });
    expect(term.expiresAt.getMilliseconds()).toBe(0);
    const node = await c1!.getData(`${path}/lease_holder`);
    expect(text(node.data)).toBe(`{"version": 1, "holder": "host-a", "end": "${naiveIso(term.expiresAt)}"}`);
    expect(node.stat.ephemeralOwner).toBe(0n);
    expect(await theirs.tryAcquire()).toBeNull();
    const renewed = (await mine.tryAcquire()) as LeaseTerm;
    expect(renewed.holder).toBe('host-a');
    expect(renewed.expiresAt.getTime()).toBeGreaterThanOrEqual(term.expiresAt.getTime());
    expect(await theirs.current()).toEqual({ path, holder: 'host-a', expiresAt: renewed.expiresAt });
    // Only the lease node stays: every lock node was removed.
    expect(await childrenOf(c1!, path)).toEqual(['lease_holder']);
    // After its end, the other holder takes it (kazoo compares now < end, to the second).
    let taken: LeaseTerm | null = null;
    await until(async () => (taken = await theirs.tryAcquire()) !== null, 10_000, 'the lease to expire');
    expect(Date.now()).toBeGreaterThanOrEqual(renewed.expiresAt.getTime());
    expect(taken).toMatchObject({ holder: 'host-b' });
    expect(await mine.tryAcquire()).toBeNull();
  });

  it('one holder among concurrent contenders; a clock past the end takes it over', async () => {
    const path = uniqueRoot('lease');
    const cs = await clients.many(3);
    const leases = Array.from({ length: 9 }, (_, i) => new NonBlockingLease(cs[i % 3]!, path, { duration: 60_000, identifier: `h${i}` }));
    const terms = await Promise.all(leases.map((l) => l.tryAcquire({ timeout: 20_000 })));
    const won = terms.filter((t) => t !== null);
    expect(won).toHaveLength(1);
    const late = new NonBlockingLease(cs[0]!, path, { duration: 60_000, identifier: 'late', clock: shifted(61_000) });
    expect(await late.tryAcquire()).toMatchObject({ holder: 'late' });
  });

  it('a node in another format version is left alone; a node kazoo cannot read rejects with DataFormatError', async () => {
    const path = uniqueRoot('lease');
    const c = await clients.connect();
    await c.mkdirp(path);
    await c.create(`${path}/lease_holder`, '{"version": 2, "whatever": true}');
    const lease = new NonBlockingLease(c, path, { duration: 1000, identifier: 'x' });
    expect(await lease.tryAcquire()).toBeNull();
    await c.setData(`${path}/lease_holder`, 'not json');
    await expect(lease.tryAcquire()).rejects.toMatchObject({ code: 'DATA_FORMAT' });
    expect(text((await c.getData(`${path}/lease_holder`)).data)).toBe('not json');
  });
});

describe('MultiNonBlockingLease (kazoo layout)', () => {
  it('at most count holders among concurrent contenders; holders renew in their own slot', async () => {
    const path = uniqueRoot('mlease');
    const cs = await clients.many(4);
    const make = (i: number): MultiNonBlockingLease => new MultiNonBlockingLease(cs[i % 4]!, path, 3, { duration: 60_000, identifier: `h${i}` });
    const leases = Array.from({ length: 10 }, (_, i) => make(i));
    const terms = await Promise.all(leases.map((l) => l.tryAcquire({ timeout: 20_000 })));
    const won = terms.filter((t): t is LeaseTerm => t !== null);
    expect(won).toHaveLength(3);
    expect(new Set(won.map((t) => t.slot))).toEqual(new Set([0, 1, 2]));
    expect((await childrenOf(cs[0]!, path)).sort()).toEqual(['0', '1', '2']);
    const holders = await leases[0]!.holders();
    expect(holders.map((h) => h.holder).sort()).toEqual(won.map((t) => t.holder).sort());
    // A holder of slot 2 renews in slot 2, even though kazoo's order would try 0 first (held: refused anyway).
    const inTwo = won.find((t) => t.slot === 2)!;
    const again = await leases[Number(inTwo.holder.slice(1))]!.tryAcquire();
    expect(again).toMatchObject({ slot: 2, holder: inTwo.holder });
    // Everyone else is still refused.
    const losers = leases.filter((_, i) => !won.some((t) => t.holder === `h${i}`));
    expect(await Promise.all(losers.map((l) => l.tryAcquire()))).toEqual(losers.map(() => null));
  });
});

describe('kazoo lease interop (python3 + kazoo, same server and path)', () => {
  it('a lease kazoo holds blocks ours, and we read its node; the other way round too, byte for byte', async () => {
    checkKazoo();
    const path = uniqueRoot('lease');
    const c = await clients.connect();
    const k1 = kazooScript('kazoo_lease.py', sharedServer(), path, 'kazoo-1', '60');
    await k1.line(/DONE/);
    expect(k1.output()).toMatch(/OBTAINED True/);
    const ours = new NonBlockingLease(c, path, { duration: 60_000, identifier: 'zkts-é😀' });
    expect(await ours.tryAcquire()).toBeNull();
    const theirs = (await ours.current())!;
    expect(theirs.holder).toBe('kazoo-1');
    expect(Math.abs(theirs.expiresAt.getTime() - (Date.now() + 60_000))).toBeLessThan(5000);
    // A kazoo lease that ended: a client whose clock is past its end takes it.
    const later = new NonBlockingLease(c, path, { duration: 60_000, identifier: 'zkts-é😀', clock: shifted(62_000) });
    const term = (await later.tryAcquire())!;
    expect(term.holder).toBe('zkts-é😀');
    const k2 = kazooScript('kazoo_lease.py', sharedServer(), path, 'kazoo-2', '60');
    await k2.line(/DONE/);
    expect(k2.output()).toMatch(/OBTAINED False/);
    // kazoo reads our node: our holder, our end, and the bytes are exactly what json.dumps would write.
    expect(k2.output()).toContain(`NODE - HOLDER zkts-é😀 END ${naiveIso(term.expiresAt)} SAME_BYTES True`);
    // The same identifier renews through kazoo, too.
    const k3 = kazooScript('kazoo_lease.py', sharedServer(), path, 'zkts-é😀', '120');
    await k3.line(/DONE/);
    expect(k3.output()).toMatch(/OBTAINED True/);
    expect((await ours.current())!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 100_000);
  });

  it('kazoo and zkts contenders at once: at most count leases between them', async () => {
    checkKazoo();
    const path = uniqueRoot('mlease');
    const kazoo = [1, 2, 3].map((i) => kazooScript('kazoo_lease.py', sharedServer(), path, `kazoo-${i}`, '60', '2'));
    const cs = await clients.many(3);
    const ours = await Promise.all(cs.map((c, i) => new MultiNonBlockingLease(c, path, 2, { duration: 60_000, identifier: `zkts-${i}` }).tryAcquire({ timeout: 20_000 })));
    await Promise.all(kazoo.map((k) => k.line(/DONE/)));
    const kazooWins = kazoo.filter((k) => /OBTAINED True/.test(k.output())).length;
    const ourWins = ours.filter((t) => t !== null).length;
    expect(kazooWins + ourWins).toBe(2);
    const holders = await new MultiNonBlockingLease(cs[0]!, path, 2, { duration: 60_000, identifier: 'reader' }).holders();
    expect(holders).toHaveLength(2);
    expect(new Set(holders.map((h) => h.holder)).size).toBe(2);
  });

  it('MultiNonBlockingLease: kazoo and zkts share the slots; the count holds across both', async () => {
    checkKazoo();
    const path = uniqueRoot('mlease');
    const c = await clients.connect();
    const k1 = kazooScript('kazoo_lease.py', sharedServer(), path, 'kazoo-1', '60', '2');
    await k1.line(/DONE/);
    expect(k1.output()).toMatch(/OBTAINED True/);
    const ours = new MultiNonBlockingLease(c, path, 2, { duration: 60_000, identifier: 'zkts-1' });
    expect(await ours.tryAcquire()).toMatchObject({ slot: 1, holder: 'zkts-1' });
    expect(await new MultiNonBlockingLease(c, path, 2, { duration: 60_000, identifier: 'zkts-2' }).tryAcquire()).toBeNull();
    const k2 = kazooScript('kazoo_lease.py', sharedServer(), path, 'kazoo-2', '60', '2');
    await k2.line(/DONE/);
    expect(k2.output()).toMatch(/OBTAINED False/);
    expect(k2.output()).toMatch(/NODE 0 HOLDER kazoo-1 END \S+ SAME_BYTES True/);
    expect(k2.output()).toMatch(/NODE 1 HOLDER zkts-1 END \S+ SAME_BYTES True/);
    expect((await ours.holders()).map((h) => [h.slot, h.holder])).toEqual([[0, 'kazoo-1'], [1, 'zkts-1']]);
  });
});
