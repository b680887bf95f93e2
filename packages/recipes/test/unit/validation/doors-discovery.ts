// Validation table rows: service discovery (ServiceDiscovery, its caches and providers, strategies, the serializer,
// instances and URI specs).
import {
  JsonInstanceSerializer, RandomStrategy, RoundRobinStrategy, ServiceCache, ServiceDiscovery, ServiceProvider, StickyStrategy,
  buildUri, instanceUri, javaPayload, parseUriSpec, serviceInstance,
} from '../../../src/index.js';
import { bad, client, WAIT, type Bad, type Door } from './bad-values.js';

type A = Readonly<Record<string, unknown>>;
const discovery = (): ServiceDiscovery => new ServiceDiscovery(client() as never, '/services');
const instance = (): ReturnType<typeof serviceInstance> => serviceInstance({ name: 'svc', id: 'one' });
const noop = (): void => undefined;
const notNull = (list: readonly Bad[]): Bad[] => list.filter((b) => b.value !== null);
const cacheOptions = { watchMode: bad.oneOf };
const providerOptions = {
  ...cacheOptions,
  strategy: [...bad.object, { label: 'without getInstance', value: {} }],
  filters: [...bad.array, { label: 'a filter that is not a function', value: [5] }],
  downInstancePolicy: [
    ...bad.object, { label: 'a negative timeout', value: { timeoutMs: -1 }, mentions: ['downInstancePolicy.timeoutMs', '-1'] },
    { label: 'a zero threshold', value: { errorThreshold: 0 }, mentions: ['downInstancePolicy.errorThreshold', '0'] },
  ],
  clock: bad.clock,
};

