/**
 * Which record each opcode sends and receives (ZooKeeper.java / FinalRequestProcessor.java), as one typed
 * table, plus the request-frame encoder. `null` means "no body": header-only requests (ping, closeSession,
 * whoAmI) and replies that are only a ReplyHeader (delete, check, setWatches…). The handshake has no header
 * and is in connect.ts; notifications (xid -1) carry a WatcherEvent.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { DEFAULT_MAX_PACKET, type JuteReader } from './jute/reader.js';
import type { JuteWriter } from './jute/writer.js';
import * as acl from './records/acl.js';
import * as auth from './records/auth.js';
import * as children from './records/children.js';
import * as config from './records/config.js';
import { OpCode } from './records/constants.js';
import * as create from './records/create.js';
import * as headers from './records/headers.js';
import * as node from './records/node.js';
import * as watches from './records/watches.js';
import { readMultiRequest, readMultiResponse, writeMultiRequest, writeMultiResponse, type MultiOp, type MultiResult } from './multi.js';

/** The writer and reader of one record type. */
export interface RecordCodec<T> {
  /** Writes `v`. */
  write(w: JuteWriter, v: T): void;
  /** Reads one record. */
  read(r: JuteReader): T;
}

function codec<T>(write: (w: JuteWriter, v: T) => void, read: (r: JuteReader) => T): RecordCodec<T> {
  return { write, read };
}

const multiRequest = codec<MultiOp[]>(writeMultiRequest, readMultiRequest);
const multiResponse = codec<MultiResult[]>(writeMultiResponse, readMultiResponse);
const createRequest = codec(create.writeCreateRequest, create.readCreateRequest);
const create2Response = codec(create.writeCreate2Response, create.readCreate2Response);

/** Request and response codec per opcode. */
export const OP_CODECS = {
  [OpCode.notification]: { request: null, response: codec(watches.writeWatcherEvent, watches.readWatcherEvent) },
  [OpCode.create]: { request: createRequest, response: codec(create.writeCreateResponse, create.readCreateResponse) },
  [OpCode.delete]: { request: codec(node.writeDeleteRequest, node.readDeleteRequest), response: null },
  [OpCode.exists]: {
    request: codec(node.writeExistsRequest, node.readExistsRequest),
    response: codec(node.writeExistsResponse, node.readExistsResponse),
  },
  [OpCode.getData]: {
    request: codec(node.writeGetDataRequest, node.readGetDataRequest),
    response: codec(node.writeGetDataResponse, node.readGetDataResponse),
  },
  [OpCode.setData]: {
    request: codec(node.writeSetDataRequest, node.readSetDataRequest),
    response: codec(node.writeSetDataResponse, node.readSetDataResponse),
  },
  [OpCode.getACL]: {
    request: codec(acl.writeGetACLRequest, acl.readGetACLRequest),
    response: codec(acl.writeGetACLResponse, acl.readGetACLResponse),
  },
  [OpCode.setACL]: {
    request: codec(acl.writeSetACLRequest, acl.readSetACLRequest),
    response: codec(acl.writeSetACLResponse, acl.readSetACLResponse),
  },
  [OpCode.getChildren]: {
    request: codec(children.writeGetChildrenRequest, children.readGetChildrenRequest),
    response: codec(children.writeGetChildrenResponse, children.readGetChildrenResponse),
  },
  [OpCode.sync]: {
    request: codec(node.writeSyncRequest, node.readSyncRequest),
    response: codec(node.writeSyncResponse, node.readSyncResponse),
  },
  [OpCode.ping]: { request: null, response: null },
  [OpCode.getChildren2]: {
    request: codec(children.writeGetChildren2Request, children.readGetChildren2Request),
    response: codec(children.writeGetChildren2Response, children.readGetChildren2Response),
  },
  [OpCode.check]: { request: codec(node.writeCheckVersionRequest, node.readCheckVersionRequest), response: null },
  [OpCode.multi]: { request: multiRequest, response: multiResponse },
  [OpCode.create2]: { request: createRequest, response: create2Response },
  [OpCode.reconfig]: {
    request: codec(config.writeReconfigRequest, config.readReconfigRequest),
    response: codec(node.writeGetDataResponse, node.readGetDataResponse),
  },
  [OpCode.checkWatches]: {
    request: codec(watches.writeCheckWatchesRequest, watches.readCheckWatchesRequest),
    response: null,
  },
  [OpCode.removeWatches]: {
    request: codec(watches.writeRemoveWatchesRequest, watches.readRemoveWatchesRequest),
    response: null,
  },
  [OpCode.createContainer]: { request: createRequest, response: create2Response },
  [OpCode.createTTL]: { request: codec(create.writeCreateTTLRequest, create.readCreateTTLRequest), response: create2Response },
  [OpCode.multiRead]: { request: multiRequest, response: multiResponse },
  [OpCode.auth]: { request: codec(auth.writeAuthPacket, auth.readAuthPacket), response: null },
  [OpCode.setWatches]: { request: codec(watches.writeSetWatches, watches.readSetWatches), response: null },
  [OpCode.sasl]: {
    request: codec(auth.writeGetSASLRequest, auth.readGetSASLRequest),
    response: codec(auth.writeSetSASLResponse, auth.readSetSASLResponse),
  },
  [OpCode.getEphemerals]: {
    request: codec(children.writeGetEphemeralsRequest, children.readGetEphemeralsRequest),
    response: codec(children.writeGetEphemeralsResponse, children.readGetEphemeralsResponse),
  },
  [OpCode.getAllChildrenNumber]: {
    request: codec(children.writeGetAllChildrenNumberRequest, children.readGetAllChildrenNumberRequest),
    response: codec(children.writeGetAllChildrenNumberResponse, children.readGetAllChildrenNumberResponse),
  },
  [OpCode.setWatches2]: { request: codec(watches.writeSetWatches2, watches.readSetWatches2), response: null },
  [OpCode.addWatch]: {
    request: codec(watches.writeAddWatchRequest, watches.readAddWatchRequest),
    response: codec(headers.writeErrorResponse, headers.readErrorResponse),
  },
  [OpCode.whoAmI]: { request: null, response: codec(auth.writeWhoAmIResponse, auth.readWhoAmIResponse) },
  [OpCode.closeSession]: { request: null, response: null },
} as const;

