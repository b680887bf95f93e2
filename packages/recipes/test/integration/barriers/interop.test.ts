// Barrier and DoubleBarrier beside the real libraries, each in its own process on one server and one path:
// Curator's DistributedBarrier / DistributedDoubleBarrier in a JVM, kazoo's Barrier / DoubleBarrier in python3.
// They share zkts's layout: a barrier is its node; a double barrier is one EPHEMERAL child per member and a
// `ready` child. Foreign processes print CLOCK_MONOTONIC times (Java's nanoTime, Python's monotonic_ns), the
// clock of process.hrtime, so "released only after X" is checked against the instant X began.
import { describe, expect, it } from 'vitest';

import { Barrier, DoubleBarrier } from '@zkts/recipes';

import { coordinationPeers, type CoordinationLibrary, type ForeignProcess } from '../../support/foreign.js';
import { Clients, sleep, uniqueRoot, until } from '../../support/helpers.js';

const clients = new Clients();
const foreign = coordinationPeers(clients);

async function time(p: ForeignProcess, re: RegExp): Promise<bigint> {
  return BigInt((await p.line(re, 60_000))[1]!);
}

describe.each<CoordinationLibrary>(['curator', 'kazoo'])('barriers beside %s', (library) => {
  it('Barrier: set by one library, waited on by both, removed by the other (both ways)', async () => {
    const c = await clients.connect();
    const path = `${uniqueRoot()}/barrier`;
    const barrier = new Barrier(c, path);

    // The foreign library sets it; zkts and the library wait; zkts removes it.
    await foreign(library, 'barrier-set', path).line(/^DONE$/m);
    expect(await barrier.isSet()).toBe(true);
    const theirWait = foreign(library, 'barrier-wait', path);
    await theirWait.line(/^WAITING$/m);
    let ours = false;
    const ourWait = barrier.wait({ timeout: 60_000 }).then(() => (ours = true));
    await sleep(200); // a chance to be released early, which the checks below would see
    expect(ours).toBe(false);
    expect(theirWait.output()).not.toMatch(/CLEARED|TIMEOUT/);
    const removing = process.hrtime.bigint();
    await barrier.remove();
    await ourWait;
    expect(await time(theirWait, /^CLEARED (\d+)$/m)).toBeGreaterThan(removing);

    // zkts sets it; the library waits; the library removes it and zkts's waiter goes.
    await barrier.set();
    const theirs = foreign(library, 'barrier-wait', path);
    await theirs.line(/^WAITING$/m);
    ours = false;
    const ourSecond = barrier.wait({ timeout: 60_000 }).then(() => (ours = true));
    await sleep(200);
    expect(ours).toBe(false);
    expect(theirs.output()).not.toMatch(/CLEARED|TIMEOUT/);
    const theirRemove = process.hrtime.bigint();
    await foreign(library, 'barrier-remove', path).line(/^DONE$/m);
    await ourSecond;
    expect(await time(theirs, /^CLEARED (\d+)$/m)).toBeGreaterThan(theirRemove);
    expect(await barrier.isSet()).toBe(false);
  }, 120_000);

  it('DoubleBarrier: two members of each library enter only once all four are in and leave only once all have left', async () => {
    const cs = await clients.many(2);
    const path = `${uniqueRoot()}/double`;
    const members = 4;
    const theirs = [0, 1].map((n) => foreign(library, 'double-barrier', path, String(members), `${library}-${n}`));
    for (const p of theirs) await p.line(/^JOINING /m);
    // The foreign members wait inside enter() until ours are in too.
    await until(async () => (await cs[0]!.getChildren(path).catch(() => ({ children: [] }))).children.length === 2, 30_000, 'the foreign members to join');
    await sleep(200);
    for (const p of theirs) expect(p.output()).not.toMatch(/ENTERED/);
    const ours = cs.map((c, n) => new DoubleBarrier(c, path, members, { id: `zkts-${n}` }));
    const lastJoin = process.hrtime.bigint();
    await Promise.all(ours.map((b) => b.enter({ timeout: 60_000 })));
    for (const p of theirs) expect(await time(p, /^ENTERED \S+ (\d+)$/m)).toBeGreaterThan(lastJoin);

    // The foreign members leave first and must wait in leave() until ours have left too.
    for (const p of theirs) p.proc.stdin!.write('leave\n');
    for (const p of theirs) await p.line(/^LEAVING /m);
    await sleep(200);
    for (const p of theirs) expect(p.output()).not.toMatch(/LEFT|TIMEOUT/);
    const lastLeave = process.hrtime.bigint();
    await Promise.all(ours.map((b) => b.leave({ timeout: 60_000 })));
    for (const p of theirs) expect(await time(p, /^LEFT \S+ (\d+)$/m)).toBeGreaterThan(lastLeave);
    expect(await Promise.all(theirs.map((p) => p.exited))).toEqual([0, 0]);
    // Everyone out: no member node is left behind.
    expect((await cs[0]!.getChildren(path)).children.filter((n) => n !== 'ready')).toEqual([]);
  }, 120_000);
});
