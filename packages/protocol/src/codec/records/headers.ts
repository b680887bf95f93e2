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

/** The `RequestHeader` record of zookeeper.jute, field for field (see this file's header). */
export interface RequestHeader {
  xid: number;
  type: number;
}

/** Bytes of an encoded RequestHeader. */
export const REQUEST_HEADER_SIZE = 8;

/** Writes `v` as a `RequestHeader`. */
export function writeRequestHeader(w: JuteWriter, v: RequestHeader): void {
  w.writeInt(v.xid);
  w.writeInt(v.type);
}

/** Reads a `RequestHeader` from `r`. */
export function readRequestHeader(r: JuteReader): RequestHeader {
  const xid = r.readInt();
  return { xid, type: r.readInt() };
}

/** The `ReplyHeader` record of zookeeper.jute, field for field (see this file's header). */
export interface ReplyHeader {
  xid: number;
  zxid: bigint;
  err: number;
}

/** Bytes of an encoded ReplyHeader. */
export const REPLY_HEADER_SIZE = 16;

/** Writes `v` as a `ReplyHeader`. */
export function writeReplyHeader(w: JuteWriter, v: ReplyHeader): void {
  w.writeInt(v.xid);
  w.writeLong(v.zxid);
  w.writeInt(v.err);
}

/** Reads a `ReplyHeader` from `r`. */
export function readReplyHeader(r: JuteReader): ReplyHeader {
  const xid = r.readInt();
  const zxid = r.readLong();
  return { xid, zxid, err: r.readInt() };
}

/** A ReplyHeader that is refilled for every reply of one connection (see fillReplyHeader). */
export interface ReplyHeaderSlot extends ReplyHeader {
  readonly zxidMemo: LongMemo;
}

/** A reusable ReplyHeader to fill with fillReplyHeader, so a hot loop allocates no header per reply. */
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

/** The `MultiHeader` record of zookeeper.jute, field for field (see this file's header). */
export interface MultiHeader {
  type: number;
  done: boolean;
  err: number;
}

/** Writes `v` as a `MultiHeader`. */
export function writeMultiHeader(w: JuteWriter, v: MultiHeader): void {
  w.writeInt(v.type);
  w.writeBool(v.done);
  w.writeInt(v.err);
}

/** Reads a `MultiHeader` from `r`. */
export function readMultiHeader(r: JuteReader): MultiHeader {
  const type = r.readInt();
  const done = r.readBool();
  return { type, done, err: r.readInt() };
}

/** The `ErrorResponse` record of zookeeper.jute, field for field (see this file's header). */
export interface ErrorResponse {
  err: number;
}

/** Writes `v` as a `ErrorResponse`. */
export function writeErrorResponse(w: JuteWriter, v: ErrorResponse): void {
  w.writeInt(v.err);
}

/** Reads a `ErrorResponse` from `r`. */
export function readErrorResponse(r: JuteReader): ErrorResponse {
  return { err: r.readInt() };
}
