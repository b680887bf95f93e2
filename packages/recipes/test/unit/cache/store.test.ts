// The view's tree: nodes by path, placeholders for parents not read yet, subtree removal deepest first (sparing
// nodes known to be back), and the old node left untouched for the event.
import { describe, expect, it } from 'vitest';

import type { Stat } from '@zkts/protocol';

import { TreeStore } from '../../../src/cache/store.js';

const stat = (z: number): Stat => ({
  czxid: 1n, mzxid: BigInt(z), ctime: 0n, mtime: 0n, version: z, cversion: 0, aversion: 0, ephemeralOwner: 0n, dataLength: 0, numChildren: 0, pzxid: 1n,
});

describe('TreeStore', () => {
  it('depth and scope relative to the root, for / and for a deeper root', () => {
    const top = new TreeStore<string>('/');
    expect([top.depthOf('/'), top.depthOf('/a'), top.depthOf('/a/b')]).toEqual([0, 1, 2]);
    const s = new TreeStore<string>('/r');
    expect([s.depthOf('/r'), s.depthOf('/r/a/b'), s.depthOf('/rx'), s.depthOf('/')]).toEqual([0, 2, -1, -1]);
    expect(s.pathOf('/r', 'a')).toBe('/r/a');
    expect(top.pathOf('/', 'a')).toBe('/a');
  });

  it('a child stored before its parent hangs under a ghost that is neither counted nor reported', () => {
    const s = new TreeStore<string>('/r');
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
    const s = new TreeStore<string>('/r');
    s.put('/r', stat(1), 'one');
    s.put('/r/k', stat(2), 'kid');
    const { old, node } = s.put('/r', stat(3), 'two');
    expect(old?.data).toBe('one');
    expect(node.data).toBe('two');
    expect(s.get('/r/k')?.data).toBe('kid');
    expect(s.size).toBe(2);
  });

  it('removes a subtree deepest first, sparing what is kept; prunes ghosts left empty', () => {
    const s = new TreeStore<string>('/r');
    for (const p of ['/r', '/r/a', '/r/a/b', '/r/a/b/c', '/r/a/d', '/r/e']) s.put(p, stat(1), p);
    const gone = s.removeSubtree('/r/a');
    expect(gone.map((g) => `${g.path}:${g.depth}`)).toEqual(['/r/a/b/c:3', '/r/a/b:2', '/r/a/d:2', '/r/a:1']);
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
    const s = new TreeStore<string>('/a/r');
    s.put('/a/r', stat(1), 'r');
    s.put('/a/r/k', stat(1), 'k');
    expect(s.removeSubtree('/b')).toEqual([]);
    expect(s.removeSubtree('/a').map((g) => g.path)).toEqual(['/a/r/k', '/a/r']);
    expect(s.size).toBe(0);
    expect([...s.entries()]).toEqual([]);
  });

  it('a kept root survives the removal of its parent as the only node left', () => {
    const s = new TreeStore<string>('/r');
    s.put('/r', stat(1), 'r');
    s.put('/r/k', stat(1), 'k');
    expect(s.removeSubtree('/', (p) => p === '/r').map((g) => g.path)).toEqual(['/r/k']);
    expect(s.get('/r')?.data).toBe('r');
  });
});
