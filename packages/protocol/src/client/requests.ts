/**
 * One RequestSpec builder per operation: which opcode, the record it sends, how the reply becomes a result,
 * including the session's own requests (SetWatches, closeSession); multi and multiRead are in
 * requests-multi.ts. Which record an opcode sends is the codec's table (OP_CODECS in codec/ops.ts): every
 * builder writes through it (`spec`), so no opcode is paired with a record twice. Paths arrive already
 * validated and chroot-prefixed (`serverPath`); `path` is the caller's path for errors. Reply bytes are copied
 * (reply-bytes.ts): bodies are views into socket buffers. Replies that carry a Stat are read field by field,
 * in the table's response record order, rather than through the codec's readXResponse: the client's Stat
 * (stat.ts) has its times as numbers, read straight from the bytes.
 */
import { InvalidArgumentError, errorFromKeeperCode } from '../errors/errors.js';
import { KeeperCode } from '../errors/codes.js';
import type { JuteReader } from '../codec/jute/reader.js';
import type { JuteWriter } from '../codec/jute/writer.js';
import type { ReplyHeader } from '../codec/records/headers.js';
import { OpCode } from '../codec/records/constants.js';
import type { CreateRequest } from '../codec/records/create.js';
import type { DeleteRequest, GetDataRequest } from '../codec/records/node.js';
import { readACLs, readStrings, type ACL as WireACL } from '../codec/records/data.js';
import { requestCodecFor, responseReaderFor, type RecordCodec, type RequestBody, type RequestOpCode, type ResponseBody } from '../codec/ops.js';
import type { Chroot } from './chroot.js';
import { copy, strings } from './reply-bytes.js';
import { readClientStat, readCreatedStat } from './stat.js';
import type { RequestSpec } from './request.js';
import type { CheckedMode } from './validation.js';
import type { SetWatchesBatch } from './watches/watch-manager.js';
import type { ACL, GetChildrenResult, GetDataResult, ReconfigOptions, Stat } from './types.js';

/** The record `op` sends, from the codec's table. */
export function requestRecord<O extends RequestOpCode>(op: O): RecordCodec<RequestBody<O>> {
  const record = requestCodecFor(op);
  if (record === null) throw new Error(`opcode ${op} sends no record`);
  return record;
}

/** The reader of `op`'s reply record, from the codec's table. */
export function responseRecord<O extends RequestOpCode>(op: O): (r: JuteReader) => ResponseBody<O> {
  const read = responseReaderFor(op);
  if (read === null) throw new Error(`opcode ${op} answers no record`);
  return read;
}

/** A spec that sends `body` as `op`'s record (header-only when the table says it has none); `ops`: a multi's. */
export function spec<O extends RequestOpCode, T>(
  op: O,
  path: string | undefined,
  body: RequestBody<O>,
  decode: (header: ReplyHeader, r: JuteReader) => T,
  ops?: readonly { op: string }[],
): RequestSpec<T> {
  const record = requestCodecFor(op);
  return { op, path, write: record === null ? undefined : (w) => record.write(w, body), decode, ops };
}

/** The reply records the client reads as the codec does (the table's readers). */
const SYNC_RESPONSE = responseRecord(OpCode.sync);
const EPHEMERALS_RESPONSE = responseRecord(OpCode.getEphemerals);
const CHILDREN_NUMBER_RESPONSE = responseRecord(OpCode.getAllChildrenNumber);
const WHO_AM_I_RESPONSE = responseRecord(OpCode.whoAmI);

/** Throws the server's error (mapped to its class: errorFromKeeperCode) unless the reply is OK. */
export function ok(header: ReplyHeader, path: string | undefined): void {
  if (header.err !== 0) throw errorFromKeeperCode(header.err, path);
}

function toClientAcl(acl: WireACL[] | null): ACL[] {
  return (acl ?? []).map((a) => ({ perms: a.perms, id: { scheme: a.id.scheme ?? '', id: a.id.id ?? '' } }));
}

const CREATE_REQUEST = requestRecord(OpCode.create2);
const DELETE_REQUEST = requestRecord(OpCode.delete);

/**
 * create2 and createContainer (both send CreateRequest and answer Create2Response, so the path and Stat come
 * back), the writes a client issues most: like GetDataSpec, one object that is its own record, whose decode
 * also takes the chroot off the created path (no wrapper promise per create).
 */
