// SetPartitioner against the real server: kazoo's layout (ShallowParty at <path>/party, kazoo Locks at
// <path>/locks/<item>), the split (disjoint, complete, kazoo's function), re-splitting when members come and go,
// the state machine, bad input, and interop with kazoo's own SetPartitioner in python3 on the same path.
import { describe, expect, it } from 'vitest';

import type { ZkClient } from '@zkts/protocol';
import { RecipeArgumentError, RecipeClosedError, SetPartitioner, type PartitionSet, type PartitionState } from '@zkts/recipes';
import { ManualClock } from '@zkts/testkit';

import { expireSession, victimClient } from '../../support/expiry.js';
import { checkKazoo, kazooPartitioner } from '../../support/foreign.js';
import { childrenOf, sharedServer, sleep, text, until, uniqueRoot } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients, proxies } = perTestResources();

const ITEMS = ['q-a', 'q-b', 'q-c', 'q-d', 'q-e', 'q-f', 'q-g'];

/** Whether the sets split `items` exactly: each item in exactly one set. */
function splits(sets: readonly (readonly string[])[], items: readonly string[]): boolean {
  const all = sets.flat();
  return all.length === items.length && new Set(all).size === items.length && items.every((i) => all.includes(i));
}

describe('SetPartitioner', () => {
  it("splits the set with kazoo's function and layout; re-splits when a member joins and when one finishes", async () => {
    const path = uniqueRoot('partition');
    const cs = await clients.many(4);
    const make = (c: ZkClient, id: string): SetPartitioner => new SetPartitioner(c, path, ITEMS, { identifier: id, timeBoundary: 200 });
    const ps = [make(cs[0]!, 'm1'), make(cs[1]!, 'm2'), make(cs[2]!, 'm3')];
    const sets = await Promise.all(ps.map((p) => p.acquired({ timeout: 15_000 })));
    // kazoo's default: sorted items, every 3rd from the member's index in the sorted members.
    expect(sets.map((s) => [...s.items])).toEqual([['q-a', 'q-d', 'q-g'], ['q-b', 'q-e'], ['q-c', 'q-f']]);
    const party = await childrenOf(cs[0]!, `${path}/party`);
    expect(party.map((n) => n.replace(/^[0-9a-f]{32}-/, '')).sort()).toEqual(['m1', 'm2', 'm3']);
    for (const item of ITEMS) {
      const nodes = await childrenOf(cs[0]!, `${path}/locks/${item}`);
      expect(nodes).toHaveLength(1);
      expect(nodes[0]).toMatch(/^[0-9a-f]{32}__lock__\d{10}$/);
    }
    const holder = (await childrenOf(cs[0]!, `${path}/locks/q-e`))[0]!;
    expect(text((await cs[0]!.getData(`${path}/locks/q-e/${holder}`)).data)).toBe('m2');

    // A fourth member: every signal fires, the set is split four ways.
    const fourth = make(cs[3]!, 'm4');
    const acquired4 = fourth.acquired({ timeout: 15_000 });
    await until(() => sets.every((s) => s.signal.aborted), 10_000, 'every signal fires');
    expect(ps.map((p) => p.state)).toEqual(['release', 'release', 'release']);
    ps.push(fourth);
    const again = await Promise.all([...ps.slice(0, 3).map((p) => p.acquired({ timeout: 15_000 })), acquired4]);
    expect(again.map((s) => [...s.items])).toEqual([['q-a', 'q-e'], ['q-b', 'q-f'], ['q-c', 'q-g'], ['q-d']]);

    // One finishes: its locks and party node go; the others split among three again.
    await ps[1]!.finish();
    expect(ps[1]!.state).toBe('failure');
    const rest = [ps[0]!, ps[2]!, ps[3]!];
    await until(() => [again[0]!, again[2]!, again[3]!].every((s) => s.signal.aborted), 10_000, 'the others see it leave');
    const third = await Promise.all(rest.map((p) => p.acquired({ timeout: 15_000 })));
    expect(splits(third.map((s) => s.items), ITEMS)).toBe(true);
    expect(third.map((s) => [...s.items])).toEqual([['q-a', 'q-d', 'q-g'], ['q-b', 'q-e'], ['q-c', 'q-f']]);
    await Promise.all(rest.map((p) => p.finish()));
    expect(await childrenOf(cs[0]!, `${path}/party`)).toEqual([]);
    for (const item of ITEMS) expect(await childrenOf(cs[0]!, `${path}/locks/${item}`)).toEqual([]);
  }, 60_000);

  it('states: allocating → acquired → release → allocating → acquired; release() gives the set back; finish → failure', async () => {
    const path = uniqueRoot('partition');
    const [c1, c2] = await clients.many(2);
    await using a = new SetPartitioner(c1!, path, ['x', 'y'], { identifier: 'a', timeBoundary: 100 });
    const states: PartitionState[] = [];
    a.onChange((s) => states.push(s));
    const first = await a.acquired({ timeout: 10_000 });
    expect(first.items).toEqual(['x', 'y']);
    expect(a.acquiredSet).toBe(first);
    // A second acquired() while it holds returns the same set.
    expect(await a.acquired({ timeout: 0 })).toBe(first);
    // Explicit release: the signal fires, then allocating, then the same share again (nobody else came).
    await a.release();
    expect(first.signal.aborted).toBe(true);
    const second = await a.acquired({ timeout: 10_000 });
    expect(second).not.toBe(first);
    expect(second.items).toEqual(['x', 'y']);
    // A member joins: release, and acquired() releases the old set itself before waiting for the new one.
    const b = new SetPartitioner(c2!, path, ['x', 'y'], { identifier: 'b', timeBoundary: 100 });
    b.start();
    await until(() => a.state === 'release', 10_000, 'release');
    const [third, theirs] = await Promise.all([a.acquired({ timeout: 10_000 }), b.acquired({ timeout: 10_000 })]);
    expect([third.items, theirs.items]).toEqual([['x'], ['y']]);
    expect(states).toEqual(['acquired', 'allocating', 'acquired', 'release', 'allocating', 'acquired']);
    await b.finish();
    await a.finish();
    expect(states.at(-1)).toBe('failure');
    expect(third.signal.aborted).toBe(true);
    await expect(a.acquired()).rejects.toBeInstanceOf(RecipeClosedError);
  }, 30_000);

  it('time boundary (ManualClock): allocates only once the membership stayed unchanged that long; a join starts the wait over', async () => {
    const clock = new ManualClock();
    const path = uniqueRoot('partition');
    const [c1, c2] = await clients.many(2);
    await using a = new SetPartitioner(c1!, path, ['x', 'y'], { identifier: 'a', timeBoundary: 10_000, clock });
    a.start();
    // The wait is armed: one timer, due 10 s from now on the manual clock.
    await until(() => clock.nextDue() === clock.now() + 10_000, 5000, 'the time boundary armed');
    clock.advance(9_999);
    await sleep(100);
    expect(a.state).toBe('allocating');
    // b joins with 1 ms left: a's wait starts over.
    await using b = new SetPartitioner(c2!, path, ['x', 'y'], { identifier: 'b', timeBoundary: 50 });
    b.start();
    await until(() => a.members.length === 2 && clock.nextDue() === clock.now() + 10_000, 5000, 'a waits again');
    expect(clock.pending).toBe(1);
    clock.advance(1);
    await sleep(100);
    expect(a.state).toBe('allocating');
    clock.advance(9_999);
    const [mine, theirs] = await Promise.all([a.acquired({ timeout: 10_000 }), b.acquired({ timeout: 10_000 })]);
    expect([mine.items, theirs.items]).toEqual([['x'], ['y']]);
  }, 30_000);

  it('a timeout while allocating rejects; a cut connection fires the signal at suspension; the share comes back after the reconnect', async () => {
    const path = uniqueRoot('partition');
    const victim = await victimClient(clients, proxies);
    await using p = new SetPartitioner(victim.client, path, ['only'], { identifier: 'solo', timeBoundary: 1500 });
    await expect(p.acquired({ timeout: 100 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const set = await p.acquired({ timeout: 10_000 });
    let stateWhenFired: string | undefined;
    set.signal.addEventListener('abort', () => (stateWhenFired = victim.client.state));
    const session = victim.client.sessionId;
    victim.proxy.cut();
    await until(() => set.signal.aborted, 5000, 'the signal fires');
    expect(stateWhenFired).toBe('suspended');
    await until(() => p.state === 'release', 5000, 'release');
    const again = await p.acquired({ timeout: 10_000 });
    expect(victim.client.sessionId).toBe(session);
    expect(again.items).toEqual(['only']);
    expect(await childrenOf(victim.client, `${path}/locks/only`)).toHaveLength(1);
  }, 30_000);

  it('after an expiry and renewal it allocates again in the new session (kazoo would fail)', async () => {
    const path = uniqueRoot('partition');
    const victim = await victimClient(clients, proxies);
    const other = await clients.connect();
    await using a = new SetPartitioner(victim.client, path, ['x', 'y'], { identifier: 'a', timeBoundary: 100 });
    await using b = new SetPartitioner(other, path, ['x', 'y'], { identifier: 'b', timeBoundary: 100 });
    const [first] = await Promise.all([a.acquired({ timeout: 10_000 }), b.acquired({ timeout: 10_000 })]);
    expect(first.items).toEqual(['x']);
    const old = victim.client.sessionId;
    await expireSession(victim, { renewed: true });
    expect(first.signal.aborted).toBe(true);
    const again = await a.acquired({ timeout: 15_000 });
    expect(again.items).toEqual(['x']);
    const nodes = await childrenOf(other, `${path}/locks/x`);
    expect(nodes).toHaveLength(1);
    const owner = (await other.exists(`${path}/locks/x/${nodes[0]}`))!.ephemeralOwner;
    expect(owner).toBe(victim.client.sessionId);
    expect(owner).not.toBe(old);
  }, 30_000);

  it('bad input: typed errors', async () => {
    const c = await clients.connect();
    expect(() => new SetPartitioner(c, 'relative', ['a'])).toThrow(RecipeArgumentError);
    expect(() => new SetPartitioner(c, '/p', ['a/b'])).toThrow(RecipeArgumentError);
    expect(() => new SetPartitioner(c, '/p', [''])).toThrow(RecipeArgumentError);
    expect(() => new SetPartitioner(c, '/p', ['a', 'a'])).toThrow(RecipeArgumentError);
    expect(() => new SetPartitioner(c, '/p', ['a'], { timeBoundary: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_USE' }));
    expect(() => new SetPartitioner(c, '/p', ['a'], { identifier: 'x/y' })).toThrow(RecipeArgumentError);
  });

  it("kazoo's SetPartitioner in python3 and ours split one set: no overlap, full coverage", async () => {
    checkKazoo();
    const path = uniqueRoot('partition');
    const items = ['item-1', 'item-2', 'item-3', 'item-4', 'item-5'];
    const py = kazooPartitioner(sharedServer(), path, 'kazoo', 0.5, items);
    const c = await clients.connect();
    await using ours = new SetPartitioner(c, path, items, { identifier: 'zkts', timeBoundary: 500 });
    let set: PartitionSet | undefined;
    let theirs: string[] = [];
    // Both settle on the split of the same two members; kazoo prints every acquired set, the last one counts.
    await until(async () => {
      set = await ours.acquired({ timeout: 20_000 });
      const printed = [...py.output().matchAll(/^ACQUIRED (\S*)$/gm)];
      const state = [...py.output().matchAll(/^STATE (\S+)$/gm)].at(-1)?.[1];
      theirs = printed.at(-1)?.[1]?.split(',').filter((x) => x !== '') ?? [];
      return state === 'ACQUIRED' && !set.signal.aborted && splits([set.items, theirs], items);
    }, 40_000, 'kazoo and zkts split the set');
    // kazoo's function on ['kazoo', 'zkts']: kazoo takes the even positions of the sorted items.
    expect(theirs).toEqual(['item-1', 'item-3', 'item-5']);
    expect([...set!.items]).toEqual(['item-2', 'item-4']);
    expect(new Set([...theirs, ...set!.items]).size).toBe(items.length);
    // In ZooKeeper too: each item's lock is one node, kazoo's (kazoo's partitioner writes no data) or ours.
    for (const item of items) {
      const nodes = await childrenOf(c, `${path}/locks/${item}`);
      expect(nodes, item).toHaveLength(1);
      expect(text((await c.getData(`${path}/locks/${item}/${nodes[0]}`)).data)).toBe(theirs.includes(item) ? '' : 'zkts');
    }
    py.proc.stdin!.write('finish\n');
    await py.line(/FINISHED/);
    expect(await py.exited).toBe(0);
    // kazoo left: we take the whole set.
    const all = await ours.acquired({ timeout: 20_000 });
    expect([...all.items]).toEqual(items);
  }, 90_000);
});

