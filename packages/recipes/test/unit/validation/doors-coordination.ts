// Validation table rows: locks, elections, nodes, barriers, leases and counters.
import {
  Barrier, Counter, DistributedAtomicLong, DoubleBarrier, ExclusiveLock, LeaderElection, LeaderSelector, MultiLock,
  MultiNonBlockingLease, Mutex, NonBlockingLease, PersistentNode, PersistentTtlNode, PersistentWatcher, ReadWriteLock,
  Semaphore, SharedCount, attemptRevoke, onRevocationRequest,
} from '../../../src/index.js';
import { bad, client, WAIT, type Door } from './bad-values.js';

type A = Readonly<Record<string, unknown>>;
const lockOptions = { reentrant: bad.boolean, data: bad.data, lostOn: bad.oneOf, onExpiry: bad.oneOf, clock: bad.clock, acl: bad.acl };
const lease = { duration: 60_000, identifier: 'me' };
const fakeLease = { node: '/l/lock-0000000000', lost: new AbortController().signal, released: false };
const noop = (): void => undefined;

export const coordinationDoors: readonly Door[] = [
  // locks
  { door: 'Mutex', style: 'sync', args: { client: bad.client, path: bad.path }, options: lockOptions, optionsType: 'LockOptions',
    call: ({ client: c = client(), path = '/l' }: A, o) => new Mutex(c as never, path as never, o as never) },
  { door: 'Mutex.acquire', style: 'async', options: WAIT, optionsType: 'WaitOptions', call: (_, o) => new Mutex(client(), '/l').acquire(o as never) },
  { door: 'ReadWriteLock', style: 'sync', args: { client: bad.client, path: bad.path }, options: lockOptions, optionsType: 'LockOptions',
    call: ({ client: c = client(), path = '/l' }: A, o) => new ReadWriteLock(c as never, path as never, o as never) },
  // A handle of a held lock (not an exported class: its door is listed by hand).
  { door: 'LockHandle.guard', style: 'async', args: { ops: [...bad.array, { label: 'an op that is not an object', value: [5] }] },
    call: async ({ ops }: A) => (await new Mutex(client(), '/l').acquire()).guard(ops as never) },
  { door: 'ExclusiveLock', style: 'sync', args: { client: bad.client, path: bad.path }, optionsType: 'ExclusiveLockOptions',
    options: { id: bad.nonEmptyString, lostOn: bad.oneOf, onExpiry: bad.oneOf, clock: bad.clock, acl: bad.acl },
    call: ({ client: c = client(), path = '/l' }: A, o) => new ExclusiveLock(c as never, path as never, o as never) },
  { door: 'ExclusiveLock.acquire', style: 'async', options: WAIT, call: (_, o) => new ExclusiveLock(client(), '/l').acquire(o as never) },
  { door: 'Semaphore', style: 'sync', args: { client: bad.client, path: bad.path, maxLeases: bad.int(1, 2 ** 31 - 1) }, optionsType: 'SemaphoreOptions',
    options: { data: bad.data, lostOn: bad.oneOf, onExpiry: bad.oneOf, clock: bad.clock, layout: bad.oneOf, acl: bad.acl },
    call: ({ client: c = client(), path = '/s', maxLeases = 3 }: A, o) => new Semaphore(c as never, path as never, maxLeases as never, o as never) },
  { door: 'Semaphore.acquire', style: 'async', args: { qty: bad.int(1, 3) }, options: WAIT,
    call: ({ qty = 1 }: A, o) => new Semaphore(client(), '/s', 3).acquire(qty as never, o as never) },
  { door: 'MultiLock', style: 'sync', options: { clock: bad.clock },
    args: { locks: [...bad.array, { label: 'empty', value: [] }, { label: 'a lock without acquire', value: [{}] }] },
    call: ({ locks = [new Mutex(client(), '/m')] }: A, o) => new MultiLock(locks as never, o as never) },
  { door: 'MultiLock.acquire', style: 'async', options: WAIT, call: (_, o) => new MultiLock([new Mutex(client(), '/m')]).acquire(o as never) },
  { door: 'attemptRevoke', style: 'async', args: { client: bad.client, node: bad.path },
    call: ({ client: c = client(), node = '/l/lock-0000000000' }: A) => attemptRevoke(c as never, node as never) },
  { door: 'onRevocationRequest', style: 'sync',
    args: { client: bad.client, lease: [...bad.object, { label: 'an object without node', value: { lost: new AbortController().signal } }], listener: bad.function },
    call: ({ client: c = client(), lease: l = fakeLease, listener = noop }: A) => onRevocationRequest(c as never, l as never, listener as never) },
  // elections
  { door: 'LeaderElection', style: 'sync', args: { client: bad.client, path: bad.path }, optionsType: 'LeaderElectionOptions',
    options: { id: bad.nonEmptyString, lostOn: bad.oneOf, clock: bad.clock, acl: bad.acl },
    call: ({ client: c = client(), path = '/e' }: A, o) => new LeaderElection(c as never, path as never, o as never) },
  { door: 'LeaderElection.awaitLeadership', style: 'async', options: WAIT, call: (_, o) => new LeaderElection(client(), '/e').awaitLeadership(o as never) },
  { door: 'LeaderElection.onChange', style: 'sync', args: { listener: bad.function }, call: ({ listener }: A) => new LeaderElection(client(), '/e').onChange(listener as never) },
  { door: 'LeaderElection.changes', style: 'sync', options: { signal: bad.signal }, call: (_, o) => new LeaderElection(client(), '/e').changes(o as never) },
  { door: 'LeaderSelector', style: 'sync', args: { client: bad.client, path: bad.path, callback: bad.function }, optionsType: 'LeaderSelectorOptions',
    options: { id: bad.nonEmptyString, autoRequeue: bad.boolean, lostOn: bad.oneOf, onError: bad.function, clock: bad.clock, layout: bad.oneOf, acl: bad.acl },
    call: ({ client: c = client(), path = '/e', callback = async () => undefined }: A, o) => new LeaderSelector(c as never, path as never, callback as never, o as never) },
  // nodes
  { door: 'PersistentNode', style: 'sync', args: { client: bad.client, path: bad.path }, optionsType: 'PersistentNodeOptions',
    options: { mode: bad.oneOf, protected: bad.boolean, data: bad.data, clock: bad.clock, acl: bad.acl },
    call: ({ client: c = client(), path = '/n' }: A, o) => new PersistentNode(c as never, path as never, o as never) },
  { door: 'PersistentNode.awaitCreated', style: 'async', options: WAIT, call: (_, o) => new PersistentNode(client(), '/n').awaitCreated(o as never) },
  { door: 'PersistentNode.setData', style: 'async', args: { data: bad.data }, call: ({ data }: A) => new PersistentNode(client(), '/n').setData(data as never) },
  { door: 'PersistentNode.onChange', style: 'sync', args: { listener: bad.function }, call: ({ listener }: A) => new PersistentNode(client(), '/n').onChange(listener as never) },
  { door: 'PersistentNode.changes', style: 'sync', options: { signal: bad.signal }, call: (_, o) => new PersistentNode(client(), '/n').changes(o as never) },
  { door: 'PersistentTtlNode', style: 'sync', args: { client: bad.client, path: bad.path, ttl: bad.int(1, 2 ** 40 - 1) }, optionsType: 'PersistentTtlNodeOptions',
    options: { data: bad.data, childName: bad.nodeName, touchFactor: [...bad.finite, { label: 'below 1', value: 0.5 }], clock: bad.clock, acl: bad.acl },
    call: ({ client: c = client(), path = '/t', ttl = 1000 }: A, o) => new PersistentTtlNode(c as never, path as never, ttl as never, o as never) },
  { door: 'PersistentTtlNode.awaitCreated', style: 'async', options: WAIT, call: (_, o) => new PersistentTtlNode(client(), '/t', 1000).awaitCreated(o as never) },
  { door: 'PersistentTtlNode.setData', style: 'async', args: { data: bad.data }, call: ({ data }: A) => new PersistentTtlNode(client(), '/t', 1000).setData(data as never) },
  { door: 'PersistentTtlNode.onChange', style: 'sync', args: { listener: bad.function }, call: ({ listener }: A) => new PersistentTtlNode(client(), '/t', 1000).onChange(listener as never) },
  { door: 'PersistentTtlNode.changes', style: 'sync', options: { signal: bad.signal }, call: (_, o) => new PersistentTtlNode(client(), '/t', 1000).changes(o as never) },
  { door: 'PersistentWatcher', style: 'sync', args: { client: bad.client, path: bad.path }, optionsType: 'PersistentWatcherOptions',
    options: { recursive: bad.boolean, clock: bad.clock },
    call: ({ client: c = client(), path = '/w' }: A, o) => new PersistentWatcher(c as never, path as never, o as never) },
  { door: 'PersistentWatcher.on', style: 'sync', args: { listener: bad.function }, call: ({ listener }: A) => new PersistentWatcher(client(), '/w').on(listener as never) },
  { door: 'PersistentWatcher.events', style: 'sync', options: { signal: bad.signal }, call: (_, o) => new PersistentWatcher(client(), '/w').events(o as never) },
  // barriers
  { door: 'Barrier', style: 'sync', args: { client: bad.client, path: bad.path }, options: { acl: bad.acl },
    call: ({ client: c = client(), path = '/b' }: A, o) => new Barrier(c as never, path as never, o as never) },
  { door: 'Barrier.wait', style: 'async', options: WAIT, call: (_, o) => new Barrier(client(), '/b').wait(o as never) },
  { door: 'DoubleBarrier', style: 'sync', args: { client: bad.client, path: bad.path, count: bad.int(1, 2 ** 31 - 1) },
    options: { id: [...bad.nodeName, { label: 'the ready node', value: 'ready' }], acl: bad.acl },
    call: ({ client: c = client(), path = '/d', count = 2 }: A, o) => new DoubleBarrier(c as never, path as never, count as never, o as never) },
  { door: 'DoubleBarrier.enter', style: 'async', options: WAIT, call: (_, o) => new DoubleBarrier(client(), '/d', 2).enter(o as never) },
  { door: 'DoubleBarrier.leave', style: 'async', options: WAIT, call: (_, o) => new DoubleBarrier(client(), '/d', 2).leave(o as never) },
  // leases
  { door: 'NonBlockingLease', style: 'sync', args: { client: bad.client, path: bad.path }, optionsType: 'NonBlockingLeaseOptions', base: lease,
    options: { duration: [...bad.finite, { label: '0', value: 0 }, { label: '-1', value: -1 }], identifier: bad.nonEmptyString, clock: bad.clock, acl: bad.acl },
    call: ({ client: c = client(), path = '/lease' }: A, o) => new NonBlockingLease(c as never, path as never, o as never) },
  { door: 'NonBlockingLease.tryAcquire', style: 'async', options: WAIT, call: (_, o) => new NonBlockingLease(client(), '/lease', lease).tryAcquire(o as never) },
  { door: 'MultiNonBlockingLease', style: 'sync', args: { client: bad.client, path: bad.path, count: bad.int(1, 2 ** 31 - 1) }, base: lease,
    options: { duration: [...bad.finite, { label: '0', value: 0 }], identifier: bad.nonEmptyString, clock: bad.clock, acl: bad.acl },
    call: ({ client: c = client(), path = '/lease', count = 2 }: A, o) => new MultiNonBlockingLease(c as never, path as never, count as never, o as never) },
  { door: 'MultiNonBlockingLease.tryAcquire', style: 'async', options: WAIT, call: (_, o) => new MultiNonBlockingLease(client(), '/lease', 2, lease).tryAcquire(o as never) },
  // counters
  { door: 'DistributedAtomicLong', style: 'sync', args: { client: bad.client, path: bad.path }, optionsType: 'DistributedAtomicLongOptions',
    options: {
      acl: bad.acl,
      retry: [...bad.object, { label: 'without delayBefore', value: {} }],
      promoteToLock: [
        ...bad.object, { label: 'without a path', value: {}, mentions: ['promoteToLock.path', 'undefined'] },
        { label: 'a relative path', value: { path: 'p' }, mentions: ['promoteToLock.path', '"p"'] },
      ],
      'promoteToLock.timeout': [{ label: '-1', value: -1 }, { label: 'NaN', value: Number.NaN }],
    },
    call: ({ client: c = client(), path = '/a' }: A, o) => new DistributedAtomicLong(c as never, path as never, nestPromote(o) as never) },
  ...(['add', 'subtract', 'trySet', 'initialize'] as const).map((m): Door => ({
    door: `DistributedAtomicLong.${m}`, style: 'async', args: { [m === 'add' || m === 'subtract' ? 'delta' : 'value']: bad.long },
    call: (a: A) => new DistributedAtomicLong(client(), '/a')[m](Object.values(a)[0] as never),
  })),
  { door: 'DistributedAtomicLong.compareAndSet', style: 'async', args: { expected: bad.long, value: bad.long },
    call: ({ expected = 0n, value = 1n }: A) => new DistributedAtomicLong(client(), '/a').compareAndSet(expected as never, value as never) },
  { door: 'Counter', style: 'sync', args: { client: bad.client, path: bad.path }, optionsType: 'CounterOptions',
    options: { default: [...bad.finite, { label: 'a fraction for an int counter', value: 1.5 }], float: bad.boolean, supportCurator: bad.boolean, acl: bad.acl },
    call: ({ client: c = client(), path = '/c' }: A, o) => new Counter(c as never, path as never, o as never) },
  { door: 'Counter.add', style: 'async', args: { delta: bad.int(Number.MIN_SAFE_INTEGER) }, call: ({ delta }: A) => new Counter(client(), '/c').add(delta as never) },
  { door: 'Counter.subtract', style: 'async', args: { delta: bad.int(Number.MIN_SAFE_INTEGER) }, call: ({ delta }: A) => new Counter(client(), '/c').subtract(delta as never) },
  { door: 'SharedCount', style: 'sync', args: { client: bad.client, path: bad.path, seed: bad.int32 }, options: { clock: bad.clock, acl: bad.acl },
    call: ({ client: c = client(), path = '/sc', seed = 0 }: A, o) => new SharedCount(c as never, path as never, seed as never, o as never) },
  { door: 'SharedCount.setCount', style: 'async', args: { value: bad.int32 }, call: ({ value }: A) => new SharedCount(client(), '/sc', 0).setCount(value as never) },
  { door: 'SharedCount.trySetCount', style: 'async',
    args: { previous: [...bad.object, { label: 'a string value', value: { value: 'x', version: 0 } }], value: bad.int32 },
    call: ({ previous = { value: 0, version: 0 }, value = 1 }: A) => new SharedCount(client(), '/sc', 0).trySetCount(previous as never, value as never) },
  { door: 'SharedCount.onChange', style: 'sync', args: { listener: bad.function }, call: ({ listener }: A) => new SharedCount(client(), '/sc', 0).onChange(listener as never) },
];

/** The row 'promoteToLock.timeout' is a key of the nested object: move it there. */
function nestPromote(options: unknown): unknown {
  if (typeof options !== 'object' || options === null || !('promoteToLock.timeout' in options)) return options;
  return { promoteToLock: { path: '/p', timeout: (options as Record<string, unknown>)['promoteToLock.timeout'] } };
}