class CreateSpec implements RequestSpec<{ path: string; stat: Stat }>, CreateRequest {
  readonly op: typeof OpCode.create2 | typeof OpCode.createContainer;
  readonly path: string;
  readonly data: Uint8Array | null;
  readonly acl: WireACL[];
  readonly flags: number;
  private readonly callerPath: string;
  private readonly root: Chroot;

  constructor(op: typeof OpCode.create2 | typeof OpCode.createContainer, serverPath: string, callerPath: string, data: Uint8Array | null, acl: readonly ACL[], flags: number, root: Chroot) {
    this.op = op;
    this.path = serverPath;
    this.data = data;
    // Only the encoder reads it (a shared frozen list is passed as is).
    this.acl = acl as WireACL[];
    this.flags = flags;
    this.callerPath = callerPath;
    this.root = root;
  }

  write(w: JuteWriter): void {
    CREATE_REQUEST.write(w, this);
  }

  decode(h: ReplyHeader, r: JuteReader): { path: string; stat: Stat } {
    ok(h, this.callerPath);
    const created = r.readString() ?? '';
    return { path: this.root.toClient(created), stat: readCreatedStat(r) };
  }
}

/** create2 / createContainer / createTTL: all answer Create2Response; the path comes back under `root`. */
export function create(serverPath: string, path: string, data: Uint8Array | null, acl: readonly ACL[], mode: Readonly<CheckedMode>, root: Chroot): RequestSpec<{ path: string; stat: Stat }> {
  if (mode.ttl === undefined) return new CreateSpec(mode.container ? OpCode.createContainer : OpCode.create2, serverPath, path, data, acl, mode.flags, root);
  const record = { path: serverPath, data, acl: acl as WireACL[], flags: mode.flags, ttl: BigInt(mode.ttl) };
  return spec(OpCode.createTTL, serverPath, record, (h, r) => {
    ok(h, path);
    const created = r.readString() ?? '';
    return { path: root.toClient(created), stat: readCreatedStat(r) };
  });
}

/** delete, the other half of a create-heavy workload: one object, its own record (see CreateSpec). */
class DeleteSpec implements RequestSpec<void>, DeleteRequest {
  readonly op = OpCode.delete;
  readonly path: string;
  readonly version: number;
  private readonly callerPath: string;

  constructor(serverPath: string, callerPath: string, version: number) {
    this.path = serverPath;
    this.version = version;
    this.callerPath = callerPath;
  }

  write(w: JuteWriter): void {
    DELETE_REQUEST.write(w, this);
  }

  decode(h: ReplyHeader): void {
    ok(h, this.callerPath);
  }
}

export function deleteNode(serverPath: string, path: string, version: number): RequestSpec<void> {
  return new DeleteSpec(serverPath, path, version);
}

/** `register(found)` runs when the reply arrives: on OK (data watch) or NO_NODE (exist watch), like Java. */
export function exists(serverPath: string, path: string, register: ((found: boolean) => void) | undefined): RequestSpec<Stat | null> {
  return spec(OpCode.exists, serverPath, { path: serverPath, watch: register !== undefined }, (h, r) => {
    if (h.err === KeeperCode.NO_NODE) {
      register?.(false);
      return null;
    }
    ok(h, path);
    const stat = readClientStat(r);
    register?.(true);
    return stat;
  });
}

const GET_DATA_REQUEST = requestRecord(OpCode.getData);

/**
 * getData is the operation a read-heavy client issues most, so its spec is a class (one allocation per call,
 * not an object and two closures), and is its own GetDataRequest record. The others go through `spec`.
 */
class GetDataSpec implements RequestSpec<GetDataResult>, GetDataRequest {
  readonly op = OpCode.getData;
  readonly path: string;
  readonly watch: boolean;
  private readonly callerPath: string;
  private readonly register: (() => void) | undefined;

  constructor(serverPath: string, callerPath: string, register: (() => void) | undefined) {
    this.path = serverPath;
    this.callerPath = callerPath;
    this.register = register;
    this.watch = register !== undefined;
  }

