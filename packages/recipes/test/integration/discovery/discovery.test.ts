// Service discovery against the real server: register / query / update / unregister for every service type, a
// DYNAMIC instance kept through a connection cut (also when deleted meanwhile) and through an expiry and the
// client's renewal, the ServiceCache following registrations, and the ServiceProvider's filters and down list.
import { describe, expect, it } from 'vitest';

import {
  InstanceFormatError, JsonInstanceSerializer, RoundRobinStrategy, ServiceDiscovery, serviceInstance,
  ServiceNotRegisteredError, type ServiceInstance,
} from '@zkts/recipes';

import { expireSession, victimClient } from '../../support/expiry.js';
import { childrenOf, text, until, uniqueRoot } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients, proxies } = perTestResources();

describe('ServiceDiscovery', () => {
  it('registers, queries, updates and unregisters every service type in Curator layout', async () => {
    const base = `${uniqueRoot()}/services`;
    const zk = await clients.connect();
    const other = await clients.connect();
    const errors: Error[] = [];
    const discovery = new ServiceDiscovery(zk, base, { onError: (e) => errors.push(e) });
    const reader = new ServiceDiscovery(other, base);
    expect(await reader.queryForNames()).toEqual([]);

    const dynamic = serviceInstance({ name: 'api', id: 'dyn', address: '10.0.0.1', port: 8080, payload: { zone: 'a' } });
    const fixed = serviceInstance({ name: 'api', id: 'static', address: '10.0.0.2', port: 8081, serviceType: 'STATIC' });
    const sequential = serviceInstance({ name: 'worker', id: 'w', serviceType: 'DYNAMIC_SEQUENTIAL', uriSpec: '{scheme}://{address}' });
    expect(await discovery.registerService(dynamic)).toBe(`${base}/api/dyn`);
    expect(await discovery.registerService(fixed)).toBe(`${base}/api/static`);
    const seqPath = await discovery.registerService(sequential);
    expect(seqPath).toMatch(new RegExp(`^${base}/worker/_c_[0-9a-f-]{36}-w\\d{10}$`));
    expect(discovery.registeredPath('w')).toBe(seqPath);

    expect((await other.exists(`${base}/api/dyn`))!.ephemeralOwner).toBe(zk.sessionId);
    expect((await other.exists(`${base}/api/static`))!.ephemeralOwner).toBe(0n);
    expect((await other.exists(seqPath))!.ephemeralOwner).toBe(zk.sessionId);
    expect(JSON.parse(text((await other.getData(`${base}/api/dyn`)).data))).toEqual({
      name: 'api', id: 'dyn', address: '10.0.0.1', port: 8080, sslPort: null, payload: { zone: 'a' },
      registrationTimeUTC: dynamic.registrationTimeUTC, serviceType: 'DYNAMIC', uriSpec: null,
    });

    expect(await reader.queryForNames()).toEqual(['api', 'worker']);
    expect(await reader.queryForInstances('api')).toEqual([dynamic, fixed]);
    expect(await reader.queryForInstance('api', 'static')).toEqual(fixed);
    expect(await reader.queryForInstance('worker', 'w')).toEqual(sequential);
    expect(await reader.queryForInstance('api', 'nobody')).toBeNull();
    expect(await reader.queryForInstances('none')).toEqual([]);

    // A node that is not an instance is left out of the list and reported; asked for by id, it rejects.
    await other.create(`${base}/api/junk`, 'not json');
    const readerErrors: Error[] = [];
    const strict = new ServiceDiscovery(other, base, { onError: (e) => readerErrors.push(e) });
    expect(await strict.queryForInstances('api')).toEqual([dynamic, fixed]);
    expect(readerErrors).toHaveLength(1);
    expect(readerErrors[0]).toBeInstanceOf(InstanceFormatError);
    await expect(strict.queryForInstance('api', 'junk')).rejects.toBeInstanceOf(InstanceFormatError);
    await other.delete(`${base}/api/junk`);

    const moved = { ...dynamic, port: 9090, payload: { zone: 'b' } };
    await discovery.updateService(moved);
    expect(await reader.queryForInstance('api', 'dyn')).toEqual(moved);
    await expect(discovery.updateService(serviceInstance({ name: 'api', id: 'ghost' }))).rejects.toBeInstanceOf(ServiceNotRegisteredError);
    await expect(discovery.updateService({ ...moved, serviceType: 'STATIC' })).rejects.toThrow(/register it again/);

    // Registering an id again updates it in place.
    const again = { ...moved, port: 9191 };
    expect(await discovery.registerService(again)).toBe(`${base}/api/dyn`);
    expect(await reader.queryForInstance('api', 'dyn')).toEqual(again);

    await discovery.unregisterService(fixed);
    expect(await other.exists(`${base}/api/static`)).toBeNull();
    expect(discovery.registered().map((i) => i.id).sort()).toEqual(['dyn', 'w']);
    await discovery.close();
    expect(await childrenOf(other, `${base}/api`)).toEqual([]);
    expect(await childrenOf(other, `${base}/worker`)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("replaces another session's node at the instance's path, as Curator deletes before it creates", async () => {
    const base = uniqueRoot();
    const zk = await clients.connect();
    // What a crashed earlier run leaves behind until its session times out: its ephemeral instance node.
    const stale = await clients.connect();
    const staleData = new JsonInstanceSerializer().serialize(serviceInstance({ name: 'api', id: 'x', port: 1 }));
    await stale.mkdirp(`${base}/api`);
    await stale.create(`${base}/api/x`, staleData, { mode: 'ephemeral' });
    const oldOwner = (await zk.exists(`${base}/api/x`))!.ephemeralOwner;
    expect(oldOwner).toBe(stale.sessionId);

    await using discovery = new ServiceDiscovery(zk, base);
    const mine = serviceInstance({ name: 'api', id: 'x', port: 2 });
    await discovery.registerService(mine, { timeout: 5000 });
    expect((await zk.exists(`${base}/api/x`))!.ephemeralOwner).toBe(zk.sessionId);
    expect(await discovery.queryForInstance('api', 'x')).toEqual(mine);
  });

  it('keeps a DYNAMIC instance through a connection cut (made again if deleted meanwhile) and through an expiry and renewal', async () => {
    const base = uniqueRoot();
    const victim = await victimClient(clients, proxies);
    const other = await clients.connect();
    await using discovery = new ServiceDiscovery(victim.client, base);
    const instance = serviceInstance({ name: 'api', id: 'me', address: 'host', port: 80 });
    const path = await discovery.registerService(instance);
    const first = (await other.exists(path))!;

    // Cut: the session lives on; someone deletes the node while we cannot hear it.
    victim.proxy.blackhole();
    victim.proxy.cut();
    await until(() => victim.client.state === 'suspended', 5000, 'suspended');
    await other.delete(path);
    victim.proxy.restore();
    await victim.client.connected({ timeout: 10_000 });
    await until(async () => (await other.exists(path)) !== null, 5000, 'registered again after the reconnect');
    const second = (await other.exists(path))!;
    expect(second.ephemeralOwner).toBe(first.ephemeralOwner);
    expect(second.czxid > first.czxid).toBe(true);

    await expireSession(victim, { renewed: true });
    await until(async () => (await other.exists(path))?.ephemeralOwner === victim.client.sessionId, 5000, 'registered in the new session');
    expect(await new ServiceDiscovery(other, base).queryForInstance('api', 'me')).toEqual(instance);

    await discovery.close();
    expect(await other.exists(path)).toBeNull();
  });
});

describe('ServiceCache and ServiceProvider', () => {
  it('the cache follows registrations, updates and unregistrations; the provider filters, skips disabled and down instances', async () => {
    const base = uniqueRoot();
    const zk = await clients.connect();
    const other = await clients.connect();
    const serializer = new JsonInstanceSerializer({ serialization: 'full' });
    await using registrar = new ServiceDiscovery(zk, base, { serializer });
    const errors: Error[] = [];
    await using discovery = new ServiceDiscovery(other, base, { serializer, onError: (e) => errors.push(e) });
    const a = serviceInstance({ name: 'api', id: 'a', port: 1 });
    await registrar.registerService(a);

    const cache = await discovery.serviceCache('api').start({ timeout: 5000 });
    expect(cache.instances()).toEqual([a]);
    const seen: string[][] = [];
    cache.onChange((list) => seen.push(list.map((i) => `${i.id}:${i.port}`)));

    const b = serviceInstance({ name: 'api', id: 'b', port: 2 });
    await registrar.registerService(b);
    await until(() => cache.instances().length === 2, 5000, 'b in the cache');
    await registrar.updateService({ ...a, port: 10 });
    await until(() => cache.instances()[0]?.port === 10, 5000, 'a updated in the cache');
    await registrar.unregisterService(b);
    await until(() => cache.instances().length === 1, 5000, 'b gone from the cache');
    expect(seen).toEqual([['a:1', 'b:2'], ['a:10', 'b:2'], ['a:10']]);

    const c = serviceInstance({ name: 'api', id: 'c', port: 3 });
    const off = serviceInstance({ name: 'api', id: 'off', port: 4, enabled: false });
    const filtered = serviceInstance({ name: 'api', id: 'filtered', port: 5 });
    await Promise.all([c, off, filtered].map((i) => registrar.registerService(i)));
    const provider = await discovery
      .serviceProvider('api', { strategy: new RoundRobinStrategy(), filters: [(i) => i.id !== 'filtered'], downInstancePolicy: { errorThreshold: 2 } })
      .start({ timeout: 5000 });
    await until(() => provider.cache.instances().length === 4, 5000, 'all four in the provider');
    const ids = (): (string | undefined)[] => [1, 2, 3, 4].map(() => provider.getInstance()?.id);
    expect(provider.getAllInstances().map((i) => i.id)).toEqual(['a', 'c']);
    expect(ids()).toEqual(['a', 'c', 'a', 'c']);
    provider.noteError(provider.getAllInstances()[1]!);
    expect(provider.getAllInstances().map((i) => i.id)).toEqual(['a', 'c']); // one error: below the threshold
    provider.noteError(c);
    expect(ids()).toEqual(['a', 'a', 'a', 'a']);

    // A node that is no instance: reported once, left out, the rest unchanged.
    await zk.create(`${base}/api/junk`, '{"name":"api","id":"junk","port":"eighty"}');
    // Both caches report it (a resync after an unplanned reconnect would report it again: at least twice).
    await until(() => errors.length >= 2, 5000, 'the bad node reported by both caches');
    expect(errors.every((e) => e instanceof InstanceFormatError && e.path === `${base}/api/junk`)).toBe(true);
    expect(provider.getAllInstances().map((i) => i.id)).toEqual(['a']);
    await zk.delete(`${base}/api/junk`);

    await registrar.unregisterService(a);
    await until(() => provider.getInstance() === null, 5000, 'no instance left');
    await discovery.close(); // closes the cache and the provider made through it
    const list: ServiceInstance[] = [];
    for await (const l of cache.changes()) list.push(...l);
    expect(list).toEqual([]);
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(errors.every((e) => e instanceof InstanceFormatError && e.path === `${base}/api/junk`)).toBe(true);
  });
});
