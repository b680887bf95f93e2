/**
 * One RequestSpec builder per operation: which opcode, which record, how the reply becomes a result. Paths
 * arrive already validated and chroot-prefixed (`serverPath`); `path` is the caller's path for errors.
 * Every byte array handed to the caller is copied: reply bodies are views into socket buffers.
 */
import { InvalidArgumentError, ServerError } from '../errors/errors.js';
import { KeeperCode } from '../errors/codes.js';
import type { JuteReader } from '../jute/reader.js';
import type { JuteWriter } from '../jute/writer.js';
import type { ReplyHeader } from '../records/headers.js';
import { OpCode } from '../records/constants.js';
import { writeCreateRequest, writeCreateTTLRequest, readCreate2Response } from '../records/create.js';
import {
  readExistsResponse,
  readGetDataResponse,
  readSetDataResponse,
  readSyncResponse,
  writeDeleteRequest,
  writeExistsRequest,
  writeGetDataRequest,
  writeSetDataRequest,
  writeSyncRequest,
} from '../records/node.js';
import {
  readGetAllChildrenNumberResponse,
  readGetChildren2Response,
  readGetEphemeralsResponse,
  writeGetAllChildrenNumberRequest,
  writeGetChildren2Request,
  writeGetEphemeralsRequest,
} from '../records/children.js';
import { readGetACLResponse, readSetACLResponse, writeSetACLRequest, writeGetACLRequest } from '../records/acl.js';
import { readWhoAmIResponse } from '../records/auth.js';
import { writeAddWatchRequest, writeCheckWatchesRequest, writeRemoveWatchesRequest } from '../records/watches.js';
import { writeReconfigRequest, type ReconfigRequest } from '../records/config.js';
import type { ACL as WireACL, Stat as WireStat } from '../records/data.js';
import { firstMultiError, readMultiResponse, writeMultiRequest, type MultiOp } from '../wire/multi.js';
import { validateAcl } from './acl.js';
import type { Chroot } from './chroot.js';
import { MultiError } from './multi-error.js';
import type { RequestSpec } from './request.js';
import { checkCreateMode, checkVersion, toBytes, type CheckedMode } from './validation.js';
import { validatePath } from './paths.js';
import type { ACL, Op, OpResult, ReadResult, Stat } from './types.js';

/** Throws the server's error unless the reply is OK. */
function ok(header: ReplyHeader, path: string | undefined): void {
  if (header.err !== 0) throw new ServerError(header.err, path);
}

/**
 * Small reply bodies are copied into a shared 64 KiB slab, as Node's Buffer pool does: a `new Uint8Array(n)` per
 * reply (its own ArrayBuffer) cost more than the rest of decoding a getData reply. The copy is still the caller's
 * to keep and mutate; like a pooled Buffer, its `.buffer` is shared, so use byteOffset/byteLength with it.
 */
const POOL_SIZE = 64 * 1024;
const POOL_MAX = 1024;
let pool = new Uint8Array(POOL_SIZE);
let poolPos = 0;

function copy(bytes: Uint8Array | null): Uint8Array {
  if (bytes === null) return new Uint8Array(0);
  const n = bytes.byteLength;
  if (n > POOL_MAX || n === 0) return new Uint8Array(bytes);
  if (poolPos + n > POOL_SIZE) {
    pool = new Uint8Array(POOL_SIZE);
    poolPos = 0;
  }
  const out = pool.subarray(poolPos, poolPos + n);
  out.set(bytes);
  poolPos = (poolPos + n + 7) & ~7;
  return out;
}

function strings(list: (string | null)[] | null): string[] {
  return (list ?? []).map((s) => s ?? '');
}

function stat(s: WireStat): Stat {
  return s;
}

function toClientAcl(acl: WireACL[] | null): ACL[] {
  return (acl ?? []).map((a) => ({ perms: a.perms, id: { scheme: a.id.scheme ?? '', id: a.id.id ?? '' } }));
}

