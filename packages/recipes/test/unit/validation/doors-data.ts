// Validation table rows: queues, caches, groups and inspectRecipe.
import {
  ChildrenCache, DistributedDelayQueue, DistributedIdQueue, DistributedPriorityQueue, DistributedQueue, GroupMember,
  LockingQueue, NodeCache, Party, Queue, SetPartitioner, ShallowParty, TreeCache, inspectRecipe, watchChildren, watchData,
} from '../../../src/index.js';
import { bad, client, WAIT, type Door } from './bad-values.js';

type A = Readonly<Record<string, unknown>>;
const bytes = new Uint8Array([1]);
const noop = (): void => undefined;
const c = (): never => client() as never;
const cacheOptions = {
  data: [{ label: 'an unknown word', value: 'text' }, { label: 'a number', value: 5 }, { label: 'null', value: null }],
  maxPending: bad.bound(1), watchMode: bad.oneOf, window: bad.bound(1), batchReads: bad.boolean, onError: bad.function,
};
const queueOptions = {
  serializer: [...bad.object, { label: 'without serialize', value: {} }], consumer: bad.function, lockPath: bad.path,
  errorMode: bad.oneOf, minItemsBeforeRefresh: bad.int(0), maxItems: bad.int(1), clock: bad.clock, onError: bad.function, acl: bad.acl,
};
const messages = [
  ...bad.object.filter((b) => b.value !== null && typeof b.value !== 'object'), { label: 'null', value: null },
  { label: 'none', value: [], mentions: ['messages', 'non-empty'] },
  { label: 'a message that is not bytes', value: [5], mentions: ['message', '5'] },
];

