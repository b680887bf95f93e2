/**
 * Where a compact cache keeps its nodes' bytes: one record per node version (name, Stat, data). A JavaScript
 * object per node costs more than its 100 bytes of data (a Stat object with five bigints is ~240 bytes, a
 * Uint8Array view ~100 more), so the cache keeps none: a Stat takes ~15 bytes here (varints; zxids and times as
 * deltas), and a node becomes an object only when someone looks at it (LazyNode).
 *
 * Small records are appended to 64 KiB chunks; a record over 16 KiB gets an array of its own. Records are never
 * written over: a new version is appended and the old one becomes garbage (still readable by whoever holds it, an
 * event's `old` for instance). The store copies the live small records into fresh chunks once garbage outweighs
 * them; chunks are never reused, so anything handed out stays valid.
 *
 * An address is a uint32: below 2^31, chunk index << 16 | offset; from 2^31 on, 2^31 + index of a big record.
 * The bytes of a record: record-format.ts.
 */
import type { Stat } from '@zkts/protocol';

import type { CachedNode } from '../types.js';
import { LazyNode } from './lazy-node.js';
import { COMPACT, GHOST, PREFIX, RAW, Writer, after, decoder, hashBytes, longAt, safe, unzigzag, varintAt, zigzag, type Bases } from './record-format.js';

const CHUNK = 64 * 1024;
const BIG = CHUNK / 4;
const BIG_FLAG = 2 ** 31;
const MAX_CHUNKS = 2 ** 15;

export class Arena {
  private chunks: Uint8Array[] = [];
  private readonly bigs: (Uint8Array | undefined)[] = [];
  private freeBigs: number[] = [];
  private pos = CHUNK;
  private readonly w = new Writer();
  /** Bytes of small records still referenced, and of small records superseded or removed. */
  live = 0;
  garbage = 0;
  private bases: Bases = { zxid: 0, time: 0 };
  private based = false;

  private chunkOf(addr: number): Uint8Array {
    return (addr >= BIG_FLAG ? this.bigs[addr - BIG_FLAG] : this.chunks[addr >>> 16]) as Uint8Array;
  }

  private offsetOf(addr: number): number {
    return addr >= BIG_FLAG ? 0 : addr & 0xffff;
  }

  /** Whether the small records outgrew what addresses can reach (2 GiB): the store must compact now. */
  get full(): boolean {
    return this.chunks.length >= MAX_CHUNKS - 1;
  }

  private place(bytes: Uint8Array, n: number): number {
    if (n > BIG) {
      const copy = bytes.slice(0, n);
      const index = this.freeBigs.pop() ?? this.bigs.length;
      this.bigs[index] = copy;
      return BIG_FLAG + index;
    }
    if (this.pos + n > CHUNK) {
      if (this.chunks.length >= MAX_CHUNKS) throw new RangeError('a cache holds at most 2 GiB of small records');
      this.chunks.push(new Uint8Array(CHUNK));
      this.pos = 0;
    }
    const index = this.chunks.length - 1;
    (this.chunks[index] as Uint8Array).set(bytes.subarray(0, n), this.pos);
    const addr = index * 65536 + this.pos;
    this.pos += n;
    this.live += n;
    return addr;
  }

  /** Appends a record; returns its address. `stat` undefined: a placeholder holding only the name. */
  append(name: string, stat: Stat | undefined, data: Uint8Array | undefined): number {
    const w = this.w;
    // The body is encoded after room for its length (≤ 5 bytes as a varint), which then goes right before it.
    w.pos = PREFIX;
    w.reserve(64 + name.length * 3 + (data?.length ?? 0));
    const compact = stat !== undefined && safe(stat.czxid) && safe(stat.mzxid) && safe(stat.pzxid);
    w.buf[w.pos++] = stat === undefined ? GHOST : compact ? COMPACT : RAW;
    w.name(name);
    const stored = data?.length ?? 0;
    if (stat !== undefined) {
      if (compact) {
        const czxid = Number(stat.czxid);
        const ctime = stat.ctime;
        if (!this.based) {
          this.based = true;
          this.bases = { zxid: czxid, time: ctime };
        }
        w.varint(zigzag(czxid - this.bases.zxid));
        w.varint(zigzag(Number(stat.mzxid) - czxid));
        w.varint(zigzag(Number(stat.pzxid) - czxid));
        w.varint(zigzag(ctime - this.bases.time));
        w.varint(zigzag(stat.mtime - ctime));
      } else {
        for (const v of [stat.czxid, stat.mzxid, stat.pzxid, BigInt(stat.ctime), BigInt(stat.mtime)]) w.long(v);
      }
      // dataLength relative to the bytes kept: 0 (one byte) whenever the data itself is kept.
      for (const v of [stat.version, stat.cversion, stat.aversion, stat.numChildren, stat.dataLength - stored]) w.varint(zigzag(v));
      if (stat.ephemeralOwner === 0n) w.varint(0);
      else {
        w.varint(1);
        w.long(stat.ephemeralOwner);
      }
    }
    w.varint(stored);
    if (data !== undefined) w.bytes(data);
    const end = w.pos;
    const body = end - PREFIX;
    let size = 1;
    for (let v = body; v >= 128; v = Math.floor(v / 128)) size++;
    w.pos = PREFIX - size;
    w.varint(body);
    return this.place(w.buf.subarray(PREFIX - size, end), size + body);
  }

