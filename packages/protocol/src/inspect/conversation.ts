/**
 * Decodes one connection's frames, both directions, into entries a person can read — what `zkts decode` and
 * the CLI's decoding proxy print.
 *
 * Replies carry only an xid, so the decoder remembers each request's opcode the way the client does: the
 * first frame each way is the handshake (no header); then requests go into a FIFO and each reply is matched
 * with the head. Notifications (xid -1), pings (-2) and auth (-4) bypass the FIFO. A reply whose xid is not at
 * the head is still matched by xid when possible, with a note, because a decoder must explain a broken
 * conversation rather than stop at it.
 *
 * Garbage frames become entries of kind 'error' carrying the ProtocolError message; the decoder never throws,
 * except `ProtocolError` when built with `strict: true`.
 */
import { serverCodeName } from '../errors/codes.js';
import { ProtocolError } from '../errors/errors.js';
import { DEFAULT_MAX_PACKET, JuteReader } from '../codec/jute/reader.js';
import { readConnectRequest, readConnectResponse } from '../codec/records/connect.js';
import {
  addWatchModeName,
  createFlagsName,
  eventTypeName,
  keeperStateName,
  OpCode,
  opName,
  watcherTypeName,
  Xid,
} from '../codec/records/constants.js';
import { readReplyHeader, readRequestHeader } from '../codec/records/headers.js';
import { readWatcherEvent } from '../codec/records/watches.js';
import { FrameSplitter } from '../codec/frame.js';
import { previewBytes, toJson, type JsonObject, type JsonValue } from './json.js';
import { firstMultiError, type MultiOp, type MultiResult } from '../codec/multi.js';
import { requestCodecFor, responseReaderFor } from '../codec/ops.js';

/** Which way a frame went: client to server, or server to client. */
export type Direction = 'c2s' | 's2c';
/** What a decoded frame was. */
export type ConversationEntryKind = 'connect' | 'connected' | 'request' | 'reply' | 'event' | 'ping' | 'auth' | 'error';

/** One decoded frame of a conversation, with what it means (the request a reply answers, the op name, the decoded body). */
export interface ConversationEntry {
  /** Position of the frame in the conversation, from 0. */
  index: number;
  dir: Direction;
  kind: ConversationEntryKind;
  /** Payload bytes (without the length prefix). */
  length: number;
  xid?: number;
  /** Readable op name ('create', 'multi', 'op(42)'); on a reply, the op of the matching request. */
  op?: string;
  opCode?: number;
  /** The request's path (also shown on its reply). */
  path?: string | null;
  /** Replies: decimal string. */
  zxid?: string;
  /** Replies: 'OK', 'NO_NODE', … ('SERVER_ERROR' for a code outside the table); errCode is the number. */
  err?: string;
  errCode?: number;
  /** The decoded record as JSON: longs as decimal strings, bytes as previews, codes as names. */
  body?: JsonObject;
  /** Anomalies worth a look: out-of-order xids, trailing bytes, unknown opcodes. */
  notes?: string[];
  /** kind 'error': the ProtocolError message. */
  error?: string;
}

/** Options of the conversation decoder. */
export interface ConversationDecoderOptions {
  /** Bytes of data shown per buffer (default 64). */
  previewBytes?: number;
  /** Show auth credentials and session passwords instead of just their length (default false). */
  revealSecrets?: boolean;
  /** Bound for lengths inside frames (default 0xfffff). */
  maxPacket?: number;
  /** Throw the ProtocolError instead of returning an 'error' entry (default false). */
  strict?: boolean;
}

/** Requests remembered while waiting for replies (the server's own outstanding limit is 1000 by default). */
const MAX_PENDING = 100_000;

interface Pending {
  xid: number;
  opCode: number;
  path: string | null | undefined;
}

/** Decodes the frames of one client-server connection in order. It remembers the requests in flight, so a reply is decoded with the record its request's opcode implies. */
export class ConversationDecoder {
  private readonly limit: number;
  private readonly reveal: boolean;
  private readonly maxPacket: number;
  private readonly strict: boolean;
  private index = 0;
  private readonly handshakeDone: Record<Direction, boolean> = { c2s: false, s2c: false };
  private pending: Pending[] = [];

  constructor(options: ConversationDecoderOptions = {}) {
    this.limit = options.previewBytes ?? 64;
    this.reveal = options.revealSecrets ?? false;
    this.maxPacket = options.maxPacket ?? DEFAULT_MAX_PACKET;
    this.strict = options.strict ?? false;
  }

  /** Requests still waiting for their reply, oldest first. */
  get outstanding(): number {
    return this.pending.length;
  }

  /** An 'error' entry at the next index (framing errors found outside `decode`). */
  errorEntry(dir: Direction, length: number, message: string): ConversationEntry {
    return { index: this.index++, dir, kind: 'error', length, error: message };
  }

