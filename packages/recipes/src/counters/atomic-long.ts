/**
 * Curator's DistributedAtomicLong and DistributedAtomicInteger: the same recipe (atomic-value.ts) over a Java
 * long (8 bytes, big-endian, as ByteBuffer.putLong; a bigint here) or a Java int (4 bytes, big-endian, as
 * ByteBuffer.putInt; a number here). Both wrap on overflow as Java does.
 */
import { RecipeArgumentError } from '../errors.js';
import { rules, type RecipeClient } from '../internal/index.js';
import { AtomicNumber, type DistributedAtomicLongOptions, type NumberKind } from './atomic-value.js';

/** A fixed-width big-endian codec; empty data (a node made by ensure_path or a foreign create) reads as 0. */
function fixedWidth<T>(width: 4 | 8, zero: T, read: (view: DataView) => T, write: (view: DataView, value: T) => void): NumberKind<T>['codec'] {
  return {
    encode(value) {
      const bytes = new Uint8Array(width);
      write(new DataView(bytes.buffer), value);
      return bytes;
    },
    decode(bytes) {
      if (bytes.length === 0) return zero;
      if (bytes.length !== width) throw new RecipeArgumentError(`not a ${width}-byte ${width === 8 ? 'long' : 'int'}: ${bytes.length} bytes`);
      return read(new DataView(bytes.buffer, bytes.byteOffset, width));
    },
  };
}

const LONG: NumberKind<bigint> = {
  name: 'DistributedAtomicLong',
  codec: fixedWidth(8, 0n, (v) => v.getBigInt64(0), (v, n) => v.setBigInt64(0, n)),
  rule: rules.long,
  one: 1n,
  add: (a, b) => BigInt.asIntN(64, a + b),
  negate: (a) => BigInt.asIntN(64, -a),
};

const INT: NumberKind<number> = {
  name: 'DistributedAtomicInteger',
  codec: fixedWidth(4, 0, (v) => v.getInt32(0), (v, n) => v.setInt32(0, n)),
  rule: rules.int32,
  one: 1,
  add: (a, b) => (a + b) | 0,
  negate: (a) => -a | 0,
};

/** Curator DistributedAtomicLong: an 8-byte big-endian long, changed by optimistic compare-and-set (optionally promoted to a lock). */
export class DistributedAtomicLong extends AtomicNumber<bigint> {
  constructor(client: RecipeClient, path: string, options: DistributedAtomicLongOptions = {}) {
    super(client, path, options, LONG);
  }
}

/** Curator DistributedAtomicInteger: a 4-byte big-endian int, changed by optimistic compare-and-set (optionally promoted to a lock). */
export class DistributedAtomicInteger extends AtomicNumber<number> {
  constructor(client: RecipeClient, path: string, options: DistributedAtomicIntegerOptions = {}) {
    super(client, path, options, INT);
  }
}

/** Options of a DistributedAtomicInteger: those of a DistributedAtomicLong. */
export type DistributedAtomicIntegerOptions = DistributedAtomicLongOptions;
