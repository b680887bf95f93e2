// The per-consumer buffer: a plain queue up to its bound, then at most one merged event per node (moved to the
// end with the later zxid), so a consumer that fell behind still ends with the cache's view.
import { describe, expect, it } from 'vitest';

import type { Stat } from '@zkts/protocol';

import { PendingQueue, mergeEvents } from '../../../../src/cache/engine/pending.js';
import type { CacheEvent, CachedNode, NodeEvent } from '../../../../src/cache/types.js';

const stat = (mzxid: number): Stat => ({
  czxid: 1n, mzxid: BigInt(mzxid), ctime: 0, mtime: 0, version: mzxid, cversion: 0, aversion: 0, ephemeralOwner: 0n, dataLength: 0, numChildren: 0, pzxid: 1n,
});
const node = (z: number): CachedNode<string> => ({ stat: stat(z), data: `d${z}` });
const added = (path: string, z: number): NodeEvent<string> => ({ type: 'added', path, zxid: BigInt(z), node: node(z), old: undefined });
const changed = (path: string, from: number, z: number): NodeEvent<string> => ({ type: 'changed', path, zxid: BigInt(z), node: node(z), old: node(from) });
const removed = (path: string, from: number, z: number): NodeEvent<string> => ({ type: 'removed', path, zxid: BigInt(z), node: undefined, old: node(from) });

function drain(q: PendingQueue<string>): CacheEvent<string>[] {
  const out: CacheEvent<string>[] = [];
  for (let e = q.shift(); e !== undefined; e = q.shift()) out.push(e);
  return out;
}

const brief = (events: CacheEvent<string>[]): string[] =>
  events.map((e) => ('path' in e ? `${e.type} ${e.path} ${e.old?.data ?? '-'}→${e.node?.data ?? '-'} @${e.zxid}` : e.type));

describe('mergeEvents', () => {
  it('keeps the first old and the last new state', () => {
    expect(mergeEvents(added('/a', 1), changed('/a', 1, 2))).toEqual({ type: 'added', path: '/a', zxid: 2n, node: node(2), old: undefined });
    expect(mergeEvents(changed('/a', 1, 2), removed('/a', 2, 3))).toEqual({ type: 'removed', path: '/a', zxid: 3n, node: undefined, old: node(1) });
    expect(mergeEvents(added('/a', 1), removed('/a', 1, 3))).toBeUndefined();
    expect(mergeEvents(removed('/a', 1, 2), added('/a', 3))).toEqual({ type: 'changed', path: '/a', zxid: 3n, node: node(3), old: node(1) });
  });
});

describe('PendingQueue', () => {
  it('is a plain queue up to its bound', () => {
    const q = new PendingQueue<string>(3);
    q.push(added('/a', 1));
    q.push(changed('/a', 1, 2));
    q.push({ type: 'initialized', size: 1 });
    expect(q.length).toBe(3);
    expect(brief(drain(q))).toEqual(['added /a -→d1 @1', 'changed /a d1→d2 @2', 'initialized']);
    expect(q.mergedCount).toBe(0);
  });

  it('past its bound merges per node, moving the merged event to the end (zxid order kept)', () => {
    const q = new PendingQueue<string>(3);
    q.push(added('/a', 1));
    q.push(added('/b', 2));
    q.push(changed('/a', 1, 3));
    q.push(added('/c', 4)); // 4 > 3: starts merging
    expect(q.length).toBe(3);
    q.push(removed('/b', 2, 5)); // added + removed: nothing
    q.push(changed('/c', 4, 6));
    expect(brief(drain(q))).toEqual(['added /a -→d3 @3', 'added /c -→d6 @6']);
    expect(q.mergedCount).toBe(3);
    // Drained: a plain queue again.
    q.push(changed('/a', 3, 7));
    q.push(changed('/a', 7, 8));
    expect(brief(drain(q))).toEqual(['changed /a d3→d7 @7', 'changed /a d7→d8 @8']);
  });

  it('holds at most one event per node and one resynced however long the consumer stalls', () => {
    const q = new PendingQueue<string>(10);
    let z = 1;
    for (let round = 0; round < 100; round++) {
      for (let i = 0; i < 20; i++) q.push(round === 0 ? added(`/n${i}`, z++) : changed(`/n${i}`, z - 20, z++));
      q.push({ type: 'resynced', reason: 'reconnect', size: 20 });
    }
    expect(q.length).toBe(21);
    const out = drain(q);
    expect(out.filter((e) => e.type === 'added')).toHaveLength(20);
    expect(out.at(-1)?.type).toBe('resynced');
    const zxids = out.flatMap((e) => ('zxid' in e ? [e.zxid] : []));
    expect([...zxids].sort((a, b) => (a < b ? -1 : 1))).toEqual(zxids);
  });

  it('reads events re-added while it is being drained', () => {
    const q = new PendingQueue<string>(1);
    q.push(added('/a', 1));
    q.push(added('/b', 2));
    expect(brief([q.shift() as CacheEvent<string>])).toEqual(['added /a -→d1 @1']);
    q.push(changed('/b', 2, 3));
    q.push(added('/c', 4));
    expect(brief(drain(q))).toEqual(['added /b -→d3 @3', 'added /c -→d4 @4']);
    expect(q.length).toBe(0);
  });
});
