/**
 * multi (14) and multiRead (22): hand-written framing around Jute records (MultiOperationRecord.java,
 * MultiResponse.java), no grammar of its own.
 *
 *   request:  ( MultiHeader{type, done=false, err=-1} sub-request )*  MultiHeader{-1, true, -1}
 *   response: ( MultiHeader{type, done=false, err}    sub-result  )*  MultiHeader{-1, true, -1}
 *
 * Sub-requests: create/create2/createContainer → CreateRequest, createTTL → CreateTTLRequest,
 * delete → DeleteRequest, setData → SetDataRequest, check → CheckVersionRequest, and for multiRead
 * getData → GetDataRequest, getChildren → GetChildrenRequest.
 *
 * Sub-results: create → CreateResponse; create2, createContainer and createTTL → Create2Response;
 * delete and check → nothing; setData → SetDataResponse; getData → GetDataResponse;
 * getChildren → GetChildrenResponse; a failure → type -1 and ErrorResponse{err}.
 *
 * A failed multi still has ReplyHeader.err = 0: every op reports type -1, those before the failure with err 0,
 * the failing one its code, the later ones -2 (RUNTIME_INCONSISTENCY). multiRead is not atomic: each read
 * succeeds or fails on its own.
 */
import { ProtocolError } from '../errors/errors.js';
import type { JuteReader } from './jute/reader.js';
import type { JuteWriter } from './jute/writer.js';
import { OpCode } from './records/constants.js';
import {
  readCreate2Response,
  readCreateRequest,
  readCreateResponse,
  readCreateTTLRequest,
  writeCreate2Response,
  writeCreateRequest,
  writeCreateResponse,
  writeCreateTTLRequest,
  type Create2Response,
  type CreateRequest,
  type CreateResponse,
  type CreateTTLRequest,
} from './records/create.js';
import { readGetChildrenRequest, readGetChildrenResponse, writeGetChildrenRequest, writeGetChildrenResponse,
  type GetChildrenRequest, type GetChildrenResponse } from './records/children.js';
import { readErrorResponse, readMultiHeader, writeErrorResponse, writeMultiHeader } from './records/headers.js';
import {
  readCheckVersionRequest,
  readDeleteRequest,
  readGetDataRequest,
  readGetDataResponse,
  readSetDataRequest,
  readSetDataResponse,
  writeCheckVersionRequest,
  writeDeleteRequest,
  writeGetDataRequest,
  writeGetDataResponse,
  writeSetDataRequest,
  writeSetDataResponse,
  type CheckVersionRequest,
  type DeleteRequest,
  type GetDataRequest,
  type GetDataResponse,
  type SetDataRequest,
  type SetDataResponse,
} from './records/node.js';

/** One sub-operation of a multi or multiRead request, discriminated by its op name. */
export type MultiOp =
  | ({ op: 'create' | 'create2' | 'createContainer' } & CreateRequest)
  | ({ op: 'createTTL' } & CreateTTLRequest)
  | ({ op: 'delete' } & DeleteRequest)
  | ({ op: 'setData' } & SetDataRequest)
  | ({ op: 'check' } & CheckVersionRequest)
  | ({ op: 'getData' } & GetDataRequest)
  | ({ op: 'getChildren' } & GetChildrenRequest);

/** One result of a multi or multiRead response. `err` on 'error' is the raw KeeperException code (0 = rolled back). */
export type MultiResult =
  | ({ op: 'create' } & CreateResponse)
  | ({ op: 'create2' | 'createContainer' | 'createTTL' } & Create2Response)
  | { op: 'delete' }
  | { op: 'check' }
  | ({ op: 'setData' } & SetDataResponse)
  | ({ op: 'getData' } & GetDataResponse)
  | ({ op: 'getChildren' } & GetChildrenResponse)
  | { op: 'error'; err: number };

/** The name of a multi operation. */
export type MultiOpName = MultiOp['op'];
/** The name of a multi result. */
export type MultiResultName = MultiResult['op'];

const TERMINATOR = { type: -1, done: true, err: -1 } as const;

/** Writes `v` as a `MultiOp`. */
export function writeMultiOp(w: JuteWriter, op: MultiOp): void {
  writeMultiHeader(w, { type: OpCode[op.op], done: false, err: -1 });
  switch (op.op) {
    case 'create':
    case 'create2':
    case 'createContainer':
      return writeCreateRequest(w, op);
    case 'createTTL':
      return writeCreateTTLRequest(w, op);
    case 'delete':
      return writeDeleteRequest(w, op);
    case 'setData':
      return writeSetDataRequest(w, op);
    case 'check':
      return writeCheckVersionRequest(w, op);
    case 'getData':
      return writeGetDataRequest(w, op);
    case 'getChildren':
      return writeGetChildrenRequest(w, op);
  }
}

