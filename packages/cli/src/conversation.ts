/**
 * The codec's ConversationDecoder, fed the way `decode` and `proxy` see traffic: raw TCP chunks of both
 * directions (split into frames here, one FrameSplitter per direction) or ready frames (transcripts). Adds
 * what the codec cannot know: the connection id, the time of each frame and each reply's latency. Never
 * throws: anything undecodable becomes an 'error' line and the bytes keep flowing.
 */
import { ConversationDecoder, FrameSplitter } from '@zkts/protocol';
import type { ConversationEntry } from '@zkts/protocol';

import type { Direction } from './transcript.js';

export interface ConversationLine {
  readonly conn: number;
  /** Milliseconds since the epoch. */
  readonly time: number;
  /** Milliseconds since the connection opened. */
  readonly t: number;
  readonly dir: Direction;
  readonly entry: ConversationEntry;
  /** Replies (and ping/auth answers): milliseconds since the matching request. */
  readonly latencyMs?: number;
  /** The frame payload this line decodes (absent on framing errors), for transcripts. */
  readonly frame?: Uint8Array;
}

export class ConnectionConversation {
  readonly conn: number;
  readonly start: number;
  private readonly decoder = new ConversationDecoder();
  private readonly splitters: Record<Direction, FrameSplitter | null> = { c2s: new FrameSplitter(), s2c: new FrameSplitter() };
  /** When each request still waiting for its reply was seen, by xid. */
  private readonly sentAt = new Map<number, number>();
  counts = { frames: 0, requests: 0, replies: 0, events: 0, errors: 0 };

  constructor(conn: number, start: number) {
    this.conn = conn;
    this.start = start;
  }

  /** A chunk of one direction's byte stream. */
  bytes(dir: Direction, chunk: Uint8Array, time: number): ConversationLine[] {
    const splitter = this.splitters[dir];
    if (splitter === null) return [];
    let frames: Uint8Array[];
    try {
      frames = splitter.push(chunk);
    } catch (error) {
      // The length prefixes cannot be trusted any more: this direction is not decoded from here on.
      this.splitters[dir] = null;
      return [this.failure(dir, time, `${messageOf(error)}; no longer decoding ${dir === 'c2s' ? 'client' : 'server'} bytes of this connection`)];
    }
    return frames.map((frame) => this.frame(dir, frame, time));
  }

  /** One frame payload (without its length prefix). */
  frame(dir: Direction, frame: Uint8Array, time: number): ConversationLine {
    let entry: ConversationEntry;
    try {
      entry = this.decoder.decode(dir, frame);
    } catch (error) {
      return { ...this.failure(dir, time, messageOf(error)), frame };
    }
    this.counts.frames++;
    let latencyMs: number | undefined;
    const xid = entry.xid;
    if (xid !== undefined && xid !== -1) {
      if (dir === 'c2s') this.sentAt.set(xid, time);
      else {
        const sent = this.sentAt.get(xid);
        if (sent !== undefined) latencyMs = time - sent;
        this.sentAt.delete(xid);
      }
    }
    if (entry.kind === 'request') this.counts.requests++;
    else if (entry.kind === 'reply') this.counts.replies++;
    else if (entry.kind === 'event') this.counts.events++;
    else if (entry.kind === 'error') this.counts.errors++;
    const line: ConversationLine = { conn: this.conn, time, t: time - this.start, dir, entry, frame };
    return latencyMs === undefined ? line : { ...line, latencyMs };
  }

  /** The connection closed: a frame cut off in the middle is worth saying. */
  end(time: number): ConversationLine[] {
    const lines: ConversationLine[] = [];
    for (const dir of ['c2s', 's2c'] as const) {
      const buffered = this.splitters[dir]?.buffered ?? 0;
      if (buffered > 0) lines.push(this.failure(dir, time, `connection ended inside a frame (${buffered} bytes of it seen)`));
    }
    return lines;
  }

  private failure(dir: Direction, time: number, message: string): ConversationLine {
    this.counts.errors++;
    return { conn: this.conn, time, t: time - this.start, dir, entry: { index: -1, dir, kind: 'error', length: 0, error: message } };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
