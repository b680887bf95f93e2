// The view's tree: nodes by path, placeholders for parents not read yet, subtree removal deepest first (sparing
// nodes known to be back), and the old node left untouched for the event.
import { describe, expect, it } from 'vitest';

import type { Stat } from '@zkts/protocol';

import { TreeStore } from '../../../../src/cache/engine/store.js';

const stat = (z: number): Stat => ({
  czxid: 1n, mzxid: BigInt(z), ctime: 0, mtime: 0, version: z, cversion: 0, aversion: 0, ephemeralOwner: 0n, dataLength: 0, numChildren: 0, pzxid: 1n,
});

describe('TreeStore', () => {
  it('keeps bytes and Stats compactly and gives them back exactly, for safe and for huge 64-bit values', () => {
    const s = new TreeStore<Uint8Array>('/r');
    const huge: Stat = { ...stat(7), czxid: 2n ** 62n, mzxid: 2n ** 62n + 5n, ephemeralOwner: -(2n ** 63n), ctime: 1_700_000_000_000, mtime: 1_600_000_000_000 };
    const data = new Uint8Array(3000).map((_, i) => i % 251);
    s.put('/r', stat(1), new Uint8Array([1, 2, 3]));
    s.put('/r/big', huge, data);
    s.put('/r/ünïcødé', { ...stat(9), ephemeralOwner: 0x1234_5678_9abc_def0n, version: 2 ** 31 - 1, cversion: -1 }, new Uint8Array(0));
    expect(s.get('/r/big')?.stat).toEqual(huge);
    expect(s.get('/r/big')?.data).toEqual(data);
    expect(s.get('/r/ünïcødé')?.stat).toMatchObject({ ephemeralOwner: 0x1234_5678_9abc_def0n, version: 2 ** 31 - 1, cversion: -1 });
    expect(s.childNames('/r').sort()).toEqual(['big', 'ünïcødé']);
    expect(s.get('/r')?.stat).toEqual(stat(1));
  });

  it('many versions of many nodes: garbage is compacted away, earlier nodes stay readable', () => {
    const s = new TreeStore<Uint8Array>('/r');
    const early = s.put('/r', stat(1), new Uint8Array(100).fill(1)).node;
    for (let round = 2; round < 40; round++) {
      for (let i = 0; i < 500; i++) s.put(`/r/n${i}`, stat(round), new Uint8Array(100).fill(round));
    }
    for (let i = 0; i < 500; i += 2) s.removeSubtree(`/r/n${i}`);
    expect(s.size).toBe(251);
    expect(s.get('/r/n1')?.data[0]).toBe(39);
    expect(s.get('/r/n2')).toBeUndefined();
    expect(early.data[0]).toBe(1);
    expect(s.mzxid('/r/n3')).toBe(39n);
    expect([...s.entries()]).toHaveLength(251);
  });

  it('depth and scope relative to the root, for / and for a deeper root', () => {
    const top = new TreeStore<string>('/', false);
    expect([top.depthOf('/'), top.depthOf('/a'), top.depthOf('/a/b')]).toEqual([0, 1, 2]);
    const s = new TreeStore<string>('/r', false);
    expect([s.depthOf('/r'), s.depthOf('/r/a/b'), s.depthOf('/rx'), s.depthOf('/')]).toEqual([0, 2, -1, -1]);
    expect(s.pathOf('/r', 'a')).toBe('/r/a');
    expect(top.pathOf('/', 'a')).toBe('/a');
  });

  it('a child stored before its parent hangs under a ghost that is neither counted nor reported', () => {
    const s = new TreeStore<string>('/r', false);
    s.put('/r/a/b', stat(5), 'b');
    expect(s.size).toBe(1);
    expect(s.get('/r/a')).toBeUndefined();
    expect(s.holds('/r/a')).toBe(true);
    expect(s.childNames('/r')).toEqual(['a']);
    const { old, node } = s.put('/r/a', stat(3), 'a');
    expect(old).toBeUndefined();
    expect(node.data).toBe('a');
    expect(s.size).toBe(2);
    expect(s.get('/r/a/b')?.data).toBe('b');
    expect([...s.entries()].map(([p]) => p)).toEqual(['/r/a', '/r/a/b']);
  });

  it('a change makes a new node; the old one keeps its state', () => {
    const s = new TreeStore<string>('/r', false);
    s.put('/r', stat(1), 'one');
    s.put('/r/k', stat(2), 'kid');
    const { old, node } = s.put('/r', stat(3), 'two');
    expect(old?.data).toBe('one');
    expect(node.data).toBe('two');
    expect(s.get('/r/k')?.data).toBe('kid');
    expect(s.size).toBe(2);
  });

  it('removes a subtree deepest first, sparing what is kept; prunes ghosts left empty', () => {
    const s = new TreeStore<string>('/r', false);
    for (const p of ['/r', '/r/a', '/r/a/b', '/r/a/b/c', '/r/a/d', '/r/e']) s.put(p, stat(1), p);
    const gone = s.removeSubtree('/r/a');
    // Every node after all of its descendants.
    expect(gone.map((g) => `${g.path}:${g.depth}`).sort()).toEqual(['/r/a/b/c:3', '/r/a/b:2', '/r/a/d:2', '/r/a:1'].sort());
    const at = (p: string): number => gone.findIndex((g) => g.path === p);
    expect(at('/r/a/b/c') < at('/r/a/b') && at('/r/a/b') < at('/r/a') && at('/r/a/d') < at('/r/a')).toBe(true);
    expect(s.size).toBe(2);
    expect(s.childNames('/r')).toEqual(['e']);

    s.put('/r/x/y', stat(2), 'y');
    s.put('/r/x/z', stat(2), 'z');
    const spared = s.removeSubtree('/r/x', (p) => p === '/r/x/z');
    expect(spared.map((g) => g.path)).toEqual(['/r/x/y']);
    expect(s.get('/r/x/z')?.data).toBe('z');
    s.removeSubtree('/r/x/z');
    expect(s.holds('/r/x')).toBe(false);
  });

  it('a path above the root takes the whole view; an unrelated one nothing', () => {
    const s = new TreeStore<string>('/a/r', false);
    s.put('/a/r', stat(1), 'r');
    s.put('/a/r/k', stat(1), 'k');
    expect(s.removeSubtree('/b')).toEqual([]);
    expect(s.removeSubtree('/a').map((g) => g.path)).toEqual(['/a/r/k', '/a/r']);
    expect(s.size).toBe(0);
    expect([...s.entries()]).toEqual([]);
  });

  it('a kept root survives the removal of its parent as the only node left', () => {
    const s = new TreeStore<string>('/r', false);
    s.put('/r', stat(1), 'r');
    s.put('/r/k', stat(1), 'k');
    expect(s.removeSubtree('/', (p) => p === '/r').map((g) => g.path)).toEqual(['/r/k']);
    expect(s.get('/r')?.data).toBe('r');
  });
});
