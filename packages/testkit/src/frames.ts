import { refuse } from './option-checks.js';

/** ZooKeeper's framing: a 4-byte big-endian length, then that many bytes. */
export const MAX_FRAME = 0xfffff + 1024;

/** Cuts a byte stream into whole frames (each returned with its length prefix, ready to forward). */
export class FrameCutter {
  #pending: Buffer = Buffer.alloc(0);

  /** Bytes received but not yet a whole frame. */
  get pendingBytes(): number {
    return this.#pending.length;
  }

  /** The declared length of the first frame, once 4 bytes arrived. */
  peekLength(): number | undefined {
    return this.#pending.length >= 4 ? this.#pending.readInt32BE(0) : undefined;
  }

  /** Takes one chunk; returns the frames it completed. */
  push(chunk: Buffer): Buffer[] {
    if (!Buffer.isBuffer(chunk)) refuse('FrameCutter.push', 'chunk', 'a Buffer', chunk);
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const frames: Buffer[] = [];
    let offset = 0;
    while (this.#pending.length - offset >= 4) {
      const len = this.#pending.readInt32BE(offset);
      if (len < 0 || this.#pending.length - offset - 4 < len) break;
      frames.push(this.#pending.subarray(offset, offset + 4 + len));
      offset += 4 + len;
    }
    this.#pending = this.#pending.subarray(offset);
    return frames;
  }

  /** Everything buffered so far, for a connection that turns out not to speak the framed protocol. */
  drain(): Buffer {
    const rest = this.#pending;
    this.#pending = Buffer.alloc(0);
    return rest;
  }
}

/** The xid of a request or reply frame (the first int after the length), or undefined if too short. */
export function frameXid(frame: Buffer): number | undefined {
  return frame.length >= 8 ? frame.readInt32BE(4) : undefined;
}

export const PING_XID = -2;
export const NOTIFICATION_XID = -1;
