/**
 * Length-prefixed framing: every ZooKeeper frame, both ways, is `int length` (4 bytes, big-endian) followed by
 * that many bytes (ClientCnxn.Packet.createBB, ClientCnxnSocket.readLength).
 *
 * `FrameSplitter` is incremental and accepts any chunking. A frame that sits inside one chunk is returned as a
 * view of that chunk (no copy); only a frame that spans chunks is assembled into its own buffer, allocated once
 * its length is known and checked. A length outside 0..maxPacket is a `ProtocolError` before anything is
 * allocated, and the splitter stays failed: the byte stream has lost its framing for good. A stream that opens
 * with "HTTP" is a web server's answer (the AdminServer's port given for the client port), a NotZooKeeperError.
 */
import { InvalidArgumentError, NotZooKeeperError, ProtocolError } from '../errors/errors.js';
import { DEFAULT_MAX_PACKET } from './jute/reader.js';

/** "HTTP" read as a big-endian length: the first bytes of every HTTP response. */
const HTTP = 0x48545450;

/** Options of a FrameSplitter. */
export interface FrameSplitterOptions {
  /** Largest accepted frame payload in bytes; ZooKeeper's jute.maxbuffer (default 0xfffff). */
  maxPacket?: number;
}

/** Receives the frames FrameSplitter.each completes: `bytes[start, end)` is one payload, valid during the call. */
export interface FrameSink {
  /** One whole frame's payload, `bytes[start, end)`; `bytes` may be reused after the call returns. */
  frame(bytes: Uint8Array, start: number, end: number): void;
}

/** Splits a TCP byte stream into ZooKeeper frames (a 4-byte length, then that many bytes), whatever the chunk boundaries; refuses lengths over `maxPacket`. */
export class FrameSplitter {
  readonly maxPacket: number;
  /**
   * The length prefix of the next frame when it arrived split across chunks: made the first time that happens
   * (an idle connection in a pool of thousands never needs it).
   */
  private head: Uint8Array | null = null;
  private headFill = 0;
  /** The frame being assembled across chunks, and how much of it has arrived. */
  private partial: Uint8Array | null = null;
  private partialFill = 0;
  private failure: ProtocolError | null = null;
  /** Stream offset of the next byte pushed (for error messages). */
  private streamOffset = 0;

  constructor(options: FrameSplitterOptions = {}) {
    this.maxPacket = options.maxPacket ?? DEFAULT_MAX_PACKET;
  }

  /** Bytes held back for an incomplete frame (prefix included). */
  get buffered(): number {
    return this.partial === null ? this.headFill : 4 + this.partialFill;
  }

  /**
   * Feeds one chunk; returns the frame payloads it completed, in order. Views into `chunk` are returned for
   * frames wholly inside it, so the caller must not reuse `chunk` while it holds them.
   */
  push(chunk: Uint8Array): Uint8Array[] {
    const frames: Uint8Array[] = [];
    this.each(chunk, chunk.byteLength, { frame: (bytes, start, end) => frames.push(bytes.subarray(start, end)) });
    return frames;
  }

  /**
   * Feeds `chunk[0, length)` and hands each frame it completes to `sink` at once, in order, as a range of an
   * array (the chunk itself for a frame wholly inside it): no view or array is made per frame. The range is valid
   * during the call only. A sink that throws leaves the rest of the chunk unread: reset() before reusing.
   */
  each(chunk: Uint8Array, length: number, sink: FrameSink): void {
    if (this.failure !== null) throw this.failure;
    if (!(length >= 0 && length <= chunk.byteLength)) {
      throw new InvalidArgumentError('length', `length ${length} outside the chunk's ${chunk.byteLength} bytes`);
    }
    const end = length;
    let pos = 0;
    try {
      // Finish what the previous chunks started.
      if (this.headFill > 0 || this.partial !== null) {
        pos = this.continuePending(chunk, end, sink);
        if (this.headFill > 0 || this.partial !== null) return;
      }
      // Fast path: whole frames inside this chunk are ranges of it.
      while (end - pos >= 4) {
        const len = this.checkLength(
          ((chunk[pos] as number) << 24) | ((chunk[pos + 1] as number) << 16) | ((chunk[pos + 2] as number) << 8) | (chunk[pos + 3] as number),
          pos,
        );
        if (end - pos - 4 >= len) {
          pos += 4 + len;
          sink.frame(chunk, pos - len, pos);
        } else {
          this.partial = new Uint8Array(len);
          this.partial.set(chunk.subarray(pos + 4, end));
          this.partialFill = end - pos - 4;
          pos = end;
        }
      }
      if (pos < end) {
        (this.head ??= new Uint8Array(4)).set(chunk.subarray(pos, end));
        this.headFill = end - pos;
        pos = end;
      }
    } finally {
      this.streamOffset += end;
    }
  }

  /** Forgets any partial frame and a previous failure (for a new connection). */
  reset(): void {
    this.headFill = 0;
    this.partial = null;
    this.partialFill = 0;
    this.failure = null;
    this.streamOffset = 0;
  }

  /** Completes the split prefix and/or frame from the start of `chunk`; returns the bytes consumed. */
  private continuePending(chunk: Uint8Array, end: number, sink: FrameSink): number {
    let pos = 0;
    if (this.partial === null) {
      // headFill > 0 here, so the prefix buffer exists.
      const h = this.head as Uint8Array;
      const take = Math.min(4 - this.headFill, end);
      h.set(chunk.subarray(0, take), this.headFill);
      this.headFill += take;
      pos = take;
      if (this.headFill < 4) return pos;
      const len = this.checkLength(
        ((h[0] as number) << 24) | ((h[1] as number) << 16) | ((h[2] as number) << 8) | (h[3] as number),
        pos - 4,
      );
      this.headFill = 0;
      if (end - pos >= len) {
        // The frame itself is whole in this chunk: still a range of it.
        sink.frame(chunk, pos, pos + len);
        return pos + len;
      }
      this.partial = new Uint8Array(len);
      this.partialFill = 0;
    }
    const partial = this.partial;
    const take = Math.min(partial.byteLength - this.partialFill, end - pos);
    partial.set(chunk.subarray(pos, pos + take), this.partialFill);
    this.partialFill += take;
    pos += take;
    if (this.partialFill === partial.byteLength) {
      this.partial = null;
      this.partialFill = 0;
      sink.frame(partial, 0, partial.byteLength);
    }
    return pos;
  }

  private checkLength(len: number, at: number): number {
    // Checked before the bound, which a large maxPacket could lift above this value.
    if (len === HTTP && this.streamOffset + at === 0) {
      this.failure = new NotZooKeeperError('HTTP', 'not a ZooKeeper client port (an HTTP server: the AdminServer?)');
      throw this.failure;
    }
    if (len < 0 || len > this.maxPacket) {
      this.failure = new ProtocolError(`frame length ${len} out of range 0..${this.maxPacket}`, this.streamOffset + at);
      throw this.failure;
    }
    return len;
  }
}

/** Prefixes `payload` with its 4-byte big-endian length (a copy; for tests, proxies and tools). */
export function frameWithLength(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + payload.byteLength);
  new DataView(out.buffer).setInt32(0, payload.byteLength);
  out.set(payload, 4);
  return out;
}
