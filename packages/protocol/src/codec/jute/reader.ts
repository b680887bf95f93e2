/**
 * Jute binary input (org.apache.jute.BinaryInputArchive), borrowing from the input.
 *
 *   int     4 bytes, big-endian, signed
 *   long    8 bytes, big-endian, signed           → bigint
 *   boolean 1 byte, 0 = false, anything else true
 *   buffer  int length, then bytes; length -1     → null (distinct from empty)
 *   ustring int length, then UTF-8 bytes; -1      → null (distinct from '')
 *   vector  int count, then elements; -1          → null (distinct from [])
 *
 * `readBuffer` returns a subarray view into the frame (no copy): callers that keep data past the frame's
 * lifetime copy it themselves. Every length and count is checked against the bytes that remain and against
 * `maxLength`, so hostile input ends in a `ProtocolError` with the offset, never a RangeError or a huge
 * allocation.
 */
import { ProtocolError } from '../../errors/errors.js';
import { decodeString } from './utf8.js';

function readStringElement(r: JuteReader): string | null {
  return r.readString();
}

/**
 * One DataView per underlying ArrayBuffer, shared by every reader over it: frames cut from one socket chunk
 * share a buffer, and building a DataView per frame costs more than decoding a small frame. Weak, so a
 * buffer is not kept alive by the cache.
 */
const views = new WeakMap<ArrayBufferLike, DataView>();
/**
 * The last buffer looked up: consecutive frames almost always share it (one chunk, or the client's reused
 * read buffer), and a WeakMap lookup per frame showed in profiles. Holds one buffer alive at most.
 */
let lastBuffer: ArrayBufferLike | null = null;
let lastView: DataView | null = null;

function viewOf(buffer: ArrayBufferLike): DataView {
  if (buffer === lastBuffer && lastView !== null) return lastView;
  let v = views.get(buffer);
  if (v === undefined) {
    v = new DataView(buffer);
    views.set(buffer, v);
  }
  lastBuffer = buffer;
  lastView = v;
  return v;
}

/** The last long a `readLongMemo` call site read: its two halves and its bigint. */
export interface LongMemo {
  high: number;
  low: number;
  value: bigint;
}

export function longMemo(): LongMemo {
  return { high: 0, low: 0, value: 0n };
}

/** ZooKeeper's default jute.maxbuffer: 0xfffff bytes. */
export const DEFAULT_MAX_PACKET = 0xfffff;

/** Reads Jute primitives (big-endian ints and longs, length-prefixed strings, buffers and vectors) from bytes, bounds-checked: a short or hostile input throws ProtocolError, never reads past the end. */
export class JuteReader {
  /** What the reader reads from; the input is `source[start, start + end)`. */
  private source: Uint8Array;
  private start: number;
  /** `source.buffer`, read once per source: the getter crosses into C++, a cost per frame otherwise. */
  private buffer: ArrayBufferLike;
  private view: DataView;
  /** Offset of the input's first byte inside the view's buffer. */
  private base: number;
  /** Position and length, both relative to the input's first byte. */
  private pos: number;
  private end: number;
  private limit: number;

  constructor(bytes: Uint8Array, options: { offset?: number; maxLength?: number } = {}) {
    this.source = bytes;
    this.start = 0;
    this.buffer = bytes.buffer;
    this.view = viewOf(this.buffer);
    this.base = bytes.byteOffset;
    this.pos = options.offset ?? 0;
    this.end = bytes.byteLength;
    this.limit = options.maxLength ?? DEFAULT_MAX_PACKET;
  }

  /** The largest length or count accepted from the input (ProtocolError above it). */
  get maxLength(): number {
    return this.limit;
  }

  /**
   * Points this reader at `bytes[start, end)` from its first byte, as a new reader over that subarray would be,
   * without making the subarray: a connection reads every frame of a socket read through one reader this way.
   */
  reset(bytes: Uint8Array, start: number, end: number, maxLength = DEFAULT_MAX_PACKET): this {
    if (!(start >= 0 && start <= end && end <= bytes.byteLength)) {
      throw new ProtocolError(`reader range ${start}..${end} outside ${bytes.byteLength} bytes`, 0);
    }
    if (bytes !== this.source) {
      this.source = bytes;
      this.buffer = bytes.buffer;
      this.view = viewOf(this.buffer);
    }
    this.start = start;
    this.base = bytes.byteOffset + start;
    this.pos = 0;
    this.end = end - start;
    this.limit = maxLength;
    return this;
  }

  /** The input (a view made on demand when the reader reads part of a larger array, see reset). */
  get bytes(): Uint8Array {
    const s = this.source;
    return this.start === 0 && this.end === s.byteLength ? s : s.subarray(this.start, this.start + this.end);
  }

  /** The input's length in bytes. */
  get length(): number {
    return this.end;
  }

  /**
   * The 8 bytes at the current position as two signed 32-bit halves compared with `high` and `low`, without
   * moving: true when they are equal. False when fewer than 8 bytes are left (the read that follows fails).
   */
  nextLongIs(high: number, low: number): boolean {
    if (this.end - this.pos < 8) return false;
    const at = this.base + this.pos;
    return this.view.getInt32(at) === high && this.view.getInt32(at + 4) === low;
  }

  /** Bytes read so far. */
  get offset(): number {
    return this.pos;
  }