/** The body of a multi (14) or multiRead (22) request, after its RequestHeader. */
export function writeMultiRequest(w: JuteWriter, ops: readonly MultiOp[]): void {
  for (const op of ops) writeMultiOp(w, op);
  writeMultiHeader(w, TERMINATOR);
}

/** Reads a multi/multiRead request body (for proxies, decoders and test servers). */
export function readMultiRequest(r: JuteReader): MultiOp[] {
  const ops: MultiOp[] = [];
  for (;;) {
    const at = r.offset;
    const h = readMultiHeader(r);
    if (h.done) return ops;
    switch (h.type) {
      case OpCode.create:
        ops.push({ op: 'create', ...readCreateRequest(r) });
        break;
      case OpCode.create2:
        ops.push({ op: 'create2', ...readCreateRequest(r) });
        break;
      case OpCode.createContainer:
        ops.push({ op: 'createContainer', ...readCreateRequest(r) });
        break;
      case OpCode.createTTL:
        ops.push({ op: 'createTTL', ...readCreateTTLRequest(r) });
        break;
      case OpCode.delete:
        ops.push({ op: 'delete', ...readDeleteRequest(r) });
        break;
      case OpCode.setData:
        ops.push({ op: 'setData', ...readSetDataRequest(r) });
        break;
      case OpCode.check:
        ops.push({ op: 'check', ...readCheckVersionRequest(r) });
        break;
      case OpCode.getData:
        ops.push({ op: 'getData', ...readGetDataRequest(r) });
        break;
      case OpCode.getChildren:
        ops.push({ op: 'getChildren', ...readGetChildrenRequest(r) });
        break;
      default:
        throw new ProtocolError(`invalid multi sub-request type ${h.type}`, at);
    }
  }
}

/** The body of a multi/multiRead response, after its ReplyHeader (for test servers and proxies). */
export function writeMultiResponse(w: JuteWriter, results: readonly MultiResult[]): void {
  for (const res of results) {
    if (res.op === 'error') {
      writeMultiHeader(w, { type: OpCode.error, done: false, err: res.err });
      writeErrorResponse(w, { err: res.err });
      continue;
    }
    writeMultiHeader(w, { type: OpCode[res.op], done: false, err: 0 });
    switch (res.op) {
      case 'create':
        writeCreateResponse(w, res);
        break;
      case 'create2':
      case 'createContainer':
      case 'createTTL':
        writeCreate2Response(w, res);
        break;
      case 'setData':
        writeSetDataResponse(w, res);
        break;
      case 'getData':
        writeGetDataResponse(w, res);
        break;
      case 'getChildren':
        writeGetChildrenResponse(w, res);
        break;
      case 'delete':
      case 'check':
        break;
    }
  }
  writeMultiHeader(w, TERMINATOR);
}

/** Reads a multi/multiRead response body (present whenever ReplyHeader.err is 0, even if an op failed). */
export function readMultiResponse(r: JuteReader): MultiResult[] {
  const results: MultiResult[] = [];
  for (;;) {
    const at = r.offset;
    const h = readMultiHeader(r);
    if (h.done) return results;
    switch (h.type) {
      case OpCode.create:
        results.push({ op: 'create', ...readCreateResponse(r) });
        break;
      case OpCode.create2:
        results.push({ op: 'create2', ...readCreate2Response(r) });
        break;
      case OpCode.createContainer:
        results.push({ op: 'createContainer', ...readCreate2Response(r) });
        break;
      case OpCode.createTTL:
        results.push({ op: 'createTTL', ...readCreate2Response(r) });
        break;
      case OpCode.delete:
        results.push({ op: 'delete' });
        break;
      case OpCode.check:
        results.push({ op: 'check' });
        break;
      case OpCode.setData:
        results.push({ op: 'setData', ...readSetDataResponse(r) });
        break;
      case OpCode.getData:
        results.push({ op: 'getData', ...readGetDataResponse(r) });
        break;
      case OpCode.getChildren:
        results.push({ op: 'getChildren', ...readGetChildrenResponse(r) });
        break;
      case OpCode.error:
        // The ErrorResponse repeats the header's err; the body is what Java reads.
        results.push({ op: 'error', err: readErrorResponse(r).err });
        break;
      default:
        throw new ProtocolError(`invalid multi result type ${h.type}`, at);
    }
  }
}

/** The first failed op of a multi: its index and code (the later ops report -2), or undefined if all passed. */
export function firstMultiError(results: readonly MultiResult[]): { index: number; err: number } | undefined {
  for (let i = 0; i < results.length; i++) {
    const res = results[i];
    if (res !== undefined && res.op === 'error' && res.err !== 0) return { index: i, err: res.err };
  }
  return undefined;
}
