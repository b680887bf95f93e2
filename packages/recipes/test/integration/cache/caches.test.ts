// TreeCache, NodeCache and ChildrenCache against the real server, with a persistent watch ('auto' on 3.8) and with
// the one-shot scheme servers before 3.6 need ('one-shot'): the initial load, every kind of change with its old
// and new state, zxid order, depth and path limits, data modes, a node that does not exist yet, and close().
import { isDeepStrictEqual } from 'node:util';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { ZkClient } from '@zkts/protocol';
import { CacheDecodeError, ChildrenCache, NodeCache, TreeCache, type CacheEvent } from '@zkts/recipes';

import { fullRead, replay, viewOf } from '../../support/cache.js';
import { Clients, sleep, until, uniqueRoot } from '../../support/helpers.js';

const clients = new Clients();
let writer: ZkClient;
let reader: ZkClient;
beforeAll(async () => {
  writer = await clients.connect();
  reader = await clients.connect();
});
afterAll(() => clients.closeAll());

const text = (b: Uint8Array | undefined): string => (b === undefined ? '' : Buffer.from(b).toString('utf8'));
const kinds = (events: CacheEvent<unknown>[]): string[] => events.map((e) => ('path' in e ? `${e.type} ${e.path}` : e.type));

/** Collects a cache's events (through a listener) for the test to look at. */
function record<T>(cache: { on(l: (e: CacheEvent<T>) => void): () => void }): CacheEvent<T>[] {
  const events: CacheEvent<T>[] = [];
  cache.on((e) => void events.push(e));
  return events;
}

