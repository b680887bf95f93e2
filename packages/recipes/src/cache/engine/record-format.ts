/**
 * The byte format of a cache record (records.ts): varints, zigzag, names hashed as the store looks them up, and
 * the Stat packed as deltas. Shared by the arena that writes records and the nodes that read them (lazy-node.ts).
 *
 * Layout: varint length of the rest · kind (0 placeholder, 1 compact Stat, 2 raw Stat) · varint name length ·
 * name (UTF-8) · Stat · varint data length · data. A compact Stat: zigzag varints of czxid − base, mzxid − czxid,
 * pzxid − czxid, ctime − base, mtime − ctime, version, cversion, aversion, numChildren, dataLength − bytes kept,
 * then 0, or 1 and the ephemeral owner's 8 bytes. A raw one (a zxid or time beyond 2^53) has the five longs as
 * 8 bytes each.
 */
import type { Stat } from '@zkts/protocol';

export const GHOST = 0;
export const COMPACT = 1;
export const RAW = 2;
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** Room kept in front of a record's body for its length. */
export const PREFIX = 5;
const encoder = new TextEncoder();
export const decoder = new TextDecoder();

export const zigzag = (v: number): number => (v >= 0 ? 2 * v : -2 * v - 1);
export const unzigzag = (v: number): number => (v % 2 === 0 ? v / 2 : -(v + 1) / 2);
export const safe = (v: bigint): boolean => v <= SAFE && v >= -SAFE;

/** A growable scratch buffer records are encoded into before they are copied out. */
export class Writer {
  buf = new Uint8Array(256);
  pos = 0;

  reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    bigger.set(this.buf.subarray(0, this.pos));
    this.buf = bigger;
  }

  varint(v: number): void {
    this.reserve(8);
    const buf = this.buf;
    while (v >= 128) {
      buf[this.pos++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    buf[this.pos++] = v;
  }

  long(v: bigint): void {
    this.reserve(8);
    for (let i = 7; i >= 0; i--) this.buf[this.pos++] = Number((BigInt.asUintN(64, v) >> BigInt(i * 8)) & 0xffn);
  }

  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** A name as its UTF-8 length and bytes; ASCII (the usual case) without an intermediate array. */
  name(name: string): void {
    let ascii = true;
    for (let i = 0; i < name.length && ascii; i++) ascii = name.charCodeAt(i) < 128;
    if (!ascii) {
      const bytes = encoder.encode(name);
      this.varint(bytes.length);
      this.bytes(bytes);
      return;
    }
    this.varint(name.length);
    this.reserve(name.length);
    for (let i = 0; i < name.length; i++) this.buf[this.pos++] = name.charCodeAt(i);
  }
}

/** FNV-1a of a name's UTF-8 bytes, seeded with its parent's slot: the store's hash key. */
export function hashBytes(parent: number, chunk: Uint8Array, start: number, length: number): number {
  let h = (2166136261 ^ parent) >>> 0;
  for (let i = start; i < start + length; i++) h = Math.imul(h ^ (chunk[i] as number), 16777619);
  return h >>> 0;
}

/** The same hash from a string (ASCII hashed char by char, anything else encoded first). */
export function hashName(parent: number, name: string): number {
  let h = (2166136261 ^ parent) >>> 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 128) {
      const bytes = encoder.encode(name);
      return hashBytes(parent, bytes, 0, bytes.length);
    }
    h = Math.imul(h ^ c, 16777619);
  }
  return h >>> 0;
}

/** Reads a varint at `pos` of `chunk`; the position after it is left in `after` (no object per read). */
export let after = 0;
export function varintAt(chunk: Uint8Array, pos: number): number {
  let v = 0;
  let scale = 1;
  for (;;) {
    const b = chunk[pos++] as number;
    v += (b & 127) * scale;
    if (b < 128) {
      after = pos;
      return v;
    }
    scale *= 128;
  }
}

export function longAt(chunk: Uint8Array, pos: number): bigint {
  let v = 0n;
  for (let i = 0; i < 8; i++) v = (v << 8n) | BigInt(chunk[pos + i] as number);
  after = pos + 8;
  return BigInt.asIntN(64, v);
}

/** The deltas' bases: zxids and times near them take one to three bytes. Fixed by the first record. */
export interface Bases {
  zxid: number;
  time: number;
}

/** Decodes the Stat of the record at `offset` of `chunk`, and where its data is. */
export function statAt(chunk: Uint8Array, offset: number, bases: Bases): { stat: Stat; dataStart: number; dataLength: number } {
  varintAt(chunk, offset);
  const kind = chunk[after];
  const nameLength = varintAt(chunk, after + 1);
  let pos = after + nameLength;
  let czxid: bigint, mzxid: bigint, pzxid: bigint, ctime: number, mtime: number;
  if (kind === COMPACT) {
    const cz = bases.zxid + unzigzag(varintAt(chunk, pos));
    czxid = BigInt(cz);
    mzxid = BigInt(cz + unzigzag(varintAt(chunk, after)));
    pzxid = BigInt(cz + unzigzag(varintAt(chunk, after)));
    const c = bases.time + unzigzag(varintAt(chunk, after));
    ctime = c;
    mtime = c + unzigzag(varintAt(chunk, after));
    pos = after;
  } else {
    [czxid, mzxid, pzxid] = [longAt(chunk, pos), longAt(chunk, pos + 8), longAt(chunk, pos + 16)];
    [ctime, mtime] = [Number(longAt(chunk, pos + 24)), Number(longAt(chunk, pos + 32))];
    pos += 40;
  }
  const version = unzigzag(varintAt(chunk, pos));
  const cversion = unzigzag(varintAt(chunk, after));
  const aversion = unzigzag(varintAt(chunk, after));
  const numChildren = unzigzag(varintAt(chunk, after));
  const lengthDelta = unzigzag(varintAt(chunk, after));
  const ephemeralOwner = varintAt(chunk, after) === 0 ? 0n : longAt(chunk, after);
  const stored = varintAt(chunk, after);
  const stat = { czxid, mzxid, ctime, mtime, version, cversion, aversion, ephemeralOwner, dataLength: stored + lengthDelta, numChildren, pzxid };
  return { stat, dataStart: after, dataLength: stored };
}