type Codecs = typeof OP_CODECS;
/** Opcodes that travel after a RequestHeader (everything but the handshake, deleteContainer and error). */
export type RequestOpCode = keyof Codecs;
type Body<C> = C extends RecordCodec<infer T> ? T : null;
/** The request record of an opcode (null: header only). */
export type RequestBody<O extends RequestOpCode> = Body<Codecs[O]['request']>;
/** The reply record of an opcode when ReplyHeader.err is 0 (null: nothing after the header). */
export type ResponseBody<O extends RequestOpCode> = Body<Codecs[O]['response']>;

function entry(op: number): Codecs[RequestOpCode] | undefined {
  return Object.hasOwn(OP_CODECS, op) ? OP_CODECS[op as RequestOpCode] : undefined;
}

/** The request codec of `op`: null when the request is header-only, undefined for an unknown opcode. */
export function requestCodecFor<O extends RequestOpCode>(op: O): RecordCodec<RequestBody<O>> | null;
export function requestCodecFor(op: number): RecordCodec<unknown> | null | undefined;
export function requestCodecFor(op: number): RecordCodec<unknown> | null | undefined {
  return entry(op)?.request as RecordCodec<unknown> | null | undefined;
}

/** The reader of `op`'s reply body: null when the reply has none, undefined for an unknown opcode. */
export function responseReaderFor<O extends RequestOpCode>(op: O): ((r: JuteReader) => ResponseBody<O>) | null;
export function responseReaderFor(op: number): ((r: JuteReader) => unknown) | null | undefined;
export function responseReaderFor(op: number): ((r: JuteReader) => unknown) | null | undefined {
  const c = entry(op);
  if (c === undefined) return undefined;
  return c.response === null ? null : (c.response.read as (r: JuteReader) => unknown);
}

/** The writer of `op`'s reply body (test servers, proxies): null when the reply has none. */
export function responseWriterFor<O extends RequestOpCode>(op: O): ((w: JuteWriter, v: ResponseBody<O>) => void) | null;
export function responseWriterFor(op: number): ((w: JuteWriter, v: never) => void) | null | undefined;
export function responseWriterFor(op: number): ((w: JuteWriter, v: never) => void) | null | undefined {
  const c = entry(op);
  if (c === undefined) return undefined;
  return c.response === null ? null : (c.response.write as (w: JuteWriter, v: never) => void);
}

/** Options of writeRequestFrame. */
export interface RequestFrameOptions {
  /** Refuse to build a frame the server would reject (its jute.maxbuffer); default 0xfffff. */
  maxPacket?: number;
}

/**
 * Appends one whole request frame — length prefix, RequestHeader{xid, op}, body — to `w` and returns a view of
 * it (valid until `w` is reset). A payload past maxPacket throws InvalidArgumentError before anything is sent.
 */
export function writeRequestFrame<O extends RequestOpCode>(
  w: JuteWriter,
  xid: number,
  op: O,
  body: RequestBody<O>,
  options: RequestFrameOptions = {},
): Uint8Array {
  const start = w.length;
  w.beginFrame();
  headers.writeRequestHeader(w, { xid, type: op });
  const c = OP_CODECS[op].request as RecordCodec<unknown> | null;
  if (c !== null) c.write(w, body);
  const frame = w.endFrame();
  const max = options.maxPacket ?? DEFAULT_MAX_PACKET;
  if (frame.byteLength - 4 > max) {
    w.truncate(start);
    throw new InvalidArgumentError('request', `${frame.byteLength - 4}-byte packet exceeds maxPacket ${max}`);
  }
  return frame;
}
