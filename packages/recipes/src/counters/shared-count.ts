/**
 * Curator's SharedValue and SharedCount over shared-node.ts. SharedValue holds bytes; SharedCount is a
 * SharedValue whose data is a 4-byte big-endian int (as in Curator, where SharedCount wraps a SharedValue).
 * Listeners hear each new value (a write of the same bytes is no change).
 */
import type { ACL, Clock } from '@zkts/protocol';

import { RecipeArgumentError } from '../errors.js';
import { checkArg, rules, type Data, type RecipeClient, type Rule } from '../internal/index.js';
import type { Codec } from './counter-cas.js';
import { SharedNode, type ValueKind, type VersionedValue } from './shared-node.js';

/** A count with the node version it was read at (Curator's VersionedValue<Integer>). */
export interface VersionedCount {
  readonly value: number;
  readonly version: number;
}

const INT: Codec<number> = {
  encode(value) {
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setInt32(0, value);
    return bytes;
  },
  decode(bytes) {
    if (bytes.length === 0) return 0;
    if (bytes.length !== 4) throw new RecipeArgumentError(`not a 4-byte int: ${bytes.length} bytes`);
    return new DataView(bytes.buffer, bytes.byteOffset, 4).getInt32(0);
  },
};

const COUNT: ValueKind<number> = { what: 'shared count', codec: INT, equals: (a, b) => a === b };

const BYTES: ValueKind<Uint8Array> = {
  what: 'shared value',
  codec: { encode: (v) => v, decode: (b) => b.slice() },
  equals: (a, b) => a.length === b.length && a.every((x, i) => x === b[i]),
};

const VERSION = rules.integer(0, 2 ** 31 - 1);

/** What a versioned write compares: a { value, version } as read from this recipe. */
const versionedOf = (value: Rule): Rule => ({
  expect: `a versioned value ({ value: ${value.expect}, version })`,
  test: (v: unknown) => typeof v === 'object' && v !== null && value.test((v as VersionedCount).value) && VERSION.test((v as VersionedCount).version),
});

const VERSIONED_COUNT = versionedOf(rules.int32);
const VERSIONED_BYTES = versionedOf(rules.bytes);

const toBytes = (data: Data): Uint8Array => (typeof data === 'string' ? new TextEncoder().encode(data) : data.slice());

/** Curator SharedValue: bytes in one node, watched; versioned setValue / trySetValue and listeners. */
export class SharedValue extends SharedNode<Uint8Array> {
  /**
   * `seed`: the data the node is created with if missing (a string as UTF-8). `clock`: time source of the retry
   * pause. `acl`: the ACL of the node and its parents (default: the client's aclProvider).
   */
  constructor(client: RecipeClient, path: string, seed: Data, options: { clock?: Clock; acl?: ACL[] } = {}) {
    checkArg('SharedValue', 'seed', seed, rules.data);
    super('SharedValue', client, path, toBytes(seed), options, BYTES);
  }

  /** The value as last read or written (throws before start()). */
  get value(): Uint8Array {
    return this.versioned.value;
  }

  /** Writes `data` whatever the node holds (Curator's setValue). */
  async setValue(data: Data): Promise<void> {
    checkArg('SharedValue.setValue', 'data', data, rules.data);
    return this.set(toBytes(data));
  }

  /**
   * Writes `data` if the node is still at `previous.version` and `previous` is our current view; false if
   * someone changed it first (our view is then read again).
   */
  async trySetValue(previous: VersionedValue<Uint8Array>, data: Data): Promise<boolean> {
    checkArg('SharedValue.trySetValue', 'previous', previous, VERSIONED_BYTES);
    checkArg('SharedValue.trySetValue', 'data', data, rules.data);
    return this.trySet(previous, toBytes(data));
  }

  /** Calls `listener` with every new value heard; returns the unsubscribe function. */
  onChange(listener: (value: Uint8Array) => void): () => void {
    checkArg('SharedValue.onChange', 'listener', listener, rules.function);
    return this.listen(listener);
  }
}

/** Curator SharedCount: a 4-byte big-endian int in one node, watched; versioned setCount / trySetCount and listeners. */
export class SharedCount extends SharedNode<number> {
  /**
   * `clock`: time source of the retry pause after an unexpected error (default: the system clock). `acl`: the ACL
   * of the node and its parents (default: the client's aclProvider).
   */
  constructor(client: RecipeClient, path: string, seed: number, options: { clock?: Clock; acl?: ACL[] } = {}) {
    checkArg('SharedCount', 'seed', seed, rules.int32);
    super('SharedCount', client, path, seed, options, COUNT);
  }

  /** The count as last read or written (throws before start()). */
  get count(): number {
    return this.versioned.value;
  }

  /** Writes `value` whatever the node holds (Curator's setCount). */
  async setCount(value: number): Promise<void> {
    checkArg('SharedCount.setCount', 'value', value, rules.int32);
    return this.set(value);
  }

  /**
   * Writes `value` if the node is still at `previous.version` and `previous` is our current view; false if
   * someone changed it first (our view is then read again).
   */
  async trySetCount(previous: VersionedCount, value: number): Promise<boolean> {
    checkArg('SharedCount.trySetCount', 'previous', previous, VERSIONED_COUNT);
    checkArg('SharedCount.trySetCount', 'value', value, rules.int32);
    return this.trySet(previous, value);
  }

  /** Calls `listener` with every new count heard; returns the unsubscribe function. */
  onChange(listener: (count: number) => void): () => void {
    checkArg('SharedCount.onChange', 'listener', listener, rules.function);
    return this.listen(listener);
  }
}
