/**
 * The codec's ConversationDecoder, fed the way `decode` and `proxy` see traffic: raw TCP chunks of both
 * directions (split into frames here, one FrameSplitter per direction) or ready frames (transcripts). Adds
 * what the codec cannot know: the connection id, the time of each frame and each reply's latency. Never
 * throws: anything undecodable becomes an 'error' line and the bytes keep flowing.
 */
import { ConversationDecoder, FrameSplitter } from '@zkts/protocol/inspect';
import type { ConversationEntry } from '@zkts/protocol/inspect';

import type { Direction } from './transcript.js';

/** Unanswered requests timed per connection: a peer that never replies must not grow a proxy's memory. */
export const MAX_UNANSWERED = 100_000;

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
  private readonly streams: Record<Direction, StreamState> = { c2s: newStream(), s2c: newStream() };
  /** When each request still waiting for its reply was seen, by xid. */
  private readonly sentAt = new Map<number, number>();
  counts = { frames: 0, requests: 0, replies: 0, events: 0, errors: 0 };

  /** Requests still waiting for their reply's time (at most MAX_UNANSWERED). */
  get unanswered(): number {
    return this.sentAt.size;
  }

  constructor(conn: number, start: number) {
    this.conn = conn;
    this.start = start;
  }

  /** A chunk of one direction's byte stream. */
  bytes(dir: Direction, chunk: Uint8Array, time: number): ConversationLine[] {
    const stream = this.streams[dir];
    const splitter = stream.splitter;
    if (splitter === null) return [];
    let frames: Uint8Array[];
    try {
      frames = splitter.push(chunk);
    } catch (error) {
      // The length prefixes cannot be trusted any more: this direction is not decoded from here on. The
      // frames before the bad prefix still count: replay the bytes up to it into a fresh splitter.
      stream.splitter = null;
      const lines = this.replayBefore(stream, chunk, error, time, dir);
      stream.pushed += chunk.byteLength;
      lines.push(this.failure(dir, time, `${messageOf(error)}; no longer decoding ${dir === 'c2s' ? 'client' : 'server'} bytes of this connection`));
      return lines;
    }
    stream.pushed += chunk.byteLength;
    keepTail(stream, chunk, splitter.buffered);
    return frames.map((frame) => this.frame(dir, frame, time));
  }

  private replayBefore(stream: StreamState, chunk: Uint8Array, error: unknown, time: number, dir: Direction): ConversationLine[] {
    const offset = (error as { offset?: unknown }).offset;
    if (typeof offset !== 'number') return [];
    const held = stream.tail.reduce((n, c) => n + c.byteLength, 0);
    const bytes = concat([...stream.tail, chunk]).subarray(0, Math.max(0, offset - (stream.pushed - held)));
    try {
      return new FrameSplitter().push(bytes).map((frame) => this.frame(dir, frame, time));
    } catch {
      return [];
    }
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
      if (dir === 'c2s') {
        // Re-inserted so the Map's order stays oldest-sent first and the oldest is what gets forgotten.
        this.sentAt.delete(xid);
        this.sentAt.set(xid, time);
        if (this.sentAt.size > MAX_UNANSWERED) this.sentAt.delete(this.sentAt.keys().next().value as number);
      } else {
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
      const buffered = this.streams[dir].splitter?.buffered ?? 0;
      if (buffered > 0) lines.push(this.failure(dir, time, `connection ended inside a frame (${buffered} bytes of it seen)`));
    }
    return lines;
  }

  private failure(dir: Direction, time: number, message: string): ConversationLine {
    this.counts.errors++;
    return { conn: this.conn, time, t: time - this.start, dir, entry: { index: -1, dir, kind: 'error', length: 0, error: message } };
  }
}

interface StreamState {
  splitter: FrameSplitter | null;
  /** Bytes pushed so far (the splitter's error offsets count from the start of the stream). */
  pushed: number;
  /** The chunks holding the splitter's incomplete frame, so it can be replayed after a framing error. */
  tail: Uint8Array[];
}

function newStream(): StreamState {
  return { splitter: new FrameSplitter(), pushed: 0, tail: [] };
}

/** Keeps just enough of the latest chunks to cover the `buffered` bytes the splitter holds back. */
function keepTail(stream: StreamState, chunk: Uint8Array, buffered: number): void {
  if (buffered === 0) {
    stream.tail = [];
    return;
  }
  stream.tail.push(chunk);
  let held = stream.tail.reduce((n, c) => n + c.byteLength, 0);
  while (stream.tail.length > 1 && held - (stream.tail[0]?.byteLength ?? 0) >= buffered) held -= stream.tail.shift()?.byteLength ?? 0;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