  /** Decodes the next frame (payload without its length prefix) of the conversation. */
  decode(dir: Direction, frame: Uint8Array): ConversationEntry {
    const entry: ConversationEntry = { index: this.index++, dir, kind: 'error', length: frame.byteLength };
    const r = new JuteReader(frame, { maxLength: this.maxPacket });
    try {
      if (!this.handshakeDone[dir]) {
        this.handshakeDone[dir] = true;
        if (dir === 'c2s') this.connect(r, entry);
        else this.connected(r, entry);
      } else if (dir === 'c2s') {
        this.request(r, entry);
      } else {
        this.reply(r, entry);
      }
      if (r.remaining > 0) note(entry, `${r.remaining} trailing bytes`);
    } catch (err) {
      if (!(err instanceof ProtocolError) || this.strict) throw err;
      entry.kind = 'error';
      entry.error = err.message;
    }
    return entry;
  }

  private connect(r: JuteReader, e: ConversationEntry): void {
    const v = readConnectRequest(r);
    e.kind = 'connect';
    e.body = {
      protocolVersion: v.protocolVersion,
      lastZxidSeen: v.lastZxidSeen.toString(),
      timeOut: v.timeOut,
      sessionId: v.sessionId.toString(),
      passwd: this.secret(v.passwd),
      readOnly: v.readOnly ?? null,
    };
  }

  private connected(r: JuteReader, e: ConversationEntry): void {
    const v = readConnectResponse(r);
    e.kind = 'connected';
    e.body = {
      protocolVersion: v.protocolVersion,
      timeOut: v.timeOut,
      sessionId: v.sessionId.toString(),
      passwd: this.secret(v.passwd),
      readOnly: v.readOnly ?? null,
      // timeOut <= 0 is how the server says the session is gone.
      expired: v.timeOut <= 0,
    };
  }

  private request(r: JuteReader, e: ConversationEntry): void {
    const { xid, type } = readRequestHeader(r);
    e.kind = xid === Xid.PING && type === OpCode.ping ? 'ping' : type === OpCode.auth ? 'auth' : 'request';
    e.xid = xid;
    e.op = opName(type);
    e.opCode = type;
    // Remembered before the body is read, so a reply still finds its op when the request body is garbage.
    // Ping and auth replies come back outside the FIFO; everything else, setWatches included, is matched in order.
    const pending: Pending = { xid, opCode: type, path: undefined };
    if (xid !== Xid.PING && xid !== Xid.AUTH) {
      this.pending.push(pending);
      // A peer that never answers must not grow a long-running proxy's memory without bound.
      if (this.pending.length > MAX_PENDING) {
        this.pending.shift();
        note(e, `more than ${MAX_PENDING} requests unanswered: forgot the oldest`);
      }
    }
    const c = requestCodecFor(type);
    if (c === undefined) {
      note(e, `unknown opcode ${type}`);
      if (r.remaining > 0) e.body = { raw: previewBytes(r.bytes.subarray(r.offset), this.limit) };
      r.skip(r.remaining);
    } else if (c !== null) {
      const v = c.read(r);
      e.body = this.describeRequest(type, v);
      pending.path = requestPath(v);
      if (pending.path !== undefined) e.path = pending.path;
    }
  }

  private reply(r: JuteReader, e: ConversationEntry): void {
    const h = readReplyHeader(r);
    e.xid = h.xid;
    e.zxid = h.zxid.toString();
    e.err = h.err === 0 ? 'OK' : serverCodeName(h.err);
    e.errCode = h.err;
    if (h.xid === Xid.NOTIFICATION) {
      e.kind = 'event';
      e.op = opName(OpCode.notification);
      e.opCode = OpCode.notification;
      const ev = readWatcherEvent(r);
      e.path = ev.path;
      e.body = { type: eventTypeName(ev.type), state: keeperStateName(ev.state), path: ev.path };
      return;
    }
    if (h.xid === Xid.PING || h.xid === Xid.AUTH) {
      e.kind = h.xid === Xid.PING ? 'ping' : 'auth';
      e.op = opName(h.xid === Xid.PING ? OpCode.ping : OpCode.auth);
      e.opCode = h.xid === Xid.PING ? OpCode.ping : OpCode.auth;
      return;
    }
    e.kind = 'reply';
    const req = this.match(h.xid, e);
    if (req === undefined) {
      if (r.remaining > 0) e.body = { raw: previewBytes(r.bytes.subarray(r.offset), this.limit) };
      r.skip(r.remaining);
      return;
    }
    e.op = opName(req.opCode);
    e.opCode = req.opCode;
    if (req.path !== undefined) e.path = req.path;
    // The body follows only on success (ClientCnxn reads it only when err == 0).
    if (h.err !== 0) return;
    const read = responseReaderFor(req.opCode);
    if (read === undefined) {
      if (r.remaining > 0) e.body = { raw: previewBytes(r.bytes.subarray(r.offset), this.limit) };
      r.skip(r.remaining);
    } else if (read !== null) {
      e.body = this.describeResponse(req.opCode, read(r));
    }
  }