  /** Bytes the record at `addr` takes. */
  private sizeOf(addr: number): number {
    const offset = this.offsetOf(addr);
    const body = varintAt(this.chunkOf(addr), offset);
    return after - offset + body;
  }

  /** The record is no longer the current version of anything. */
  release(addr: number): void {
    if (addr >= BIG_FLAG) {
      this.bigs[addr - BIG_FLAG] = undefined;
      this.freeBigs.push(addr - BIG_FLAG);
      return;
    }
    const n = this.sizeOf(addr);
    this.live -= n;
    this.garbage += n;
  }

  /** Copies a small record into `to` (compaction); returns its new address there. A big one stays where it is. */
  moveTo(to: Arena, addr: number): number {
    if (addr >= BIG_FLAG) {
      to.bigs[addr - BIG_FLAG] = this.bigs[addr - BIG_FLAG];
      return addr;
    }
    const chunk = this.chunkOf(addr);
    const start = this.offsetOf(addr);
    const n = this.sizeOf(addr);
    return to.place(chunk.subarray(start, start + n), n);
  }

  /** Before a compaction into this arena: the deltas' bases and the big records' numbering carry over. */
  inherit(from: Arena): void {
    this.bases = from.bases;
    this.based = from.based;
    this.freeBigs = from.freeBigs;
  }

  /** Offset of the name's length varint. */
  private nameAt(addr: number): number {
    varintAt(this.chunkOf(addr), this.offsetOf(addr));
    return after + 1;
  }

  nameString(addr: number): string {
    const chunk = this.chunkOf(addr);
    const length = varintAt(chunk, this.nameAt(addr));
    return decoder.decode(chunk.subarray(after, after + length));
  }

  /** The record's name hash under `parent` (see hashName). */
  hashOf(addr: number, parent: number): number {
    const chunk = this.chunkOf(addr);
    const length = varintAt(chunk, this.nameAt(addr));
    return hashBytes(parent, chunk, after, length);
  }

  /** Whether the record's name is `name`. */
  nameIs(addr: number, name: string): boolean {
    const chunk = this.chunkOf(addr);
    const length = varintAt(chunk, this.nameAt(addr));
    const start = after;
    if (length !== name.length) {
      // Only a name with non-ASCII characters has more bytes than UTF-16 units.
      return length > name.length && decoder.decode(chunk.subarray(start, start + length)) === name;
    }
    for (let i = 0; i < length; i++) {
      const c = name.charCodeAt(i);
      if (c >= 128) return decoder.decode(chunk.subarray(start, start + length)) === name;
      if (chunk[start + i] !== c) return false;
    }
    return true;
  }

  isGhost(addr: number): boolean {
    const chunk = this.chunkOf(addr);
    varintAt(chunk, this.offsetOf(addr));
    return chunk[after] === GHOST;
  }

  /** mzxid alone, without building a Stat (the engine compares versions on every read). */
  mzxid(addr: number): bigint {
    const chunk = this.chunkOf(addr);
    varintAt(chunk, this.offsetOf(addr));
    const kind = chunk[after];
    const nameLength = varintAt(chunk, after + 1);
    const at = after + nameLength;
    if (kind !== COMPACT) return longAt(chunk, at + 8);
    const cz = this.bases.zxid + unzigzag(varintAt(chunk, at));
    return BigInt(cz + unzigzag(varintAt(chunk, after)));
  }

  /** A node object for the record (decoded when first read); `value` is what a decoder made of the data. */
  node<T>(addr: number, bytes: boolean, value: T): CachedNode<T> {
    return new LazyNode<T>(this.chunkOf(addr), this.offsetOf(addr), this.bases, bytes, value);
  }
}
