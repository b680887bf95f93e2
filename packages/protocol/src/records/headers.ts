/**
 * Frame headers (zookeeper.jute, module org.apache.zookeeper.proto).
 *
 *   class RequestHeader { int xid; int type; }             every request after the handshake
 *   class ReplyHeader   { int xid; long zxid; int err; }    every reply; the body follows only when err == 0
 *   class MultiHeader   { int type; boolean done; int err; } before each multi/multiRead sub-op and result
 *   class ErrorResponse { int err; }                        a failed multi result; also addWatch's reply
 */
import { longMemo, type JuteReader, type LongMemo } from '../jute/reader.js';
import type { JuteWriter } from '../jute/writer.js';

export interface RequestHeader {
  xid: number;
  type: number;
}

export const REQUEST_HEADER_SIZE = 8;

export function writeRequestHeader(w: JuteWriter, v: RequestHeader): void {
  w.writeInt(v.xid);
  w.writeInt(v.type);
}

export function readRequestHeader(r: JuteReader): RequestHeader {
  const xid = r.readInt();
  return { xid, type: r.readInt() };
}

export interface ReplyHeader {
  xid: number;
  zxid: bigint;
  err: number;
}

export const REPLY_HEADER_SIZE = 16;

export function writeReplyHeader(w: JuteWriter, v: ReplyHeader): void {
  w.writeInt(v.xid);
  w.writeLong(v.zxid);
  w.writeInt(v.err);
}

export function readReplyHeader(r: JuteReader): ReplyHeader {
  const xid = r.readInt();
  const zxid = r.readLong();
  return { xid, zxid, err: r.readInt() };
}

/** A ReplyHeader that is refilled for every reply of one connection (see fillReplyHeader). */
export interface ReplyHeaderSlot extends ReplyHeader {
  readonly zxidMemo: LongMemo;
}

export function replyHeaderSlot(): ReplyHeaderSlot {
  return { xid: 0, zxid: 0n, err: 0, zxidMemo: longMemo() };
}

/**
 * readReplyHeader for the client's hot path: fills `slot` in place and builds a bigint only when the zxid
 * differs from the previous reply's (reads between two writes all carry the same zxid), so a reply header
 * allocates nothing. The slot's fields are valid until the next call.
 */
export function fillReplyHeader(r: JuteReader, slot: ReplyHeaderSlot): ReplyHeaderSlot {
  slot.xid = r.readInt();
  slot.zxid = r.readLongMemo(slot.zxidMemo);
  slot.err = r.readInt();
  return slot;
}

export interface MultiHeader {
  type: number;
  done: boolean;
  err: number;
}

export function writeMultiHeader(w: JuteWriter, v: MultiHeader): void {
  w.writeInt(v.type);
  w.writeBool(v.done);
  w.writeInt(v.err);
}

export function readMultiHeader(r: JuteReader): MultiHeader {
  const type = r.readInt();
  const done = r.readBool();
  return { type, done, err: r.readInt() };
}

export interface ErrorResponse {
  err: number;
}

export function writeErrorResponse(w: JuteWriter, v: ErrorResponse): void {
  w.writeInt(v.err);
}

export function readErrorResponse(r: JuteReader): ErrorResponse {
  return { err: r.readInt() };
}
