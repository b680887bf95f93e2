// Recipes through a namespace view (client.namespace) sharing its session with the root client: the lock is
// the same lock seen from both, the cache reports the view's paths, and the server holds the full paths.
import { afterEach, describe, expect, it } from 'vitest';
import { Mutex, TreeCache, type CacheEvent } from '../../../src/index.js';
import { Clients, childrenOf, text, uniqueRoot, until } from '../../support/helpers.js';

const clients = new Clients();
afterEach(() => clients.closeAll());

describe('recipes through a namespace view', () => {
  it('a mutex through the view and one through the root client on the same node exclude each other', async () => {
    const ns = `${uniqueRoot()}/app`;
    const [zk] = await clients.many(1);
    const view = zk!.namespace(ns);
    const viaView = new Mutex(view, '/lock');
    const viaRoot = new Mutex(zk!, `${ns}/lock`);

    const held = await viaView.acquire();
    expect(await childrenOf(zk!, `${ns}/lock`)).toHaveLength(1); // the server holds the full path
    const [holder] = await viaView.participants();
    expect(holder!.node.startsWith('/lock/')).toBe(true);
    await expect(viaRoot.acquire({ timeout: 300 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const waiting = viaRoot.acquire({ timeout: 10_000 });
    await until(async () => (await childrenOf(zk!, `${ns}/lock`)).length === 2, 10_000, 'the root waiter to queue');
    await held.release();
    const second = await waiting;
    await expect(viaView.acquire({ timeout: 300 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    await second.release();
    expect(await childrenOf(zk!, `${ns}/lock`)).toEqual([]);
  });

  it("a cache through the view reports the view's paths for changes made through the root client", async () => {
    const ns = `${uniqueRoot()}/app`;
    const [zk, writer] = await clients.many(2);
    const view = zk!.namespace(ns);
    await view.create('/conf', 'a');
    const cache = new TreeCache(view, '/conf');
    const seen: CacheEvent<Uint8Array>[] = [];
    cache.on((e) => void seen.push(e));
    await cache.start();
    expect(text(cache.get('/conf')!.data)).toBe('a');

    await writer!.create(`${ns}/conf/child`, 'c');
    await writer!.setData(`${ns}/conf`, 'b');
    await until(() => seen.some((e) => e.type === 'changed' && e.path === '/conf'), 10_000, 'the change');
    await until(() => seen.some((e) => e.type === 'added' && e.path === '/conf/child'), 10_000, 'the added child');
    expect(text(cache.get('/conf/child')!.data)).toBe('c');
    await cache.close();
    expect(zk!.state).toBe('connected');
  });
});
