/**
 * A cached node as the caches hand it out (get(), events): a record of the arena (records.ts), decoded the first
 * time its Stat or data is read. Records never change, so decoding late gives what was stored; the data is a view
 * of the arena's bytes (copy it to keep it apart).
 */
import type { Stat } from '@zkts/protocol';

import type { CachedNode } from '../types.js';
import { statAt, type Bases } from './record-format.js';

export class LazyNode<T> implements CachedNode<T> {
  #chunk: Uint8Array;
  #offset: number;
  #bases: Bases;
  #bytes: boolean;
  #value: T;
  #stat: Stat | undefined;
  #data: T | undefined;

  constructor(chunk: Uint8Array, offset: number, bases: Bases, bytes: boolean, value: T) {
    this.#chunk = chunk;
    this.#offset = offset;
    this.#bases = bases;
    this.#bytes = bytes;
    this.#value = value;
  }

  private decode(): void {
    const { stat, dataStart, dataLength } = statAt(this.#chunk, this.#offset, this.#bases);
    this.#stat = stat;
    this.#data = this.#bytes ? (this.#chunk.subarray(dataStart, dataStart + dataLength) as T) : this.#value;
  }

  get stat(): Stat {
    if (this.#stat === undefined) this.decode();
    return this.#stat as Stat;
  }

  get data(): T {
    if (this.#stat === undefined) this.decode();
    return this.#data as T;
  }

  toJSON(): { stat: Stat; data: T } {
    return { stat: this.stat, data: this.data };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): { stat: Stat; data: T } {
    return this.toJSON();
  }
}