/** create2 / createContainer / createTTL: all answer Create2Response, so the path and Stat come back. */
export function create(serverPath: string, path: string, data: Uint8Array | null, acl: ACL[], mode: CheckedMode): RequestSpec<{ path: string; stat: Stat }> {
  const record = { path: serverPath, data, acl, flags: mode.flags };
  const op = mode.container ? OpCode.createContainer : mode.ttl !== undefined ? OpCode.createTTL : OpCode.create2;
  const ttl = mode.ttl;
  return {
    op,
    path: serverPath,
    write: (w) => (ttl === undefined ? writeCreateRequest(w, record) : writeCreateTTLRequest(w, { ...record, ttl: BigInt(ttl) })),
    decode: (h, r) => {
      ok(h, path);
      const res = readCreate2Response(r);
      return { path: res.path ?? '', stat: stat(res.stat) };
    },
  };
}

export function deleteNode(serverPath: string, path: string, version: number): RequestSpec<void> {
  return {
    op: OpCode.delete,
    path: serverPath,
    write: (w) => writeDeleteRequest(w, { path: serverPath, version }),
    decode: (h) => ok(h, path),
  };
}

/** `register(found)` runs when the reply arrives: on OK (data watch) or NO_NODE (exist watch), like Java. */
export function exists(serverPath: string, path: string, register: ((found: boolean) => void) | undefined): RequestSpec<Stat | null> {
  return {
    op: OpCode.exists,
    path: serverPath,
    write: (w) => writeExistsRequest(w, { path: serverPath, watch: register !== undefined }),
    decode: (h, r) => {
      if (h.err === KeeperCode.NO_NODE) {
        register?.(false);
        return null;
      }
      ok(h, path);
      const res = readExistsResponse(r);
      register?.(true);
      return stat(res.stat);
    },
  };
}

/**
 * getData is the operation a read-heavy client issues most, so its spec is a class (one allocation per call,
 * not an object and two closures). The others stay plain builders.
 */
class GetDataSpec implements RequestSpec<{ data: Uint8Array; stat: Stat }> {
  readonly op = OpCode.getData;
  readonly path: string;
  private readonly callerPath: string;
  private readonly register: (() => void) | undefined;

  constructor(serverPath: string, callerPath: string, register: (() => void) | undefined) {
    this.path = serverPath;
    this.callerPath = callerPath;
    this.register = register;
  }

  write(w: JuteWriter): void {
    writeGetDataRequest(w, { path: this.path, watch: this.register !== undefined });
  }

  decode(h: ReplyHeader, r: JuteReader): { data: Uint8Array; stat: Stat } {
    ok(h, this.callerPath);
    const res = readGetDataResponse(r);
    this.register?.();
    return { data: copy(res.data), stat: stat(res.stat) };
  }
}

export function getData(serverPath: string, path: string, register: (() => void) | undefined): RequestSpec<{ data: Uint8Array; stat: Stat }> {
  return new GetDataSpec(serverPath, path, register);
}

export function setData(serverPath: string, path: string, data: Uint8Array | null, version: number): RequestSpec<Stat> {
  return {
    op: OpCode.setData,
    path: serverPath,
    write: (w) => writeSetDataRequest(w, { path: serverPath, data, version }),
    decode: (h, r) => {
      ok(h, path);
      return stat(readSetDataResponse(r).stat);
    },
  };
}

export function getACL(serverPath: string, path: string): RequestSpec<{ acl: ACL[]; stat: Stat }> {
  return {
    op: OpCode.getACL,
    path: serverPath,
    write: (w) => writeGetACLRequest(w, { path: serverPath }),
    decode: (h, r) => {
      ok(h, path);
      const res = readGetACLResponse(r);
      return { acl: toClientAcl(res.acl), stat: stat(res.stat) };
    },
  };
}

export function setACL(serverPath: string, path: string, acl: ACL[], version: number): RequestSpec<Stat> {
  return {
    op: OpCode.setACL,
    path: serverPath,
    write: (w) => writeSetACLRequest(w, { path: serverPath, acl, version }),
    decode: (h, r) => {
      ok(h, path);
      return stat(readSetACLResponse(r).stat);
    },
  };
}

