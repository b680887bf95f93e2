// zxid order: events wait until no read on the wire can produce an earlier one (the lowest open bound).
import { describe, expect, it } from 'vitest';

import type { Stat } from '@zkts/protocol';

import { Bounds, OrderBuffer } from '../../../../src/cache/engine/order.js';
import type { NodeEvent } from '../../../../src/cache/types.js';

const stat = (z: number): Stat => ({
  czxid: 1n, mzxid: BigInt(z), ctime: 0, mtime: 0, version: 0, cversion: 0, aversion: 0, ephemeralOwner: 0n, dataLength: 0, numChildren: 0, pzxid: 1n,
});
const added = (path: string, z: number): NodeEvent<null> => ({ type: 'added', path, zxid: BigInt(z), node: { stat: stat(z), data: null }, old: undefined });
const removed = (path: string, z: number): NodeEvent<null> => ({ type: 'removed', path, zxid: BigInt(z), node: undefined, old: { stat: stat(1), data: null } });
const paths = (events: NodeEvent<null>[]): string[] => events.map((e) => `${e.type[0]}${e.path}@${e.zxid}`);

describe('Bounds', () => {
  it('finds the lowest open bound as bounds open and close in any order', () => {
    const b = new Bounds();
    expect(b.lowest()).toBeUndefined();
    const ids = [50n, 10n, 30n, 10n, 70n].map((z) => b.add(z));
    expect(b.lowest()).toBe(10n);
    b.close(ids[1] as number);
    expect(b.lowest()).toBe(10n);
    b.close(ids[3] as number);
    expect(b.lowest()).toBe(30n);
    b.close(ids[2] as number);
    b.close(ids[0] as number);
    expect(b.lowest()).toBe(70n);
    b.close(ids[4] as number);
    expect(b.lowest()).toBeUndefined();
    expect(b.size).toBe(0);
  });
});

describe('OrderBuffer', () => {
  it('releases in zxid order, up to the bound given', () => {
    const o = new OrderBuffer<null>();
    o.push(added('/x', 110), 1);
    o.push(added('/y', 100), 1);
    o.push(added('/z', 120), 1);
    expect(paths(o.release(105n))).toEqual(['a/y@100']);
    expect(paths(o.release(undefined))).toEqual(['a/x@110', 'a/z@120']);
    expect(o.outOfOrder).toBe(0);
  });

  it('ties: removals deepest first, other changes parents first', () => {
    const o = new OrderBuffer<null>();
    o.push(removed('/a', 9), 1);
    o.push(removed('/a/b/c', 9), 3);
    o.push(added('/q/r', 9), 2);
    o.push(removed('/a/b', 9), 2);
    o.push(added('/q', 9), 1);
    expect(paths(o.release(undefined))).toEqual(['r/a/b/c@9', 'r/a/b@9', 'r/a@9', 'a/q@9', 'a/q/r@9']);
  });

  it('past its limit, the held events of one node merge (first old, last new), so holding stays bounded', () => {
    const o = new OrderBuffer<null>(() => 4);
    const changed = (path: string, from: number, z: number): NodeEvent<null> => ({
      type: 'changed', path, zxid: BigInt(z), node: { stat: stat(z), data: null }, old: { stat: stat(from), data: null },
    });
    o.push(added('/a', 1), 1);
    o.push(changed('/a', 1, 2), 1);
    o.push(added('/b', 3), 1);
    o.push(changed('/a', 2, 4), 1);
    o.push(removed('/b', 5), 1);
    expect(o.length).toBe(1);
    const [only] = o.release(undefined);
    expect(only).toMatchObject({ type: 'added', path: '/a', zxid: 4n });
    expect(only?.node?.stat.mzxid).toBe(4n);
  });

  it('counts an event released below one released before (it never should be)', () => {
    const o = new OrderBuffer<null>();
    o.push(added('/a', 10), 1);
    o.release(undefined);
    o.push(added('/b', 5), 1);
    o.release(undefined);
    expect(o.outOfOrder).toBe(1);
  });
});
