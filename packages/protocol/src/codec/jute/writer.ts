/**
 * Jute binary output (org.apache.jute.BinaryOutputArchive) into one growable buffer that is reused from
 * frame to frame. Encodings: see reader.ts.
 *
 * Typical use for a request frame: `w.reset(); w.beginFrame(); …fields…; const bytes = w.endFrame();`.
 * `endFrame()` back-patches the 4-byte length prefix and returns a view of the internal buffer, valid until the
 * next `reset()`: callers that queue the bytes take `toBytes()` (a copy) instead.
 */
import { encodeStringInto, type StringEncoding } from './utf8.js';

/**
 * Every `new Uint8Array(n)` allocates its own ArrayBuffer, which costs microseconds, far more than encoding a
 * small frame. Copies up to SLAB_MAX bytes are cut from a shared 64 KiB slab instead, as Node's Buffer pool
 * does; a slab is dropped (and collected once its views are) when full.
 */
const SLAB_SIZE = 64 * 1024;
const SLAB_MAX = 4 * 1024;
let slab = new Uint8Array(SLAB_SIZE);
let slabPos = 0;

function copyOut(src: Uint8Array): Uint8Array {
  const n = src.byteLength;
  if (n > SLAB_MAX) return src.slice();
  if (slabPos + n > SLAB_SIZE) {
    slab = new Uint8Array(SLAB_SIZE);
    slabPos = 0;
  }
  const out = slab.subarray(slabPos, slabPos + n);
  out.set(src);
  // 8-byte aligned starts keep DataViews over the copies on aligned offsets.
  slabPos = (slabPos + n + 7) & ~7;
  return out;
}

/** Writes Jute primitives into a growing buffer, and frames them (beginFrame/endFrame put the 4-byte length in front). */
export class JuteWriter {
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;
  private frameStart = -1;
  /** 'utf8' (default) or 'java': Java's byte-exact surrogate-per-unit form, see utf8.ts. */
  readonly stringEncoding: StringEncoding;

  constructor(initialSize = 1024, options: { stringEncoding?: StringEncoding } = {}) {
    this.buf = new Uint8Array(Math.max(16, initialSize));
    this.view = new DataView(this.buf.buffer);
    this.stringEncoding = options.stringEncoding ?? 'utf8';
  }

  /** Bytes written so far. */
  get length(): number {
    return this.pos;
  }

  /** Bytes the buffer holds before it has to grow. */
  get capacity(): number {
    return this.buf.byteLength;
  }

  /** Drops everything written after `length` (e.g. a frame that turned out too big). */
  truncate(length: number): this {
    if (length < 0 || length > this.pos) throw new RangeError(`truncate(${length}) outside 0..${this.pos}`);
    this.pos = length;
    this.frameStart = -1;
    return this;
  }

  /** Empties the writer for reuse, keeping its buffer. */
  reset(): this {
    this.pos = 0;
    this.frameStart = -1;
    return this;
  }

  private ensure(n: number): void {
    const need = this.pos + n;
    if (need <= this.buf.byteLength) return;
    let size = this.buf.byteLength * 2;
    while (size < need) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /** A 32-bit signed int. */
  writeInt(v: number): this {
    this.ensure(4);
    this.view.setInt32(this.pos, v);
    this.pos += 4;
    return this;
  }

  /** A 64-bit signed long. */
  writeLong(v: bigint): this {
    this.ensure(8);
    // setBigInt64 wraps modulo 2^64 by itself (ToBigInt64), so out-of-range values never throw.
    this.view.setBigInt64(this.pos, v);
    this.pos += 8;
    return this;
  }

  /** A one-byte boolean. */
  writeBool(v: boolean): this {
    this.ensure(1);
    this.buf[this.pos++] = v ? 1 : 0;
    return this;
  }

  /** A length-prefixed byte buffer; null is written as length -1. */
  writeBuffer(v: Uint8Array | null): this {
    if (v === null) return this.writeInt(-1);
    this.writeInt(v.byteLength);
    this.ensure(v.byteLength);
    this.buf.set(v, this.pos);
    this.pos += v.byteLength;
    return this;
  }

  /** A length-prefixed UTF-8 string; null is written as length -1. */
  writeString(v: string | null): this {
    if (v === null) return this.writeInt(-1);
    // Worst case 3 bytes per UTF-16 unit; encode in place, then patch the length.
    this.ensure(4 + v.length * 3);
    const lenAt = this.pos;
    this.pos += 4;
    const written = encodeStringInto(v, this.buf, this.pos, this.stringEncoding);
    this.view.setInt32(lenAt, written);
    this.pos += written;
    return this;
  }

  /** A vector: its count (-1 for null), then each element written by `writeElement`. */
  writeVector<T>(v: readonly T[] | null, writeElement: (w: JuteWriter, e: T) => void): this {
    if (v === null) return this.writeInt(-1);
    this.writeInt(v.length);
    for (const e of v) writeElement(this, e);
    return this;
  }

  /** Raw bytes, no length prefix. */
  writeRaw(v: Uint8Array): this {
    this.ensure(v.byteLength);
    this.buf.set(v, this.pos);
    this.pos += v.byteLength;
    return this;
  }

  /** Reserves the 4-byte length prefix of a frame. */
  beginFrame(): this {
    this.frameStart = this.pos;
    return this.writeInt(0);
  }

  /** Back-patches the frame length; returns a view (prefix included) valid until the next reset. */
  endFrame(): Uint8Array {
    if (this.frameStart < 0) throw new Error('endFrame without beginFrame');
    this.view.setInt32(this.frameStart, this.pos - this.frameStart - 4);
    const out = this.buf.subarray(this.frameStart, this.pos);
    this.frameStart = -1;
    return out;
  }

  /** endFrame without the view: back-patches the length and returns the payload size (no allocation). */
  endFrameLength(): number {
    if (this.frameStart < 0) throw new Error('endFrame without beginFrame');
    const size = this.pos - this.frameStart - 4;
    this.view.setInt32(this.frameStart, size);
    this.frameStart = -1;
    return size;
  }

  /** A view of everything written since reset, valid until the next reset. */
  bytesView(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  /**
   * A copy of everything written since reset, owned by the caller. Small copies are views into a shared slab
   * (see copyOut): use byteOffset/byteLength, never assume `.buffer` is yours alone.
   */
  toBytes(): Uint8Array {
    return copyOut(this.buf.subarray(0, this.pos));
  }
}
