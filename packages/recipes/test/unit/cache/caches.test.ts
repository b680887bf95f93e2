// The caches on an in-memory ZooKeeper (fake-tree.ts), deterministic: a server without persistent watches
// (UNIMPLEMENTED) gets the one-shot scheme and the same events; a missing node; a subtree; argument checks.
import { describe, expect, it } from 'vitest';

import { ChildrenCache, NodeCache, RecipeArgumentError, TreeCache, type CacheEvent } from '../../../src/index.js';
import { FakeTree } from '../../support/fake-tree.js';

const text = (b: Uint8Array | undefined): string => (b === undefined ? '' : new TextDecoder().decode(b));
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
const brief = (events: CacheEvent<Uint8Array>[]): string[] =>
  events.map((e) => ('path' in e ? `${e.type} ${e.path} ${text(e.old?.data) || '-'}→${text(e.node?.data) || '-'}` : e.type));

function record(cache: { on(l: (e: CacheEvent<Uint8Array>) => void): () => void }): CacheEvent<Uint8Array>[] {
  const events: CacheEvent<Uint8Array>[] = [];
  cache.on((e) => void events.push(e));
  return events;
}

describe.each([true, false])('TreeCache on a fake server (persistent watches: %s)', (persistent) => {
  it('loads, then follows creates, sets and deletes with old and new data', async () => {
    const zk = new FakeTree();
    zk.persistentSupported = persistent;
    zk.create('/r', 'root');
    zk.create('/r/a', 'a0');
    zk.create('/r/a/x', 'x0');
    const cache = new TreeCache(zk, '/r');
    const events = record(cache);
    await cache.start();
    await tick();
    expect(brief(events)).toEqual(['added /r -→root', 'added /r/a -→a0', 'added /r/a/x -→x0', 'initialized']);
    events.length = 0;
    zk.set('/r/a', 'a1');
    zk.create('/r/b', 'b0');
    zk.remove('/r/a/x');
    await tick();
    expect(brief(events)).toEqual(['changed /r/a a0→a1', 'added /r/b -→b0', 'removed /r/a/x x0→-']);
    expect(cache.size).toBe(3);
    expect(zk.reads.some((r) => r.endsWith('+watch'))).toBe(!persistent);
    expect(zk.reads.filter((r) => r.startsWith('addWatch'))).toEqual(['addWatch /r']);
    await cache.close();
  });

  it('NodeCache: a missing node is null at once; its creation is an added event', async () => {
    const zk = new FakeTree();
    zk.persistentSupported = persistent;
    const cache = new NodeCache(zk, '/later');
    const events = record(cache);
    await cache.start();
    expect(cache.current).toBeNull();
    zk.create('/later', 'here');
    await tick();
    expect(brief(events)).toEqual(['initialized', 'added /later -→here']);
    zk.remove('/later');
    zk.create('/later', 'again');
    await tick();
    expect(text(cache.current?.data)).toBe('again');
    await cache.close();
  });

  it('ChildrenCache: children only, new ones as they come', async () => {
    const zk = new FakeTree();
    zk.persistentSupported = persistent;
    zk.create('/p', 'parent');
    zk.create('/p/one', '1');
    const cache = new ChildrenCache(zk, '/p');
    const events = record(cache);
    await cache.start();
    zk.create('/p/two', '2');
    zk.set('/p', 'parent data is not a child');
    await tick();
    expect(brief(events)).toEqual(['added /p/one -→1', 'initialized', 'added /p/two -→2']);
    expect(cache.children()).toEqual(['one', 'two']);
    expect(text(cache.parent?.data)).toBe('parent data is not a child');
    await cache.close();
  });
});

describe('cache arguments', () => {
  it('bad paths and bounds are RecipeArgumentErrors', () => {
    const zk = new FakeTree();
    expect(() => new TreeCache(zk, 'relative')).toThrow(RecipeArgumentError);
    expect(() => new TreeCache(zk, '/r', { maxDepth: -1 })).toThrow(RecipeArgumentError);
    expect(() => new TreeCache(zk, '/r', { maxPending: 0 })).toThrow(RecipeArgumentError);
    expect(() => new TreeCache(zk, '/r', { window: 1.5 })).toThrow(RecipeArgumentError);
  });

  it('start() after close() rejects', async () => {
    const cache = new TreeCache(new FakeTree(), '/r');
    await cache.close();
    await expect(cache.start()).rejects.toThrow(/closed/);
  });
});
