// Service discovery with Curator in its own JVM (java/CuratorDiscovery.java: Curator 5.4's ServiceDiscovery with
// its default serializer), on the same server and base path: Curator reads every field of instances zkts
// registered (its provider skips the disabled one), and zkts reads an instance Curator registered, with its
// payload, through a query, a ServiceCache and a ServiceProvider, and hears Curator unregister it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  javaPayload, JsonInstanceSerializer, ServiceDiscovery, serviceInstance, StickyStrategy, RandomStrategy,
} from '@zkts/recipes';

import { compileCurator, DISCOVERY_JARS, javaMain, killAll } from '../../support/foreign.js';
import { Clients, sharedServer, until, uniqueRoot } from '../../support/helpers.js';

interface Details {
  description: string;
  weight: number;
}
const DETAILS_CLASS = 'CuratorDiscovery$Details';

let compiled: ReturnType<typeof compileCurator> | undefined;
beforeAll(() => {
  compiled = compileCurator('CuratorDiscovery.java', DISCOVERY_JARS);
});
afterAll(() => compiled?.dispose());

const clients = new Clients();
afterEach(async () => {
  killAll();
  await clients.closeAll();
});

const curatorDiscovery = (...args: string[]) => javaMain(compiled!.classpath, 'CuratorDiscovery', ...args);

describe('service discovery with Curator', () => {
  it('Curator reads every field of instances zkts registered, and its provider and cache see them', async () => {
    const base = `${uniqueRoot()}/services`;
    const zk = await clients.connect();
    const serializer = new JsonInstanceSerializer<Details>({ payload: javaPayload(DETAILS_CLASS), serialization: 'full' });
    await using discovery = new ServiceDiscovery<Details>(zk, base, { serializer });
    const ours = serviceInstance<Details>({
      name: 'api', id: 'ts-1', address: '192.168.7.1', port: 8080, sslPort: 8443,
      payload: { description: 'from-zkts', weight: 3 }, registrationTimeUTC: 1_699_999_999_123,
      uriSpec: '{scheme}://{address}:{port}/{name}/{id}',
    });
    const disabled = serviceInstance<Details>({ name: 'api', id: 'ts-off', port: 1, enabled: false, serviceType: 'STATIC', registrationTimeUTC: 5 });
    const sequential = serviceInstance<Details>({ name: 'api', id: 'ts-seq', serviceType: 'DYNAMIC_SEQUENTIAL', registrationTimeUTC: 7 });
    await discovery.registerService(ours);
    await discovery.registerService(disabled);
    await discovery.registerService(sequential); // a protected sequential name: Curator reads it by listing

    const jvm = curatorDiscovery('query', sharedServer(), base, 'api');
    await jvm.line(/^DONE$/m);
    const seen = [...jvm.output().matchAll(/^INSTANCE (.*)$/gm)]
      .map((m) => JSON.parse(m[1]!) as Record<string, unknown>)
      .sort((x, y) => String(x['id']).localeCompare(String(y['id']))); // Curator lists in the server's child order
    expect(seen).toEqual([
      {
        name: 'api', id: 'ts-1', address: '192.168.7.1', port: 8080, sslPort: 8443, payloadClass: DETAILS_CLASS,
        description: 'from-zkts', weight: 3, registrationTimeUTC: 1_699_999_999_123, serviceType: 'DYNAMIC',
        uri: 'https://192.168.7.1:8080/api/ts-1', enabled: true,
      },
      {
        name: 'api', id: 'ts-off', address: null, port: 1, sslPort: null, payloadClass: null, description: null,
        weight: null, registrationTimeUTC: 5, serviceType: 'STATIC', uri: '', enabled: false,
      },
      {
        name: 'api', id: 'ts-seq', address: null, port: null, sslPort: null, payloadClass: null, description: null,
        weight: null, registrationTimeUTC: 7, serviceType: 'DYNAMIC_SEQUENTIAL', uri: '', enabled: true,
      },
    ]);
    expect(jvm.output()).toMatch(/^PROVIDER ts-1,ts-seq$/m); // Curator's provider skips the disabled instance
    expect(jvm.output()).toMatch(/^CACHE ts-1,ts-off,ts-seq$/m);
    expect(await jvm.exited).toBe(0);
  });

  it('zkts reads an instance Curator registered, with its payload, through a query, a cache and a provider', async () => {
    const base = `${uniqueRoot()}/services`;
    const zk = await clients.connect();
    const typed = new ServiceDiscovery<Details>(zk, base, { serializer: new JsonInstanceSerializer({ payload: javaPayload(DETAILS_CLASS) }) });
    await using plain = new ServiceDiscovery(zk, base);
    const cache = await typed.serviceCache('billing').start({ timeout: 5000 });
    const provider = await typed.serviceProvider('billing', { strategy: new StickyStrategy<Details>(new RandomStrategy({ random: () => 0 })) }).start();

    const jvm = curatorDiscovery('register', sharedServer(), base, 'billing', 'java-1');
    await jvm.line(/^REGISTERED$/m);
    const expected = {
      name: 'billing', id: 'java-1', address: '10.1.2.3', port: 9000, sslPort: 9443,
      payload: { description: 'from-java', weight: 7 }, registrationTimeUTC: 1_700_000_000_000, serviceType: 'DYNAMIC',
      uriSpec: {
        parts: [
          { value: 'scheme', variable: true }, { value: '://', variable: false }, { value: 'address', variable: true },
          { value: ':', variable: false }, { value: 'ssl-port', variable: true }, { value: '/v1', variable: false },
        ],
      },
      enabled: true,
    };
    expect(await typed.queryForInstance('billing', 'java-1')).toEqual(expected);
    expect(await plain.queryForInstances('billing')).toEqual([expected]); // the default codec drops Jackson's @class
    await until(() => cache.instances().length === 1, 5000, 'the cache sees the Curator instance');
    expect(cache.instances()).toEqual([expected]);
    await until(() => provider.getInstance() !== null, 5000, 'the provider sees it');
    expect(provider.getInstance()).toEqual(expected);
    expect(provider.strategy instanceof StickyStrategy && provider.strategy.instanceNumber).toBe(0);

    jvm.proc.stdin!.write('\n');
    await jvm.line(/^CLOSED$/m);
    await until(() => cache.instances().length === 0, 5000, 'Curator unregistered it');
    // The provider follows the service through a cache of its own, which hears the change on its own schedule.
    await until(() => provider.cache.instances().length === 0, 5000, "the provider's cache hears it too");
    expect(provider.getInstance()).toBeNull();
    expect(await typed.queryForInstances('billing')).toEqual([]);
    await typed.close();
  });
});