  write(w: JuteWriter): void {
    GET_DATA_REQUEST.write(w, this);
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
  return spec(OpCode.setData, serverPath, { path: serverPath, data, version }, (h, r) => {
    ok(h, path);
    return readClientStat(r);
  });
}

export function getACL(serverPath: string, path: string): RequestSpec<{ acl: ACL[]; stat: Stat }> {
  return spec(OpCode.getACL, serverPath, { path: serverPath }, (h, r) => {
    ok(h, path);
    const acl = toClientAcl(readACLs(r));
    return { acl, stat: readClientStat(r) };
  });
}

export function setACL(serverPath: string, path: string, acl: ACL[], version: number): RequestSpec<Stat> {
  return spec(OpCode.setACL, serverPath, { path: serverPath, acl, version }, (h, r) => {
    ok(h, path);
    return readClientStat(r);
  });
}

/** getChildren2, so the parent's Stat comes back too. */
export function getChildren(serverPath: string, path: string, register: (() => void) | undefined): RequestSpec<GetChildrenResult> {
  return spec(OpCode.getChildren2, serverPath, { path: serverPath, watch: register !== undefined }, (h, r) => {
    ok(h, path);
    const children = strings(readStrings(r));
    const stat = readClientStat(r);
    register?.();
    return { children, stat };
  });
}

export function sync(serverPath: string, path: string): RequestSpec<void> {
  return spec(OpCode.sync, serverPath, { path: serverPath }, (h, r) => {
    ok(h, path);
    SYNC_RESPONSE(r);
  });
}

export function getEphemerals(serverPrefix: string): RequestSpec<string[]> {
  return spec(OpCode.getEphemerals, serverPrefix, { prefixPath: serverPrefix }, (h, r) => {
    ok(h, undefined);
    return strings(EPHEMERALS_RESPONSE(r).ephemerals);
  });
}

export function getAllChildrenNumber(serverPath: string, path: string): RequestSpec<number> {
  return spec(OpCode.getAllChildrenNumber, serverPath, { path: serverPath }, (h, r) => {
    ok(h, path);
    return CHILDREN_NUMBER_RESPONSE(r).totalNumber;
  });
}

export function whoAmI(): RequestSpec<{ authScheme: string; user: string }[]> {
  return spec(OpCode.whoAmI, undefined, null, (h, r) => {
    ok(h, undefined);
    return (WHO_AM_I_RESPONSE(r).clientInfo ?? []).map((c) => ({ authScheme: c.authScheme ?? '', user: c.user ?? '' }));
  });
}

export function addWatch(serverPath: string, path: string, mode: 'persistent' | 'persistent-recursive', register: () => void): RequestSpec<void> {
  return spec(OpCode.addWatch, serverPath, { path: serverPath, mode: mode === 'persistent' ? 0 : 1 }, (h) => {
    ok(h, path);
    // The body is an ErrorResponse{err=0}: nothing to learn from it.
    register();
  });
}

export function removeWatches(serverPath: string, path: string, type: number): RequestSpec<void> {
  return spec(OpCode.removeWatches, serverPath, { path: serverPath, type }, (h) => ok(h, path));
}

export function checkWatches(serverPath: string, path: string, type: number): RequestSpec<void> {
  return spec(OpCode.checkWatches, serverPath, { path: serverPath, type }, (h) => ok(h, path));
}

/** Incremental (joining/leaving) or bulk (newMembers), never both; fromConfig guards against a concurrent change. */
export function reconfig(options: ReconfigOptions): RequestSpec<GetDataResult> {
  const incremental = options.joining !== undefined || options.leaving !== undefined;
  if (incremental === (options.newMembers !== undefined)) {
    throw new InvalidArgumentError('reconfig', 'give joining/leaving (incremental) or newMembers (bulk), not both or neither');
  }
  const record = {
    joiningServers: options.joining ?? null,
    leavingServers: options.leaving ?? null,
    newMembers: options.newMembers ?? null,
    curConfigId: options.fromConfig ?? -1n,
  };
  return spec(OpCode.reconfig, undefined, record, (h, r) => {
    ok(h, undefined);
    const data = copy(r.readBuffer());
    return { data, stat: readClientStat(r) };
  });
}

export function closeSession(): RequestSpec<void> {
  return spec(OpCode.closeSession, undefined, null, () => undefined);
}

/**
 * One SetWatches batch after a reconnect: re-arms the watches the client holds, relative to the last zxid it saw
 * (the server fires at once for whatever changed since). Op 105 only when the batch holds persistent watches,
 * since servers before 3.6 reject it.
 */
export function setWatches(batch: SetWatchesBatch, relativeZxid: bigint): RequestSpec<void> {
  const record = { relativeZxid, dataWatches: batch.data, existWatches: batch.exist, childWatches: batch.child };
  const decode = (h: ReplyHeader): void => ok(h, undefined);
  if (!batch.needsSetWatches2) return spec(OpCode.setWatches, undefined, record, decode);
  return spec(OpCode.setWatches2, undefined, { ...record, persistentWatches: batch.persistent, persistentRecursiveWatches: batch.persistentRecursive }, decode);
}

