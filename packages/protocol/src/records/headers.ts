/**
 * Frame headers (zookeeper.jute, module org.apache.zookeeper.proto).
 *
 *   class RequestHeader { int xid; int type; }             every request after the handshake
 *   class ReplyHeader   { int xid; long zxid; int err; }    every reply; the body follows only when err == 0
 *   class MultiHeader   { int type; boolean done; int err; } before each multi/multiRead sub-op and result
 *   class ErrorResponse { int err; }                        a failed multi result; also addWatch's reply
 */
import type { JuteReader } from '../jute/reader.js';
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