  /** The pending request a reply answers: the FIFO head, or (noted) the same xid further back. */
  private match(xid: number, e: ConversationEntry): Pending | undefined {
    const head = this.pending[0];
    if (head !== undefined && head.xid === xid) return this.pending.shift();
    const at = this.pending.findIndex((p) => p.xid === xid);
    if (at < 0) {
      note(e, head === undefined ? 'no request is waiting for a reply' : `no request with this xid (expected xid ${head.xid})`);
      return undefined;
    }
    note(e, `xid out of order (expected xid ${head?.xid ?? '?'})`);
    return this.pending.splice(at, 1)[0];
  }

  private describeRequest(op: number, v: unknown): JsonObject {
    if (op === OpCode.multi || op === OpCode.multiRead) {
      return { ops: (v as MultiOp[]).map((sub) => this.describeRequest(OpCode[sub.op], sub)) };
    }
    const body = toJson(v, this.limit) as JsonObject;
    if (op === OpCode.auth) {
      const auth = (v as { auth: Uint8Array | null }).auth;
      body.auth = this.secret(auth);
    }
    if (typeof body.flags === 'number') body.flags = createFlagsName(body.flags);
    if (op === OpCode.addWatch && typeof body.mode === 'number') body.mode = addWatchModeName(body.mode);
    if ((op === OpCode.checkWatches || op === OpCode.removeWatches) && typeof body.type === 'number') {
      body.type = watcherTypeName(body.type);
    }
    return body;
  }

  private describeResponse(op: number, v: unknown): JsonObject {
    if (op === OpCode.multi || op === OpCode.multiRead) {
      const results = v as MultiResult[];
      const body: JsonObject = {
        results: results.map((res) =>
          res.op === 'error' ? { op: 'error', err: codeName(res.err), errCode: res.err } : (toJson(res, this.limit) as JsonObject),
        ),
      };
      const failed = firstMultiError(results);
      if (failed !== undefined && op === OpCode.multi) body.failed = { index: failed.index, err: codeName(failed.err) };
      return body;
    }
    if (op === OpCode.addWatch) {
      const err = (v as { err: number }).err;
      return { err: codeName(err) };
    }
    return toJson(v, this.limit) as JsonObject;
  }

  private secret(b: Uint8Array | null): JsonValue {
    if (b === null) return null;
    return this.reveal ? previewBytes(b, this.limit) : { length: b.byteLength, redacted: true };
  }
}

function codeName(err: number): string {
  return err === 0 ? 'OK' : serverCodeName(err);
}

function note(e: ConversationEntry, text: string): void {
  (e.notes ??= []).push(text);
}

function requestPath(v: unknown): string | null | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  if ('path' in v) return v.path as string | null;
  if ('prefixPath' in v) return v.prefixPath as string | null;
  return undefined;
}

/** Decodes a whole recorded conversation. */
export function decodeConversation(
  frames: Iterable<{ dir: Direction; frame: Uint8Array }>,
  options?: ConversationDecoderOptions,
): ConversationEntry[] {
  const d = new ConversationDecoder(options);
  const out: ConversationEntry[] = [];
  for (const f of frames) out.push(d.decode(f.dir, f.frame));
  return out;
}

/**
 * A decoder fed with raw TCP chunks of both directions, as a proxy sees them: one FrameSplitter per direction.
 * A framing error yields one 'error' entry and that direction is ignored from then on (its framing is lost).
 */
export class ConversationStream {
  private readonly decoder: ConversationDecoder;
  private readonly splitters: Record<Direction, FrameSplitter | null>;

  constructor(options: ConversationDecoderOptions = {}) {
    this.decoder = new ConversationDecoder(options);
    const framing = options.maxPacket === undefined ? {} : { maxPacket: options.maxPacket };
    this.splitters = { c2s: new FrameSplitter(framing), s2c: new FrameSplitter(framing) };
  }

  /** Takes one TCP chunk in one direction; returns the entries of every frame it completed. */
  push(dir: Direction, chunk: Uint8Array): ConversationEntry[] {
    const splitter = this.splitters[dir];
    if (splitter === null) return [];
    const out: ConversationEntry[] = [];
    let frames: Uint8Array[];
    try {
      frames = splitter.push(chunk);
    } catch (err) {
      if (!(err instanceof ProtocolError)) throw err;
      this.splitters[dir] = null;
      return [this.decoder.errorEntry(dir, chunk.byteLength, err.message)];
    }
    for (const f of frames) out.push(this.decoder.decode(dir, f));
    return out;
  }
}
