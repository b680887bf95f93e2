// Validation table rows: Curator's SimpleDistributedQueue, SharedValue, DistributedAtomicInteger and the gzip helpers.
import { DistributedAtomicInteger, SharedValue, SimpleDistributedQueue, compressLikeCurator, decompressLikeCurator, gunzipDecoder } from '../../../src/index.js';
import { bad, client, WAIT, type Door } from './bad-values.js';

type A = Readonly<Record<string, unknown>>;
const gz = compressLikeCurator('x');
const decompressOptions = { maxBytes: bad.int(1, 2 ** 31 - 1) };

export const layoutDoors: Door[] = [
  { door: 'compressLikeCurator', style: 'sync', args: { data: bad.data }, call: ({ data }: A) => compressLikeCurator(data as never) },
  { door: 'decompressLikeCurator', style: 'sync', args: { data: bad.bytes }, options: decompressOptions, optionsType: 'DecompressOptions',
    call: ({ data = gz }: A, o) => decompressLikeCurator(data as never, o as never) },
  { door: 'gunzipDecoder', style: 'sync', options: decompressOptions, optionsType: 'DecompressOptions', call: (_, o) => gunzipDecoder(o as never) },
  { door: 'DistributedAtomicInteger', style: 'sync', args: { client: bad.client, path: bad.path }, optionsType: 'DistributedAtomicIntegerOptions',
    options: {
      acl: bad.acl,
      retry: [...bad.object, { label: 'without delayBefore', value: {} }],
      promoteToLock: [...bad.object, { label: 'without a path', value: {}, mentions: ['promoteToLock.path', 'undefined'] }],
    },
    call: ({ client: c = client(), path = '/a' }: A, o) => new DistributedAtomicInteger(c as never, path as never, o as never) },
  ...(['add', 'subtract', 'trySet', 'initialize'] as const).map((m): Door => ({
    door: `DistributedAtomicInteger.${m}`, style: 'async', args: { [m === 'add' || m === 'subtract' ? 'delta' : 'value']: [...bad.int32, { label: 'a bigint', value: 1n }] },
    call: (a: A) => new DistributedAtomicInteger(client(), '/a')[m](Object.values(a)[0] as never),
  })),
  { door: 'DistributedAtomicInteger.compareAndSet', style: 'async', args: { expected: bad.int32, value: bad.int32 },
    call: ({ expected = 0, value = 1 }: A) => new DistributedAtomicInteger(client(), '/a').compareAndSet(expected as never, value as never) },
  { door: 'SimpleDistributedQueue', style: 'sync', args: { client: bad.client, path: bad.path }, options: { acl: bad.acl },
    call: ({ client: c = client(), path = '/sq' }: A, o) => new SimpleDistributedQueue(c as never, path as never, o as never) },
  { door: 'SimpleDistributedQueue.offer', style: 'async', args: { data: bad.data }, call: ({ data }: A) => new SimpleDistributedQueue(client(), '/sq').offer(data as never) },
  { door: 'SimpleDistributedQueue.poll', style: 'async', options: WAIT, call: (_, o) => new SimpleDistributedQueue(client(), '/sq').poll(o as never) },
  { door: 'SimpleDistributedQueue.take', style: 'async', options: WAIT, call: (_, o) => new SimpleDistributedQueue(client(), '/sq').take(o as never) },
  { door: 'SharedValue', style: 'sync', args: { client: bad.client, path: bad.path, seed: bad.data }, options: { clock: bad.clock, acl: bad.acl },
    call: ({ client: c = client(), path = '/sv', seed = 'x' }: A, o) => new SharedValue(c as never, path as never, seed as never, o as never) },
  { door: 'SharedValue.setValue', style: 'async', args: { data: bad.data }, call: ({ data }: A) => new SharedValue(client(), '/sv', 'x').setValue(data as never) },
  { door: 'SharedValue.trySetValue', style: 'async',
    args: {
      previous: [...bad.object, { label: 'a value that is no bytes', value: { value: 'x', version: 0 } }, { label: 'a negative version', value: { value: new Uint8Array(0), version: -1 } }],
      data: bad.data,
    },
    call: ({ previous = { value: new Uint8Array(0), version: 0 }, data = 'y' }: A) => new SharedValue(client(), '/sv', 'x').trySetValue(previous as never, data as never) },
  { door: 'SharedValue.onChange', style: 'sync', args: { listener: bad.function }, call: ({ listener }: A) => new SharedValue(client(), '/sv', 'x').onChange(listener as never) },
];