export const discoveryDoors: readonly Door[] = [
  { door: 'ServiceDiscovery', style: 'sync', args: { client: bad.client, basePath: bad.path }, optionsType: 'ServiceDiscoveryOptions',
    options: { serializer: [...bad.object, { label: 'without deserialize', value: { serialize: noop } }], onError: bad.function, clock: bad.clock, acl: bad.acl },
    call: ({ client: k = client(), basePath = '/services' }: A, o) => new ServiceDiscovery(k as never, basePath as never, o as never) },
  { door: 'ServiceDiscovery.registerService', style: 'async', args: { instance: [...bad.object, { label: 'a bad port', value: { ...instance(), port: 1.5 }, mentions: ['port', '1.5'] }] },
    options: WAIT, call: ({ instance: i = instance() }: A, o) => discovery().registerService(i as never, o as never) },
  { door: 'ServiceDiscovery.updateService', style: 'async', args: { instance: bad.object }, call: ({ instance: i }: A) => discovery().updateService(i as never) },
  { door: 'ServiceDiscovery.unregisterService', style: 'async', args: { instance: [...bad.object, { label: 'a numeric id', value: { id: 5 }, mentions: ['instance.id', '5'] }] },
    call: ({ instance: i }: A) => discovery().unregisterService(i as never) },
  { door: 'ServiceDiscovery.queryForInstances', style: 'async', args: { name: bad.nodeName }, call: ({ name }: A) => discovery().queryForInstances(name as never) },
  { door: 'ServiceDiscovery.queryForInstance', style: 'async', args: { name: bad.nodeName, id: bad.nodeName },
    call: ({ name = 'svc', id = 'one' }: A) => discovery().queryForInstance(name as never, id as never) },
  { door: 'ServiceDiscovery.pathForName', style: 'sync', args: { name: bad.nodeName }, call: ({ name }: A) => discovery().pathForName(name as never) },
  { door: 'ServiceDiscovery.pathForInstance', style: 'sync', args: { name: bad.nodeName, id: bad.nodeName },
    call: ({ name = 'svc', id = 'one' }: A) => discovery().pathForInstance(name as never, id as never) },
  { door: 'ServiceDiscovery.registeredPath', style: 'sync', args: { id: bad.string }, call: ({ id }: A) => discovery().registeredPath(id as never) },
  { door: 'ServiceDiscovery.serviceCache', style: 'sync', args: { name: bad.nodeName }, options: cacheOptions,
    call: ({ name = 'svc' }: A, o) => discovery().serviceCache(name as never, o as never) },
  { door: 'ServiceDiscovery.serviceProvider', style: 'sync', args: { name: bad.nodeName }, options: providerOptions,
    call: ({ name = 'svc' }: A, o) => discovery().serviceProvider(name as never, o as never) },
  { door: 'ServiceCache', style: 'sync', args: { discovery: [...bad.object, { label: 'not a discovery', value: {} }], name: bad.nodeName },
    options: cacheOptions, optionsType: 'ServiceCacheOptions',
    call: ({ discovery: d = discovery(), name = 'svc' }: A, o) => new ServiceCache(d as never, name as never, o as never) },
  { door: 'ServiceCache.start', style: 'async', options: WAIT, call: (_, o) => new ServiceCache(discovery(), 'svc').start(o as never) },
  { door: 'ServiceCache.onChange', style: 'sync', args: { listener: bad.function }, call: ({ listener }: A) => new ServiceCache(discovery(), 'svc').onChange(listener as never) },
  { door: 'ServiceCache.changes', style: 'sync', options: { signal: bad.signal }, call: (_, o) => new ServiceCache(discovery(), 'svc').changes(o as never) },
  { door: 'ServiceProvider', style: 'sync', args: { discovery: [...bad.object, { label: 'not a discovery', value: {} }], name: bad.nodeName },
    options: providerOptions, optionsType: 'ServiceProviderOptions',
    call: ({ discovery: d = discovery(), name = 'svc' }: A, o) => new ServiceProvider(d as never, name as never, o as never) },
  { door: 'ServiceProvider.start', style: 'async', options: WAIT, call: (_, o) => new ServiceProvider(discovery(), 'svc').start(o as never) },
  { door: 'ServiceProvider.noteError', style: 'sync', args: { instance: bad.object }, call: ({ instance: i }: A) => new ServiceProvider(discovery(), 'svc').noteError(i as never) },
  { door: 'RandomStrategy', style: 'sync', options: { random: bad.function }, optionsType: 'RandomStrategyOptions', call: (_, o) => new RandomStrategy(o as never) },
  ...([['RandomStrategy', () => new RandomStrategy()], ['RoundRobinStrategy', () => new RoundRobinStrategy()], ['StickyStrategy', () => new StickyStrategy(new RoundRobinStrategy())]] as const)
    .map(([name, make]): Door => ({
      door: `${name}.getInstance`, style: 'sync', args: { instances: [...bad.array, { label: 'a null instance', value: [null] }] },
      call: ({ instances }: A) => make().getInstance(instances as never),
    })),
  { door: 'StickyStrategy', style: 'sync', args: { master: [...bad.object, { label: 'without getInstance', value: {} }] }, call: ({ master }: A) => new StickyStrategy(master as never) },
  { door: 'JsonInstanceSerializer', style: 'sync', optionsType: 'JsonInstanceSerializerOptions',
    options: { payload: [...bad.object, { label: 'without fromJson', value: { toJson: noop } }], serialization: bad.oneOf, maxBytes: bad.int(1, 2 ** 31 - 1) },
    call: (_, o) => new JsonInstanceSerializer(o as never) },
  { door: 'JsonInstanceSerializer.serialize', style: 'sync', args: { instance: bad.object }, call: ({ instance: i }: A) => new JsonInstanceSerializer().serialize(i as never) },
  { door: 'JsonInstanceSerializer.deserialize', style: 'sync', args: { bytes: bad.bytes, path: notNull(bad.string) },
    call: ({ bytes = new Uint8Array(), path = '/s/a' }: A) => new JsonInstanceSerializer().deserialize(bytes as never, path as never) },
  { door: 'serviceInstance', style: 'sync', args: { init: bad.object }, optionsType: 'ServiceInstanceInit', optionsName: 'init', base: { name: 'svc' },
    options: {
      name: bad.nodeName, id: bad.nodeName, address: notNull(bad.string), port: notNull(bad.int32), sslPort: notNull(bad.int32),
      payload: [], // anything the payload codec takes: checked when serialized
      registrationTimeUTC: bad.int(Number.MIN_SAFE_INTEGER), serviceType: bad.oneOf, enabled: bad.boolean,
      uriSpec: [{ label: 'a number', value: 5 }, { label: 'an object without parts', value: {} }, { label: 'an open variable', value: '{open', mentions: ['uri spec', '{open'] }],
    },
    call: (a: A, o) => serviceInstance(('init' in a ? a['init'] : o) as never) },
  { door: 'instanceUri', style: 'sync', args: { instance: bad.object, variables: bad.object },
    call: ({ instance: i = instance(), variables = {} }: A) => instanceUri(i as never, variables as never) },
  { door: 'parseUriSpec', style: 'sync', args: { template: bad.string }, call: ({ template }: A) => parseUriSpec(template as never) },
  { door: 'buildUri', style: 'sync', args: { spec: [...bad.object, { label: 'bad parts', value: { parts: [{}] } }], instance: bad.object, variables: bad.object },
    call: ({ spec = parseUriSpec('{scheme}://x'), instance: i = instance(), variables = {} }: A) => buildUri(spec as never, i as never, variables as never) },
  { door: 'javaPayload', style: 'sync', args: { className: bad.nonEmptyString }, call: ({ className }: A) => javaPayload(className as never) },
];