describe.each(['auto', 'one-shot'] as const)('caches (watchMode %s)', (watchMode) => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const c of open.splice(0)) await c.close();
  });

  it('loads a subtree (added events in zxid order, then initialized), then follows creates, sets and deletes', async () => {
    const root = uniqueRoot('cache');
    await writer.create(root, 'r');
    await writer.create(`${root}/a`, 'a0');
    await writer.create(`${root}/a/x`, 'x0');
    await writer.create(`${root}/b`, 'b0');
    await writer.setData(root, 'r1');
    const cache = new TreeCache(reader, root, { watchMode });
    open.push(cache);
    const events = record(cache);
    await cache.start();
    await until(() => events.some((e) => e.type === 'initialized'), 5000, 'initialized');
    // The root was changed last: zxid order puts it after its children.
    expect(kinds(events)).toEqual([`added ${root}/a`, `added ${root}/a/x`, `added ${root}/b`, `added ${root}`, 'initialized']);
    expect(events.at(-1)).toEqual({ type: 'initialized', size: 4 });
    expect(text(cache.get(`${root}/a/x`)?.data)).toBe('x0');
    expect(cache.children(root).sort()).toEqual(['a', 'b']);

    events.length = 0;
    await writer.create(`${root}/b/y`, 'y0');
    await writer.setData(`${root}/a`, 'a1');
    await writer.delete(`${root}/a/x`);
    await until(() => events.length >= 3, 5000, 'three events');
    expect(kinds(events)).toEqual([`added ${root}/b/y`, `changed ${root}/a`, `removed ${root}/a/x`]);
    const changed = events[1] as Extract<CacheEvent<Uint8Array>, { type: 'changed' }>;
    expect([text(changed.old.data), text(changed.node.data), changed.node.stat.version]).toEqual(['a0', 'a1', 1]);
    const removed = events[2] as Extract<CacheEvent<Uint8Array>, { type: 'removed' }>;
    expect(text(removed.old.data)).toBe('x0');
    const zxids = events.map((e) => ('zxid' in e ? e.zxid : 0n));
    expect([...zxids].sort((a, b) => (a < b ? -1 : 1))).toEqual(zxids);
    expect(viewOf(cache)).toEqual(await fullRead(writer, root));
    expect(cache.stats.outOfOrder).toBe(0);
  });

  it('a subtree removed at once: removals deepest first; the root re-created is added again', async () => {
    const root = uniqueRoot('cache');
    await writer.create(root);
    await writer.create(`${root}/a`);
    await writer.create(`${root}/a/b`);
    const cache = new TreeCache(reader, root, { watchMode });
    open.push(cache);
    await cache.start();
    const events = record(cache);
    await writer.removeRecursive(root);
    await until(() => cache.size === 0 && events.length >= 3, 5000, 'the removals');
    expect(kinds(events)).toEqual([`removed ${root}/a/b`, `removed ${root}/a`, `removed ${root}`]);
    await writer.create(root, 'again');
    // Its event may trail the view (held until earlier reads are done): wait for both.
    await until(() => cache.get(root) !== undefined && events.length >= 4, 5000, 'the root back');
    expect(kinds(events).slice(3)).toEqual([`added ${root}`]);
    expect(text(cache.get(root)?.data)).toBe('again');
  });

  it('maxDepth and filter limit what is cached', async () => {
    const root = uniqueRoot('cache');
    await writer.create(root);
    await writer.create(`${root}/keep`, 'k');
    await writer.create(`${root}/keep/deep`, 'd');
    await writer.create(`${root}/skip`, 's');
    await writer.create(`${root}/skip/under`, 'u');
    const shallow = new TreeCache(reader, root, { watchMode, maxDepth: 1 });
    const filtered = new TreeCache(reader, root, { watchMode, filter: (p) => !p.endsWith('/skip') });
    open.push(shallow, filtered);
    await Promise.all([shallow.start(), filtered.start()]);
    expect([...viewOf(shallow).keys()].sort()).toEqual([root, `${root}/keep`, `${root}/skip`]);
    expect([...viewOf(filtered).keys()].sort()).toEqual([root, `${root}/keep`, `${root}/keep/deep`]);
    await writer.create(`${root}/keep/deep2`, 'd2');
    await writer.create(`${root}/skip/under2`);
    await writer.create(`${root}/new`);
    // With one-shot watches, /new (a child watch on the root) may be heard before deep2 (one on /keep): wait for
    // both, then compare whole views.
    const keys = (c: TreeCache): string[] => [...viewOf(c).keys()].sort();
    const wantFiltered = [root, `${root}/keep`, `${root}/keep/deep`, `${root}/keep/deep2`, `${root}/new`];
    const wantShallow = [root, `${root}/keep`, `${root}/new`, `${root}/skip`];
    await until(() => keys(filtered).length === wantFiltered.length && keys(shallow).length === wantShallow.length, 5000, 'the new nodes');
    expect(keys(filtered)).toEqual(wantFiltered);
    expect(keys(shallow)).toEqual(wantShallow);
    expect(text(filtered.get(`${root}/keep/deep2`)?.data)).toBe('d2');
  });

  it("data modes: Stats only, and a decoder whose failure is reported and leaves data undefined", async () => {
    const root = uniqueRoot('cache');
    await writer.create(root);
    await writer.create(`${root}/good`, '{"n":1}');
    await writer.create(`${root}/bad`, 'not json');
    const statOnly = new TreeCache<undefined>(reader, root, { watchMode, data: 'stat' });
    const errors: Error[] = [];
    const decoded = new TreeCache<{ n: number } | undefined>(reader, root, {
      watchMode,
      data: (bytes) => (bytes.length === 0 ? undefined : (JSON.parse(text(bytes)) as { n: number })),
      onError: (e) => errors.push(e),
    });
    open.push(statOnly, decoded);
    await Promise.all([statOnly.start(), decoded.start()]);
    expect(statOnly.get(`${root}/good`)?.data).toBeUndefined();
    expect(statOnly.get(`${root}/good`)?.stat.dataLength).toBe(7);
    expect(decoded.get(`${root}/good`)?.data).toEqual({ n: 1 });
    expect(decoded.get(`${root}/bad`)?.data).toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(CacheDecodeError);
    expect(errors[0]).toMatchObject({ code: 'CACHE_DECODE', path: `${root}/bad` });
    await writer.setData(`${root}/good`, '{"n":2}');
    await until(() => decoded.get(`${root}/good`)?.data?.n === 2 && statOnly.get(`${root}/good`)?.stat.version === 1, 5000, 'the change');
  });

  it('NodeCache on a missing node reports it absent at once, then its creation, change and deletion', async () => {
    const path = `${uniqueRoot('cache')}-node`;
    const cache = new NodeCache(reader, path, { watchMode });
    open.push(cache);
    const events = record(cache);
    // start() resolves though the node does not exist yet (it is created below, after start() returned): no
    // stopwatch needed to show that it did not wait for the node.
    await cache.start();
    expect(cache.current).toBeNull();
    await until(() => events.length === 1, 2000, 'initialized');
    expect(events).toEqual([{ type: 'initialized', size: 0 }]);
    await writer.create(path, 'one');
    await until(() => cache.current !== null, 5000, 'the creation');
    await writer.setData(path, 'two');
    await until(() => text(cache.current?.data) === 'two', 5000, 'the change');
    await writer.delete(path);
    await until(() => cache.current === null && events.length === 4, 5000, 'the deletion');
    expect(kinds(events)).toEqual(['initialized', `added ${path}`, `changed ${path}`, `removed ${path}`]);
  });

  it('ChildrenCache reports children only; the parent may come and go', async () => {
    const root = uniqueRoot('cache');
    const cache = new ChildrenCache(reader, root, { watchMode });
    open.push(cache);
    const events = record(cache);
    await cache.start();
    expect(cache.parent).toBeNull();
    await writer.create(root, 'p');
    await writer.create(`${root}/c1`, '1');
    await writer.create(`${root}/c2`, '2');
    await writer.create(`${root}/c2/grandchild`);
    await until(() => cache.size === 2, 5000, 'two children');
    expect(cache.children()).toEqual(['c1', 'c2']);
    expect(text(cache.parent?.data)).toBe('p');
    await writer.removeRecursive(root);
    // The view changes as each read lands; an event may wait for earlier reads (zxid order): wait for both.
    await until(() => cache.size === 0 && cache.parent === null && events.length >= 5, 5000, 'all gone');
    expect(kinds(events)).toEqual(['initialized', `added ${root}/c1`, `added ${root}/c2`, `removed ${root}/c1`, `removed ${root}/c2`]);
  });

  it('close() ends iterators after what they hold; await using closes too', async () => {
    const root = uniqueRoot('cache');
    await writer.create(root);
    const seen: string[] = [];
    {
      await using cache = new TreeCache(reader, root, { watchMode });
      const iterator = cache.events();
      const loop = (async () => {
        for await (const e of iterator) seen.push(e.type);
      })();
      await cache.start();
      // Closed once the child's event has left the cache (the view shows a node as soon as its read lands, and
      // its event may still wait for the reads ahead of it): the iterator then holds it and must yield it.
      let released = false;
      const off = cache.on((e) => {
        if (e.type === 'added' && e.path === `${root}/a`) released = true;
      });
      await writer.create(`${root}/a`);
      await until(() => released, 5000, "the child's event");
      off();
      await cache.close();
      await loop;
    }
    expect(seen).toEqual(['added', 'initialized', 'added']);
    await expect(new TreeCache(reader, root).close()).resolves.toBeUndefined();
  });

  it('the event stream replayed on an empty map yields the view, with a slow iterator whose buffer merges', async () => {
    const root = uniqueRoot('cache');
    await writer.create(root);
    const cache = new TreeCache(reader, root, { watchMode, maxPending: 5 });
    open.push(cache);
    const fast: CacheEvent<Uint8Array>[] = [];
    cache.on((e) => void fast.push(e));
    const slow: CacheEvent<Uint8Array>[] = [];
    const iterator = cache.events();
    await cache.start();
    for (let i = 0; i < 30; i++) await writer.create(`${root}/n${i % 10}-${i}`, `v${i}`);
    for (let i = 0; i < 30; i += 3) await writer.delete(`${root}/n${i % 10}-${i}`);
    for (let i = 1; i < 30; i += 3) await writer.setData(`${root}/n${i % 10}-${i}`, 'set');
    const expected = await fullRead(writer, root);
    // Caught up: the view, and the events released so far, both give the tree as it is. (A count of events is no
    // such sign: a cache that reads a node after two changes to it reports one.)
    await until(() => isDeepStrictEqual(viewOf(cache), expected) && isDeepStrictEqual(replay(fast).map, expected), 10_000, 'the cache to catch up');
    await sleep(50);
    // The iterator only starts reading now: far behind, its buffer merged.
    for (;;) {
      const next = await Promise.race([iterator.next(), sleep(300).then(() => null)]);
      if (next === null || next.done === true) break;
      slow.push(next.value);
    }
    expect(viewOf(cache)).toEqual(expected);
    for (const stream of [fast, slow]) {
      const { map, mismatches } = replay(stream);
      expect(mismatches).toEqual([]);
      expect(map).toEqual(expected);
    }
    expect(slow.length).toBeLessThan(fast.length);
    expect(cache.stats.merged).toBeGreaterThan(0);
  });
});