/** getChildren2, so the parent's Stat comes back too. */
export function getChildren(serverPath: string, path: string, register: (() => void) | undefined): RequestSpec<{ children: string[]; stat: Stat }> {
  return {
    op: OpCode.getChildren2,
    path: serverPath,
    write: (w) => writeGetChildren2Request(w, { path: serverPath, watch: register !== undefined }),
    decode: (h, r) => {
      ok(h, path);
      const res = readGetChildren2Response(r);
      register?.();
      return { children: strings(res.children), stat: stat(res.stat) };
    },
  };
}

export function sync(serverPath: string, path: string): RequestSpec<void> {
  return {
    op: OpCode.sync,
    path: serverPath,
    write: (w) => writeSyncRequest(w, { path: serverPath }),
    decode: (h, r) => {
      ok(h, path);
      readSyncResponse(r);
    },
  };
}

export function getEphemerals(serverPrefix: string): RequestSpec<string[]> {
  return {
    op: OpCode.getEphemerals,
    path: serverPrefix,
    write: (w) => writeGetEphemeralsRequest(w, { prefixPath: serverPrefix }),
    decode: (h, r) => {
      ok(h, undefined);
      return strings(readGetEphemeralsResponse(r).ephemerals);
    },
  };
}

export function getAllChildrenNumber(serverPath: string, path: string): RequestSpec<number> {
  return {
    op: OpCode.getAllChildrenNumber,
    path: serverPath,
    write: (w) => writeGetAllChildrenNumberRequest(w, { path: serverPath }),
    decode: (h, r) => {
      ok(h, path);
      return readGetAllChildrenNumberResponse(r).totalNumber;
    },
  };
}

export function whoAmI(): RequestSpec<{ authScheme: string; user: string }[]> {
  return {
    op: OpCode.whoAmI,
    decode: (h, r) => {
      ok(h, undefined);
      return (readWhoAmIResponse(r).clientInfo ?? []).map((c) => ({ authScheme: c.authScheme ?? '', user: c.user ?? '' }));
    },
  };
}

export function addWatch(serverPath: string, path: string, mode: 'persistent' | 'persistent-recursive', register: () => void): RequestSpec<void> {
  return {
    op: OpCode.addWatch,
    path: serverPath,
    write: (w) => writeAddWatchRequest(w, { path: serverPath, mode: mode === 'persistent' ? 0 : 1 }),
    decode: (h) => {
      ok(h, path);
      // The body is an ErrorResponse{err=0}: nothing to learn from it.
      register();
    },
  };
}

export function removeWatches(serverPath: string, path: string, type: number): RequestSpec<void> {
  return {
    op: OpCode.removeWatches,
    path: serverPath,
    write: (w) => writeRemoveWatchesRequest(w, { path: serverPath, type }),
    decode: (h) => ok(h, path),
  };
}

export function checkWatches(serverPath: string, path: string, type: number): RequestSpec<void> {
  return {
    op: OpCode.checkWatches,
    path: serverPath,
    write: (w) => writeCheckWatchesRequest(w, { path: serverPath, type }),
    decode: (h) => ok(h, path),
  };
}

export function reconfig(record: ReconfigRequest): RequestSpec<{ data: Uint8Array; stat: Stat }> {
  return {
    op: OpCode.reconfig,
    write: (w) => writeReconfigRequest(w, record),
    decode: (h, r) => {
      ok(h, undefined);
      const res = readGetDataResponse(r);
      return { data: copy(res.data), stat: stat(res.stat) };
    },
  };
}

export function closeSession(): RequestSpec<void> {
  return { op: OpCode.closeSession, decode: () => undefined };
}

// ---- multi ----------------------------------------------------------------------------------------

export interface PreparedOp {
  wire: MultiOp;
  kind: Op['op'];
  path: string;
}

