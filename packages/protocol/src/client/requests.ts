/**
 * One RequestSpec builder per operation: which opcode, which record, how the reply becomes a result,
 * including the session's own requests (SetWatches, closeSession); multi and multiRead are in
 * requests-multi.ts. Paths arrive already validated and chroot-prefixed (`serverPath`); `path` is the
 * caller's path for errors. Reply bytes are copied (reply-bytes.ts): bodies are views into socket buffers.
 * Replies that carry a Stat are read field by field here rather than through the codec's readXResponse: the
 * client's Stat (stat.ts) has its times as numbers, read straight from the bytes.
 */
import { InvalidArgumentError, errorFromKeeperCode } from '../errors/errors.js';
import { KeeperCode } from '../errors/codes.js';
import type { JuteReader } from '../codec/jute/reader.js';
import type { JuteWriter } from '../codec/jute/writer.js';
import type { ReplyHeader } from '../codec/records/headers.js';
import { OpCode } from '../codec/records/constants.js';
import { writeCreateRequest, writeCreateTTLRequest } from '../codec/records/create.js';
import {
  readSyncResponse,
  writeDeleteRequest,
  writeExistsRequest,
  writeGetDataRequest,
  writeSetDataRequest,
  writeSyncRequest,
} from '../codec/records/node.js';
import {
  readGetAllChildrenNumberResponse,
  readGetEphemeralsResponse,
  writeGetAllChildrenNumberRequest,
  writeGetChildren2Request,
  writeGetEphemeralsRequest,
} from '../codec/records/children.js';
import { writeSetACLRequest, writeGetACLRequest } from '../codec/records/acl.js';
import { readWhoAmIResponse } from '../codec/records/auth.js';
import { writeAddWatchRequest, writeCheckWatchesRequest, writeRemoveWatchesRequest, writeSetWatches, writeSetWatches2 } from '../codec/records/watches.js';
import { writeReconfigRequest, type ReconfigRequest } from '../codec/records/config.js';
import { readACLs, readStrings, type ACL as WireACL } from '../codec/records/data.js';
import { copy, strings } from './reply-bytes.js';
import { readClientStat } from './stat.js';
import type { RequestSpec } from './request.js';
import type { CheckedMode } from './validation.js';
import type { SetWatchesBatch } from './watches/watch-manager.js';
import type { ACL, GetChildrenResult, GetDataResult, ReconfigOptions, Stat } from './types.js';

/** Throws the server's error (mapped to its class: errorFromKeeperCode) unless the reply is OK. */
export function ok(header: ReplyHeader, path: string | undefined): void {
  if (header.err !== 0) throw errorFromKeeperCode(header.err, path);
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
      const created = r.readString();
      return { path: created ?? '', stat: readClientStat(r) };
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
      const stat = readClientStat(r);
      register?.(true);
      return stat;
    },
  };
}

/**
 * getData is the operation a read-heavy client issues most, so its spec is a class (one allocation per call,
 * not an object and two closures). The others stay plain builders.
 */
class GetDataSpec implements RequestSpec<GetDataResult> {
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

  decode(h: ReplyHeader, r: JuteReader): GetDataResult {
    ok(h, this.callerPath);
    const data = copy(r.readBuffer());
    const stat = readClientStat(r);
    this.register?.();
    return { data, stat };
  }
}

export function getData(serverPath: string, path: string, register: (() => void) | undefined): RequestSpec<GetDataResult> {
  return new GetDataSpec(serverPath, path, register);
}

export function setData(serverPath: string, path: string, data: Uint8Array | null, version: number): RequestSpec<Stat> {
  return {
    op: OpCode.setData,
    path: serverPath,
    write: (w) => writeSetDataRequest(w, { path: serverPath, data, version }),
    decode: (h, r) => {
      ok(h, path);
      return readClientStat(r);
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
      const acl = toClientAcl(readACLs(r));
      return { acl, stat: readClientStat(r) };
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
      return readClientStat(r);
    },
  };
}

/** getChildren2, so the parent's Stat comes back too. */
export function getChildren(serverPath: string, path: string, register: (() => void) | undefined): RequestSpec<GetChildrenResult> {
  return {
    op: OpCode.getChildren2,
    path: serverPath,
    write: (w) => writeGetChildren2Request(w, { path: serverPath, watch: register !== undefined }),
    decode: (h, r) => {
      ok(h, path);
      const children = strings(readStrings(r));
      const stat = readClientStat(r);
      register?.();
      return { children, stat };
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

/** Incremental (joining/leaving) or bulk (newMembers), never both; fromConfig guards against a concurrent change. */
export function reconfig(options: ReconfigOptions): RequestSpec<GetDataResult> {
  const incremental = options.joining !== undefined || options.leaving !== undefined;
  if (incremental === (options.newMembers !== undefined)) {
    throw new InvalidArgumentError('reconfig', 'give joining/leaving (incremental) or newMembers (bulk), not both or neither');
  }
  const record: ReconfigRequest = {
    joiningServers: options.joining ?? null,
    leavingServers: options.leaving ?? null,
    newMembers: options.newMembers ?? null,
    curConfigId: options.fromConfig ?? -1n,
  };
  return {
    op: OpCode.reconfig,
    write: (w) => writeReconfigRequest(w, record),
    decode: (h, r) => {
      ok(h, undefined);
      const data = copy(r.readBuffer());
      return { data, stat: readClientStat(r) };
    },
  };
}

export function closeSession(): RequestSpec<void> {
  return { op: OpCode.closeSession, decode: () => undefined };
}

/**
 * One SetWatches batch after a reconnect: re-arms the watches the client holds, relative to the last zxid it saw
 * (the server fires at once for whatever changed since). Op 105 only when the batch holds persistent watches,
 * since servers before 3.6 reject it.
 */
export function setWatches(batch: SetWatchesBatch, relativeZxid: bigint): RequestSpec<void> {
  const record = { relativeZxid, dataWatches: batch.data, existWatches: batch.exist, childWatches: batch.child };
  return {
    op: batch.needsSetWatches2 ? OpCode.setWatches2 : OpCode.setWatches,
    write: (w) => {
      if (batch.needsSetWatches2) {
        writeSetWatches2(w, { ...record, persistentWatches: batch.persistent, persistentRecursiveWatches: batch.persistentRecursive });
      } else {
        writeSetWatches(w, record);
      }
    },
    decode: (h) => ok(h, undefined),
  };
}