  /** Bytes left. */
  get remaining(): number {
    return this.end - this.pos;
  }

  private need(n: number, what: string): void {
    if (n > this.end - this.pos) {
      throw new ProtocolError(`truncated ${what}: need ${n} bytes, ${this.end - this.pos} left`, this.pos);
    }
  }

  /** A 32-bit signed int. */
  readInt(): number {
    this.need(4, 'int');
    const v = this.view.getInt32(this.base + this.pos);
    this.pos += 4;
    return v;
  }

  /** A 64-bit signed long, as a bigint. */
  readLong(): bigint {
    this.need(8, 'long');
    const v = this.view.getBigInt64(this.base + this.pos);
    this.pos += 8;
    return v;
  }

  /**
   * readLong for fields that often repeat between records (a Stat's zxids and times when the same node is read
   * again): when the 8 bytes equal the ones `memo` saw last, its bigint is returned instead of a new one.
   * bigints are immutable, so sharing one is invisible to callers; it only spares an allocation.
   */
  readLongMemo(memo: LongMemo): bigint {
    this.need(8, 'long');
    const at = this.base + this.pos;
    const high = this.view.getInt32(at);
    const low = this.view.getInt32(at + 4);
    this.pos += 8;
    if (high !== memo.high || low !== memo.low) {
      memo.high = high;
      memo.low = low;
      // One bigint, where composing the halves would make four.
      memo.value = this.view.getBigInt64(at);
    }
    return memo.value;
  }

  /**
   * A long as a number, for fields that are quantities rather than ids: a Stat's ctime and mtime (ms since the
   * epoch, which `new Date()` takes). Exact below 2^53; no bigint is made, so this costs less than readLong.
   */
  readLongNumber(): number {
    this.need(8, 'long');
    const at = this.base + this.pos;
    const high = this.view.getInt32(at);
    const low = this.view.getUint32(at + 4);
    this.pos += 8;
    return high * 0x1_0000_0000 + low;
  }

  /** A one-byte boolean. */
  readBool(): boolean {
    this.need(1, 'boolean');
    const v = this.source[this.start + this.pos] !== 0;
    this.pos += 1;
    return v;
  }

  /** A length prefix: -1 → null; other negatives and lengths past the bound are protocol errors. */
  private readLength(what: string, elementMinSize: number): number | null {
    const at = this.pos;
    const len = this.readInt();
    if (len === -1) return null;
    if (len < 0) throw new ProtocolError(`negative ${what} length ${len}`, at);
    if (len > this.limit) throw new ProtocolError(`${what} length ${len} exceeds max ${this.limit}`, at);
    // A count of N elements needs at least N * elementMinSize bytes: reject before allocating anything.
    if (len * elementMinSize > this.end - this.pos) {
      throw new ProtocolError(`${what} length ${len} exceeds the ${this.end - this.pos} bytes left`, at);
    }
    return len;
  }

  /** Bytes as a borrowed view into the input, or null. */
  readBuffer(): Uint8Array | null {
    const len = this.readLength('buffer', 1);
    if (len === null) return null;
    // A view made from the buffer directly: cheaper than subarray's species lookup.
    const out = new Uint8Array(this.buffer, this.base + this.pos, len);
    this.pos += len;
    return out;
  }

  /** A length-prefixed UTF-8 string; length -1 is null. */
  readString(): string | null {
    const len = this.readLength('string', 1);
    if (len === null) return null;
    // Standard UTF-8 and Java's surrogate-per-unit form (see utf8.ts) both decode to the same string.
    const at = this.start + this.pos;
    const s = len === 0 ? '' : decodeString(this.source, at, at + len);
    this.pos += len;
    return s;
  }

  /**
   * A vector; `elementMinSize` is the smallest encoding of one element (4 for int/ustring/buffer, 8 for long),
   * used to refuse counts the frame cannot hold.
   */
  readVector<T>(readElement: (r: JuteReader) => T, elementMinSize = 1): T[] | null {
    const n = this.readLength('vector', Math.max(1, elementMinSize));
    if (n === null) return null;
    const out = new Array<T>(n);
    for (let i = 0; i < n; i++) out[i] = readElement(this);
    return out;
  }

  /**
   * `vector<ustring>`, the shape of children lists. Each name is decoded on its own on purpose: decoding the
   * region once and handing out substrings was faster, but V8 keeps such substrings as slices of the whole
   * listing, so a caller that kept one child name (a lock waiter keeping its predecessor's) pinned the entire
   * listing — about 100 KB per waiter with 1,000 waiters.
   */
  readStringVector(): (string | null)[] | null {
    return this.readVector(readStringElement, 4);
  }

  /** Steps over `n` bytes (e.g. a body nobody can interpret). */
  skip(n: number): void {
    this.need(n, 'bytes');
    this.pos += n;
  }

  /** Strings that the protocol never sends as null (paths in replies): null is refused. */
  readRequiredString(what: string): string {
    const at = this.pos;
    const s = this.readString();
    if (s === null) throw new ProtocolError(`unexpected null ${what}`, at);
    return s;
  }

  /** Fails unless the whole input was consumed (used where trailing bytes mean a misparse). */
  expectEnd(what: string): void {
    if (this.pos !== this.end) {
      throw new ProtocolError(`${this.end - this.pos} unexpected trailing bytes after ${what}`, this.pos);
    }
  }
}