/** Validates one multi op and turns it into its wire form (server path, create2-style creates). */
export function prepareMultiOp(op: Op, index: number, root: Chroot, maxPacket: number): PreparedOp {
  const where = (e: unknown): never => {
    if (e instanceof InvalidArgumentError) throw new InvalidArgumentError(e.argument, `op #${index}: ${e.message}`);
    throw e;
  };
  try {
    switch (op?.op) {
      case 'create': {
        const mode = checkCreateMode(op.mode, op.ttl);
        validatePath(op.path, { sequential: mode.sequential });
        const acl = op.acl ?? [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }];
        validateAcl(acl);
        const base = { path: root.toServer(op.path), data: toBytes(op.data, maxPacket), acl, flags: mode.flags };
        const wire: MultiOp = mode.container
          ? { op: 'createContainer', ...base }
          : mode.ttl !== undefined
            ? { op: 'createTTL', ...base, ttl: BigInt(mode.ttl) }
            : { op: 'create2', ...base };
        return { wire, kind: 'create', path: op.path };
      }
      case 'delete':
        validatePath(op.path);
        return { wire: { op: 'delete', path: root.toServer(op.path), version: checkVersion(op.version) }, kind: 'delete', path: op.path };
      case 'setData':
        validatePath(op.path);
        return {
          wire: { op: 'setData', path: root.toServer(op.path), data: toBytes(op.data, maxPacket), version: checkVersion(op.version) },
          kind: 'setData',
          path: op.path,
        };
      case 'check':
        validatePath(op.path);
        return { wire: { op: 'check', path: root.toServer(op.path), version: checkVersion(op.version) }, kind: 'check', path: op.path };
      default:
        throw new InvalidArgumentError('ops', `unknown multi op ${JSON.stringify((op as { op?: unknown } | undefined)?.op)}`);
    }
  } catch (e) {
    return where(e);
  }
}

export function multi(ops: PreparedOp[], root: Chroot): RequestSpec<OpResult[]> {
  const wire = ops.map((o) => o.wire);
  return {
    op: OpCode.multi,
    write: (w) => writeMultiRequest(w, wire),
    decode: (h, r) => {
      ok(h, undefined);
      const results = readMultiResponse(r);
      const failure = firstMultiError(results);
      if (failure !== undefined) {
        const codes = results.map((res) => (res.op === 'error' ? res.err : 0));
        throw new MultiError(failure.index, failure.err, codes, ops[failure.index]?.path);
      }
      return results.map((res): OpResult => {
        switch (res.op) {
          case 'create':
            return { op: 'create', path: root.toClient(res.path ?? '') };
          case 'create2':
          case 'createContainer':
          case 'createTTL':
            return { op: 'create', path: root.toClient(res.path ?? ''), stat: stat(res.stat) };
          case 'delete':
            return { op: 'delete' };
          case 'check':
            return { op: 'check' };
          case 'setData':
            return { op: 'setData', stat: stat(res.stat) };
          default:
            throw new ServerError(KeeperCode.MARSHALLING_ERROR, undefined, { cause: new Error(`unexpected multi result ${res.op}`) });
        }
      });
    },
  };
}

export function multiRead(ops: { op: 'getData' | 'getChildren'; path: string; serverPath: string }[]): RequestSpec<ReadResult[]> {
  const wire: MultiOp[] = ops.map((o) => ({ op: o.op, path: o.serverPath, watch: false }));
  return {
    op: OpCode.multiRead,
    write: (w) => writeMultiRequest(w, wire),
    decode: (h, r) => {
      ok(h, undefined);
      return readMultiResponse(r).map((res, i): ReadResult => {
        switch (res.op) {
          case 'getData':
            return { op: 'getData', data: copy(res.data), stat: stat(res.stat) };
          case 'getChildren':
            return { op: 'getChildren', children: strings(res.children) };
          case 'error':
            return { op: 'error', error: new ServerError(res.err, ops[i]?.path) };
          default:
            throw new ServerError(KeeperCode.MARSHALLING_ERROR, undefined, { cause: new Error(`unexpected multiRead result ${res.op}`) });
        }
      });
    },
  };
}
