// The bad values of each kind of recipe argument, and the shape of a row ("door") of the validation table.
import { badValuesFor, type BadValue } from '../../../../../test/support/validation.js';

import { FakeZk, type FakeClient } from '../../support/fake-zk.js';

/** A bad value; `mentions` replaces what its message must contain (default: the argument's name and the value). */
export type Bad = BadValue & { readonly mentions?: readonly string[] };

const bv = (label: string, value: unknown): Bad => ({ label, value });

/** Integers in [min, max] (the harness's wrong types, NaN, ±Infinity, fractions and the values past each end). */
const int = (min: number, max?: number): BadValue[] =>
  badValuesFor('integer', { min, ...(max === undefined ? {} : { max }) }).filter((b) => !(typeof b.value === 'number' && b.value >= min && b.value <= (max ?? Number.MAX_SAFE_INTEGER) && Number.isInteger(b.value)));

/** Bad values by the kind of argument; every list leaves out undefined (it means "not given"). */
export const bad = {
  boolean: badValuesFor('boolean'),
  string: badValuesFor('string'),
  nonEmptyString: badValuesFor('nonEmptyString'),
  function: badValuesFor('function'),
  signal: badValuesFor('signal'),
  object: badValuesFor('object'),
  array: badValuesFor('array'),
  bytes: badValuesFor('bytes'),
  clock: [bv('a string', 'x'), bv('null', null), bv('an object without now', {}), bv('a function', Date.now)],
  data: [bv('a number', 5), bv('a boolean', true), bv('null', null), bv('an object', { x: 1 }), bv('an array', [1])],
  path: [bv('relative', 'a/b'), bv('empty', ''), bv('a trailing slash', '/a/'), bv('a double slash', '//a'), bv('a number', 5), bv('null', null)],
  nodeName: [bv('empty', ''), bv('with a slash', 'a/b'), bv('dot', '.'), bv('dot dot', '..'), bv('a number', 5), bv('null', null)],
  /** A wait in ms: ≥ 0 and within what a timer can express (fractions are fine, as for setTimeout). */
  timeout: [
    ...badValuesFor('nonNegative').filter((b) => b.value !== 1.5 && b.value !== 2 ** 60),
    bv('past a timer (2^31)', 2 ** 31), bv('huge', 1e300),
  ],
  int,
  /** An integer ≥ min or Infinity (the caches' bounds). */
  bound: (min: number): BadValue[] => int(min).filter((b) => b.value !== Number.POSITIVE_INFINITY),
  int32: int(-(2 ** 31), 2 ** 31 - 1),
  long: [bv('a number', 1), bv('a string', '1'), bv('null', null), bv('2^63', 2n ** 63n), bv('-2^63-1', -(2n ** 63n) - 1n)],
  finite: badValuesFor('number'),
  oneOf: [bv('an unknown word', 'bogus'), bv('empty', ''), bv('a number', 5), bv('null', null)],
  acl: [
    bv('a string', 'world:anyone'), bv('null', null), bv('empty', []), bv('an entry without id', [{ perms: 31 }]),
    bv('perms past 31', [{ perms: 32, id: { scheme: 'world', id: 'anyone' } }]), bv('an object', { perms: 31 }),
  ],
  client: [bv('null', null), bv('a string', '127.0.0.1:2181'), bv('an object without calls', {}), bv('a number', 1)],
} as const;

/**
 * One door of the table: a constructor ('Mutex'), a method ('Mutex.acquire') or a function ('watchData'), the
 * bad values of each positional argument and of each key of its options object, and how to call it. `call`
 * gets the bad positional arguments by name (the others keep good values: destructure with defaults) and the
 * options object (undefined: none).
 */
export interface Door {
  readonly door: string;
  readonly style: 'sync' | 'async';
  readonly args?: Readonly<Record<string, readonly Bad[]>>;
  readonly options?: Readonly<Record<string, readonly Bad[]>>;
  /** The exported type whose every key `options` must have a row for. */
  readonly optionsType?: string;
  /** What the options argument is called in messages (default 'options'). */
  readonly optionsName?: string;
  /** Good options the bad one is added to (for required options). */
  readonly base?: Readonly<Record<string, unknown>>;
  readonly call: (args: Readonly<Record<string, unknown>>, options: unknown) => unknown;
}

/** A fresh client of an in-memory ZooKeeper: the doors must refuse before any call reaches it. */
export function client(): FakeClient {
  return new FakeZk().client();
}

/** The WaitOptions rows every waiting method shares. */
export const WAIT = { signal: bad.signal, timeout: bad.timeout } as const;