export const dataDoors: readonly Door[] = [
  // queues
  { door: 'Queue', style: 'sync', args: { client: bad.client, path: bad.path }, options: { acl: bad.acl },
    call: ({ client: k = c(), path = '/q' }: A, o) => new Queue(k as never, path as never, o as never) },
  { door: 'Queue.offer', style: 'async', args: { data: bad.data }, call: ({ data }: A) => new Queue(c(), '/q').offer(data as never) },
  { door: 'Queue.take', style: 'async', options: WAIT, call: (_, o) => new Queue(c(), '/q').take(o as never) },
  { door: 'LockingQueue', style: 'sync', args: { client: bad.client, path: bad.path }, options: { clock: bad.clock, acl: bad.acl }, optionsType: 'LockingQueueOptions',
    call: ({ client: k = c(), path = '/q' }: A, o) => new LockingQueue(k as never, path as never, o as never) },
  { door: 'LockingQueue.put', style: 'async', args: { data: bad.data }, options: { priority: bad.int(0, 999) }, optionsType: 'PutOptions',
    call: ({ data = bytes }: A, o) => new LockingQueue(c(), '/q').put(data as never, o as never) },
  { door: 'LockingQueue.putAll', style: 'async', args: { values: [...bad.array, { label: 'a bad value', value: [5] }] }, options: { priority: bad.int(0, 999) },
    call: ({ values = [bytes] }: A, o) => new LockingQueue(c(), '/q').putAll(values as never, o as never) },
  { door: 'LockingQueue.get', style: 'async', options: WAIT, call: (_, o) => new LockingQueue(c(), '/q').get(o as never) },
  { door: 'DistributedQueue', style: 'sync', args: { client: bad.client, path: bad.path }, options: queueOptions, optionsType: 'CuratorQueueOptions',
    call: ({ client: k = c(), path = '/cq' }: A, o) => new DistributedQueue(k as never, path as never, o as never) },
  { door: 'DistributedQueue.put', style: 'async', args: { message: bad.bytes }, options: WAIT,
    call: ({ message = bytes }: A, o) => new DistributedQueue(c(), '/cq').put(message as never, o as never) },
  { door: 'DistributedQueue.putMulti', style: 'async', args: { messages }, options: WAIT,
    call: ({ messages: m = [bytes] }: A, o) => new DistributedQueue(c(), '/cq').putMulti(m as never, o as never) },
  { door: 'DistributedPriorityQueue.put', style: 'async', args: { priority: bad.int32 }, options: WAIT,
    call: ({ priority = 1 }: A, o) => new DistributedPriorityQueue(c(), '/cq').put(bytes, priority as never, o as never) },
  { door: 'DistributedPriorityQueue.putMulti', style: 'async', args: { messages, priority: bad.int32 },
    call: ({ messages: m = [bytes], priority = 1 }: A) => new DistributedPriorityQueue(c(), '/cq').putMulti(m as never, priority as never) },
  { door: 'DistributedDelayQueue.put', style: 'async', args: { dueEpochMs: bad.int(1) }, options: WAIT,
    call: ({ dueEpochMs = 1 }: A, o) => new DistributedDelayQueue(c(), '/cq').put(bytes, dueEpochMs as never, o as never) },
  { door: 'DistributedDelayQueue.putMulti', style: 'async', args: { messages, dueEpochMs: bad.int(1) },
    call: ({ messages: m = [bytes], dueEpochMs = 1 }: A) => new DistributedDelayQueue(c(), '/cq').putMulti(m as never, dueEpochMs as never) },
  { door: 'DistributedIdQueue.put', style: 'async', args: { id: bad.nonEmptyString }, options: WAIT,
    call: ({ id = 'x' }: A, o) => new DistributedIdQueue(c(), '/cq').put(bytes, id as never, o as never) },
  { door: 'DistributedIdQueue.has', style: 'async', args: { id: bad.nonEmptyString }, call: ({ id }: A) => new DistributedIdQueue(c(), '/cq').has(id as never) },
  { door: 'DistributedIdQueue.remove', style: 'async', args: { id: bad.nonEmptyString }, call: ({ id }: A) => new DistributedIdQueue(c(), '/cq').remove(id as never) },
  // caches
  { door: 'TreeCache', style: 'sync', args: { client: bad.client, path: bad.path }, optionsType: 'TreeCacheOptions',
    options: { ...cacheOptions, maxDepth: bad.bound(0), filter: bad.function },
    call: ({ client: k = c(), path = '/tc' }: A, o) => new TreeCache(k as never, path as never, o as never) },
  { door: 'NodeCache', style: 'sync', args: { client: bad.client, path: bad.path }, options: cacheOptions, optionsType: 'CacheOptions',
    call: ({ client: k = c(), path = '/tc' }: A, o) => new NodeCache(k as never, path as never, o as never) },
  { door: 'ChildrenCache', style: 'sync', args: { client: bad.client, path: bad.path }, options: { ...cacheOptions, filter: bad.function }, optionsType: 'ChildrenCacheOptions',
    call: ({ client: k = c(), path = '/tc' }: A, o) => new ChildrenCache(k as never, path as never, o as never) },
  { door: 'TreeCache.start', style: 'async', options: WAIT, call: (_, o) => new TreeCache(c(), '/tc').start(o as never) },
  { door: 'TreeCache.on', style: 'sync', args: { listener: bad.function }, call: ({ listener }: A) => new TreeCache(c(), '/tc').on(listener as never) },
  { door: 'TreeCache.events', style: 'sync', options: { signal: bad.signal }, call: (_, o) => new TreeCache(c(), '/tc').events(o as never) },
  { door: 'TreeCache.get', style: 'sync', args: { path: bad.string }, call: ({ path }: A) => new TreeCache(c(), '/tc').get(path as never) },
  { door: 'TreeCache.children', style: 'sync', args: { path: bad.string }, call: ({ path }: A) => new TreeCache(c(), '/tc').children(path as never) },
  { door: 'ChildrenCache.get', style: 'sync', args: { path: bad.string }, call: ({ path }: A) => new ChildrenCache(c(), '/tc').get(path as never) },
  { door: 'watchData', style: 'sync', args: { client: bad.client, path: bad.path, fn: bad.function }, options: cacheOptions,
    call: ({ client: k = c(), path = '/w', fn = noop }: A, o) => watchData(k as never, path as never, fn as never, o as never) },
  { door: 'watchChildren', style: 'sync', args: { client: bad.client, path: bad.path, fn: bad.function },
    options: { maxPending: bad.bound(1), watchMode: bad.oneOf, window: bad.bound(1), batchReads: bad.boolean, onError: bad.function },
    call: ({ client: k = c(), path = '/w', fn = noop }: A, o) => watchChildren(k as never, path as never, fn as never, o as never) },
  // groups
  ...(['Party', 'ShallowParty'] as const).flatMap((name): Door[] => {
    const make = (k: unknown = c(), path: unknown = '/p', o?: unknown): Party | ShallowParty =>
      name === 'Party' ? new Party(k as never, path as never, o as never) : new ShallowParty(k as never, path as never, o as never);
    return [
      { door: name, style: 'sync', args: { client: bad.client, path: bad.path }, options: { identifier: bad.string, clock: bad.clock, acl: bad.acl }, optionsType: 'PartyOptions',
        call: (a: A, o) => make('client' in a ? a['client'] : c(), 'path' in a ? a['path'] : '/p', o) },
      { door: `${name}.join`, style: 'async', options: WAIT, call: (_, o) => make().join(o as never) },
      { door: `${name}.watch`, style: 'async', options: WAIT, call: (_, o) => make().watch(o as never) },
      { door: `${name}.onChange`, style: 'sync', args: { listener: bad.function }, call: ({ listener }: A) => make().onChange(listener as never) },
      { door: `${name}.changes`, style: 'sync', options: { signal: bad.signal }, call: (_, o) => make().changes(o as never) },
    ];
  }),
  { door: 'GroupMember', style: 'sync', args: { client: bad.client, membershipPath: bad.path, thisId: bad.nodeName }, options: { payload: bad.data, clock: bad.clock, acl: bad.acl },
    optionsType: 'GroupMemberOptions',
    call: ({ client: k = c(), membershipPath = '/g', thisId = 'me' }: A, o) => new GroupMember(k as never, membershipPath as never, thisId as never, o as never) },
  { door: 'GroupMember.start', style: 'async', options: WAIT, call: (_, o) => new GroupMember(c(), '/g', 'me').start(o as never) },
  { door: 'GroupMember.setThisData', style: 'async', args: { data: bad.data }, call: ({ data }: A) => new GroupMember(c(), '/g', 'me').setThisData(data as never) },
  { door: 'GroupMember.idFromPath', style: 'sync', args: { path: bad.string }, call: ({ path }: A) => new GroupMember(c(), '/g', 'me').idFromPath(path as never) },
  { door: 'GroupMember.onChange', style: 'sync', args: { listener: bad.function }, call: ({ listener }: A) => new GroupMember(c(), '/g', 'me').onChange(listener as never) },
  { door: 'GroupMember.changes', style: 'sync', options: { signal: bad.signal }, call: (_, o) => new GroupMember(c(), '/g', 'me').changes(o as never) },
  { door: 'SetPartitioner', style: 'sync', optionsType: 'SetPartitionerOptions',
    args: {
      client: bad.client, path: bad.path,
      items: [
        { label: 'a number', value: 5 }, { label: 'null', value: null }, { label: 'an object', value: {} },
        { label: 'an item with a slash', value: ['a/b'], mentions: ['items[]', '"a/b"'] }, { label: 'twice the same', value: ['a', 'a'], mentions: ['items', 'distinct'] },
      ],
    },
    options: { identifier: bad.nonEmptyString, partition: bad.function, timeBoundary: bad.timeout, clock: bad.clock },
    call: ({ client: k = c(), path = '/sp', items = ['a'] }: A, o) => new SetPartitioner(k as never, path as never, items as never, o as never) },
  { door: 'SetPartitioner.acquired', style: 'async', options: WAIT, call: (_, o) => new SetPartitioner(c(), '/sp', ['a']).acquired(o as never) },
  { door: 'SetPartitioner.onChange', style: 'sync', args: { listener: bad.function }, call: ({ listener }: A) => new SetPartitioner(c(), '/sp', ['a']).onChange(listener as never) },
  { door: 'SetPartitioner.states', style: 'sync', options: { signal: bad.signal }, call: (_, o) => new SetPartitioner(c(), '/sp', ['a']).states(o as never) },
  // inspect
  { door: 'inspectRecipe', style: 'async', args: { client: bad.client, path: bad.path }, options: { signal: bad.signal, now: bad.function }, optionsType: 'InspectOptions',
    call: ({ client: k = c(), path = '/i' }: A, o) => inspectRecipe(k as never, path as never, o as never) },
];
