// The cache tracing channel against the real server (zkts:cache.resync): a TreeCache's initial load, the resync
// after a reconnect and after a session renewal, each with the size of the view once loaded; the initial loads of
// ChildrenCache and NodeCache; and the re-read after a read that timed out (reason retry).
import { describe, expect, it } from 'vitest';

import { createClient } from '@zkts/protocol';
import { ChildrenCache, NodeCache, RECIPE_CHANNELS, TreeCache, type CacheEvent, type CacheResyncTrace } from '@zkts/recipes';

import { cacheFaultSuite, cutAndReconnect, expireBehindProxy, victimClient } from '../../support/cache.js';
import { at, eventsOf, record, SETTLED } from '../../support/channels.js';
import { until, uniqueRoot } from '../../support/helpers.js';

const suite = cacheFaultSuite();
const { victims, caches, seeded } = suite;

/** root, a, b, c, a/x: five nodes. */

function resyncs(events: CacheEvent<Uint8Array>[]): number {
  return events.filter((e) => e.type === 'resynced').length;
}

describe('cache resync channel', () => {
  it('a TreeCache: the initial load, a reconnect and a renewal, each one trace ending with the size of the view', async () => {
    const root = uniqueRoot('cachetrace');
    await seeded(root);
    const v = await victimClient();
    victims.push(v);
    const loads = record<CacheResyncTrace>(RECIPE_CHANNELS.cacheResync, (t) => t.path === root);
    const cache = new TreeCache(v.client, root);
    caches.push(cache);
    const events: CacheEvent<Uint8Array>[] = [];
    cache.on((e) => void events.push(e));
    await cache.start();
    expect(loads.traces.map(eventsOf)).toEqual([SETTLED]);
    await cutAndReconnect(v, async () => {
      await suite.writer.create(`${root}/d`, 'd0');
    });
    await until(() => resyncs(events) === 1, 10_000, 'resynced after the reconnect');
    await expireBehindProxy(v, async () => {
      await suite.writer.removeRecursive(`${root}/a`);
    });
    await until(() => resyncs(events) === 2, 10_000, 'resynced after the renewal');
    await cache.close();

    const tree = { recipe: 'TreeCache', path: root };
    expect(loads.traces.map(eventsOf)).toEqual([SETTLED, SETTLED, SETTLED]);
    const [initial, reconnect, renewal] = loads.traces;
    expect(at(initial, 'start')).toEqual({ ...tree, reason: 'initial' });
    expect(at(initial, 'asyncEnd')).toEqual({ ...tree, reason: 'initial', size: 5 });
    expect(at(reconnect, 'start')).toEqual({ ...tree, reason: 'reconnect' });
    expect(at(reconnect, 'asyncEnd')).toEqual({ ...tree, reason: 'reconnect', size: 6 });
    expect(at(renewal, 'start')).toEqual({ ...tree, reason: 'renewal' });
    expect(at(renewal, 'asyncEnd')).toEqual({ ...tree, reason: 'renewal', size: 4 });
    // The same reasons and sizes as the cache's own events.
    expect(events.filter((e) => e.type === 'initialized' || e.type === 'resynced')).toEqual([
      { type: 'initialized', size: 5 }, { type: 'resynced', reason: 'reconnect', size: 6 }, { type: 'resynced', reason: 'renewal', size: 4 },
    ]);
  });

  it('a ChildrenCache and a NodeCache: their initial loads, with their own sizes', async () => {
    const root = uniqueRoot('cachetrace');
    await seeded(root);
    const loads = record<CacheResyncTrace>(RECIPE_CHANNELS.cacheResync, (t) => t.path === root);
    const children = await new ChildrenCache(suite.writer, root).start();
    caches.push(children);
    const node = await new NodeCache(suite.writer, root).start();
    caches.push(node);

    expect(loads.traces.map(eventsOf)).toEqual([SETTLED, SETTLED]);
    expect(at(loads.traces[0], 'asyncEnd')).toEqual({ recipe: 'ChildrenCache', path: root, reason: 'initial', size: 3 });
    expect(at(loads.traces[1], 'asyncEnd')).toEqual({ recipe: 'NodeCache', path: root, reason: 'initial', size: 1 });
  });

  it('a read that timed out (connection kept): the re-read is a load with reason retry', async () => {
    const root = uniqueRoot('cachetrace');
    await seeded(root);
    const v = await victimClient();
    await v.client.close();
    const client = createClient(v.proxy.connectString, { sessionTimeout: 10_000, requestTimeout: 300 });
    await client.connect();
    victims.push({ client, proxy: v.proxy });
    const loads = record<CacheResyncTrace>(RECIPE_CHANNELS.cacheResync, (t) => t.path === root);
    const errors: Error[] = [];
    const cache = new TreeCache(client, root, { onError: (e) => errors.push(e) });
    caches.push(cache);
    const events: CacheEvent<Uint8Array>[] = [];
    cache.on((e) => void events.push(e));
    await cache.start();
    // Everything takes 600 ms each way: the read a change leads to outlives its 300 ms; the connection stays.
    v.proxy.delay(600);
    await suite.writer.setData(`${root}/b`, 'slow');
    await until(() => errors.length > 0, 10_000, 'a timed-out read');
    v.proxy.restore();
    await until(() => resyncs(events) === 1, 15_000, 'the re-read');

    expect(loads.traces.map(eventsOf)).toEqual([SETTLED, SETTLED]);
    expect(at(loads.traces[1], 'start')).toEqual({ recipe: 'TreeCache', path: root, reason: 'retry' });
    expect(at(loads.traces[1], 'asyncEnd')).toEqual({ recipe: 'TreeCache', path: root, reason: 'retry', size: 5 });
  });
});
