/**
 * The bodies of ZkClient's operations: validation, the chroot, the request spec, and which calls may be
 * retried (`read`: safe to repeat) or not (`call`: a write). ZkClient keeps the public signatures and their
 * documentation; each of its operation methods is one line calling in here, with its OpContext (op-context.ts).
 *
 * One rule for bad arguments: an operation never throws. It validates inside `try` and returns its request's
 * promise; `catch` returns the validation error as a rejected promise. Work after the reply (mapping a result,
 * adding a watch promise) is in async helpers that get arguments already validated.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { describeValue } from '../errors/option-keys.js';
import { CONFIG_NODE } from '../codec/records/config.js';
import { validateAcl } from './acl.js';
import type { OpContext } from './op-context.js';
import { guaranteedDelete as deleteUntilDone, protectedCreate as createProtected, type BackgroundWrites, type IdempotentClient } from './idempotent.js';
import { OPEN_ACL, openAclFor } from './acl-provider.js';
import { checkPath } from './paths.js';
import * as req from './requests.js';
import { multi as multiSpec, multiRead as multiReadSpec, prepareMultiOp } from './requests-multi.js';
import { mkdirp as mkdirpAll, removeRecursive as removeAll, type TreeClient } from './tree.js';
import type {
  ACL,
  CallOptions,
  CreateOptions,
  Data,
  GetChildrenResult,
  GetDataResult,
  Op,
  OpResult,
  ReadOp,
  ReadResult,
  ReconfigOptions,
  Stat,
  WatchEvent,
  WatchOptions,
} from './types.js';
import { RECONFIG_KEYS, checkCreateOptions, checkDeleteOptions, VERSION_KEYS, WATCH_KEYS, checkCallOptions, checkReconfigValues, checkCreateMode, checkVersion, toBytes } from './validation.js';
import type { ClientWatches } from './watches/watches.js';
import { raceCancel } from './cancel.js';
import type { Clock } from './clock.js';
import type { Session } from './session/session.js';

export { addWatch, checkWatches, removeWatcher, removeWatches } from './watches/watch-operations.js';

type MaybeWatched<T> = T & { watch?: Promise<WatchEvent> };
/** What `ClientWatches.watcherFor` gives for a `watch` option (undefined: none). */
type WatchOption = ReturnType<ClientWatches['watcherFor']>;

/** Validates `path` and puts it under the chroot. */
function serverPath(ctx: OpContext, path: string, options?: { sequential?: boolean }): string {
  checkPath(path, options?.sequential === true);
  return ctx.root.toServer(path);
}

/** The ACL of a create: its own (checked), else the client's for the path; the shared list when that is the same for every path. */
function aclOf(ctx: OpContext, path: string, given: ACL[] | undefined): readonly ACL[] {
  if (given === undefined && ctx.aclFor === openAclFor) return OPEN_ACL;
  const acl = given === undefined ? ctx.aclFor(path) : given;
  validateAcl(acl);
  return acl;
}

export function create(ctx: OpContext, path: string, data: Data | null | undefined, options: CreateOptions): Promise<{ path: string; stat: Stat }> {
  try {
    checkCreateOptions(options, 'zk.create');
    const mode = checkCreateMode(options.mode, options.ttl);
    const target = serverPath(ctx, path, mode);
    const acl = aclOf(ctx, path, options.acl);
    const bytes = toBytes(data, ctx.maxPacket);
    return ctx.call(req.create(target, path, bytes, acl, mode, ctx.root), options);
  } catch (err) {
    return Promise.reject(err);
  }
}

/** create with `{ protected: true }` (idempotent.ts), through the client's public operations. */
export function protectedCreate(ctx: OpContext, client: IdempotentClient, background: BackgroundWrites, path: string, data: Data | null | undefined, options: CreateOptions): Promise<{ path: string; stat: Stat }> {
  try {
    checkCreateOptions(options, 'zk.create');
    serverPath(ctx, path, checkCreateMode(options.mode, options.ttl));
    return createProtected(client, background, path, data, options);
  } catch (err) {
    return Promise.reject(err);
  }
}

export function deleteNode(ctx: OpContext, path: string, options: CallOptions & { version?: number }): Promise<void> {
  try {
    checkDeleteOptions(options);
    const version = checkVersion(options.version);
    const target = serverPath(ctx, path);
    if (target === '/') throw new InvalidArgumentError('path', 'the root node cannot be deleted');
    return ctx.call(req.deleteNode(target, path, version), options);
  } catch (err) {
    return Promise.reject(err);
  }
}

/** delete with `{ guaranteed: true }` (idempotent.ts), through the client's public operations. */
export function guaranteedDelete(ctx: OpContext, client: IdempotentClient, background: BackgroundWrites, path: string, options: CallOptions & { version?: number }): Promise<void> {
  try {
    checkDeleteOptions(options);
    checkVersion(options.version);
    if (serverPath(ctx, path) === '/') throw new InvalidArgumentError('path', 'the root node cannot be deleted');
    return deleteUntilDone(client, background, path, options.version, options);
  } catch (err) {
    return Promise.reject(err);
  }
}

export function exists(ctx: OpContext, path: string, options: WatchOptions): Promise<Stat | null | { stat: Stat | null; watch: Promise<WatchEvent> }> {
  try {
    checkCallOptions(options, 'zk.exists', WATCH_KEYS);
    const target = serverPath(ctx, path);
    if (options.watch === undefined) return ctx.read(req.exists(target, path, undefined), options);
    return existsWatched(ctx, target, path, ctx.watches.watcherFor(options.watch, ctx.root), options);
  } catch (err) {
    return Promise.reject(err);
  }
}

async function existsWatched(ctx: OpContext, target: string, path: string, w: WatchOption, options: WatchOptions): Promise<Stat | null | { stat: Stat | null; watch: Promise<WatchEvent> }> {
  const done = w === undefined ? undefined : ctx.watches.armingStarted('data', target);
  try {
    const stat = await ctx.read(req.exists(target, path, w === undefined ? undefined : (found) => ctx.watches.register(found ? 'data' : 'exist', target, w.watcher)), options);
    return w?.promise === undefined ? stat : { stat, watch: w.promise };
  } finally {
    done?.();
  }
}

// The plain read returns the call's own promise (no wrapper promise, no extra microtask hop).
export function getData(ctx: OpContext, path: string, options: WatchOptions): Promise<MaybeWatched<GetDataResult>> {
  try {
    checkCallOptions(options, 'zk.getData', WATCH_KEYS);
    const target = serverPath(ctx, path);
    if (options.watch === undefined) return ctx.read(req.getData(target, path, undefined), options);
    return getDataWatched(ctx, target, path, ctx.watches.watcherFor(options.watch, ctx.root), options);
  } catch (err) {
    return Promise.reject(err);
  }
}

async function getDataWatched(ctx: OpContext, target: string, path: string, w: WatchOption, options: WatchOptions): Promise<MaybeWatched<GetDataResult>> {
  const done = w === undefined ? undefined : ctx.watches.armingStarted('data', target);
  try {
    const result = await ctx.read(req.getData(target, path, w === undefined ? undefined : () => ctx.watches.register('data', target, w.watcher)), options);
    return w?.promise === undefined ? result : { ...result, watch: w.promise };
  } finally {
    done?.();
  }
}

/** The ensemble configuration; the watch is on the raw /zookeeper/config, never under the chroot. */
export function getConfig(ctx: OpContext, options: WatchOptions): Promise<MaybeWatched<GetDataResult>> {
  try {
    checkCallOptions(options, 'zk.getConfig', WATCH_KEYS);
    return getDataWatched(ctx, CONFIG_NODE, CONFIG_NODE, ctx.watches.watcherFor(options.watch, ctx.root), options);
  } catch (err) {
    return Promise.reject(err);
  }
}

export function setData(ctx: OpContext, path: string, data: Data | null, options: CallOptions & { version?: number }): Promise<Stat> {
  try {
    checkCallOptions(options, 'zk.setData', VERSION_KEYS);
    const version = checkVersion(options.version);
    const target = serverPath(ctx, path);
    const bytes = toBytes(data, ctx.maxPacket);
    return ctx.call(req.setData(target, path, bytes, version), options);
  } catch (err) {
    return Promise.reject(err);
  }
}

export function getACL(ctx: OpContext, path: string, options: CallOptions): Promise<{ acl: ACL[]; stat: Stat }> {
  try {
    checkCallOptions(options, 'zk.getACL');
    return ctx.read(req.getACL(serverPath(ctx, path), path), options);
  } catch (err) {
    return Promise.reject(err);
  }
}

export function setACL(ctx: OpContext, path: string, acl: ACL[], options: CallOptions & { version?: number }): Promise<Stat> {
  try {
    checkCallOptions(options, 'zk.setACL', VERSION_KEYS);
    const version = checkVersion(options.version);
    const target = serverPath(ctx, path);
    validateAcl(acl);
    return ctx.call(req.setACL(target, path, acl, version), options);
  } catch (err) {
    return Promise.reject(err);
  }
}

export function getChildren(ctx: OpContext, path: string, options: WatchOptions): Promise<MaybeWatched<GetChildrenResult>> {
  try {
    checkCallOptions(options, 'zk.getChildren', WATCH_KEYS);
    const target = serverPath(ctx, path);
    if (options.watch === undefined) return ctx.read(req.getChildren(target, path, undefined), options);
    return getChildrenWatched(ctx, target, path, ctx.watches.watcherFor(options.watch, ctx.root), options);
  } catch (err) {
    return Promise.reject(err);
  }
}

async function getChildrenWatched(ctx: OpContext, target: string, path: string, w: WatchOption, options: WatchOptions): Promise<MaybeWatched<GetChildrenResult>> {
  const done = w === undefined ? undefined : ctx.watches.armingStarted('child', target);
  try {
    const result = await ctx.read(req.getChildren(target, path, w === undefined ? undefined : () => ctx.watches.register('child', target, w.watcher)), options);
    return w?.promise === undefined ? result : { ...result, watch: w.promise };
  } finally {
    done?.();
  }
}

export function sync(ctx: OpContext, path: string, options: CallOptions): Promise<void> {
  try {
    checkCallOptions(options, 'zk.sync');
    return ctx.read(req.sync(serverPath(ctx, path), path), options);
  } catch (err) {
    return Promise.reject(err);
  }
}

export function multi(ctx: OpContext, ops: Op[], options: CallOptions): Promise<OpResult[]> {
  try {
    checkCallOptions(options, 'zk.multi');
    if (!Array.isArray(ops)) throw new InvalidArgumentError('ops', `ops must be an array, got ${describeValue(ops)}`);
    const prepared = ops.map((op, i) => prepareMultiOp(op, i, ctx.root, ctx.maxPacket, ctx.aclFor));
    if (ops.length === 0) return Promise.resolve([]);
    return ctx.call(multiSpec(prepared, ctx.root), options);
  } catch (err) {
    return Promise.reject(err);
  }
}

export function multiRead(ctx: OpContext, ops: ReadOp[], options: CallOptions): Promise<ReadResult[]> {
  try {
    checkCallOptions(options, 'zk.multiRead');
    if (!Array.isArray(ops)) throw new InvalidArgumentError('ops', `ops must be an array, got ${describeValue(ops)}`);
    const prepared = ops.map((op, i) => {
      if (op?.op !== 'getData' && op?.op !== 'getChildren') {
        throw new InvalidArgumentError('ops', `op #${i}: multiRead only takes getData and getChildren`);
      }
      return { op: op.op, path: op.path, serverPath: serverPath(ctx, op.path) };
    });
    if (ops.length === 0) return Promise.resolve([]);
    return ctx.read(multiReadSpec(prepared), options);
  } catch (err) {
    return Promise.reject(err);
  }
}

export function getEphemerals(ctx: OpContext, prefixPath: string, options: CallOptions): Promise<string[]> {
  try {
    checkCallOptions(options, 'zk.getEphemerals');
    return ephemeralsUnderRoot(ctx, ctx.read(req.getEphemerals(serverPath(ctx, prefixPath)), options));
  } catch (err) {
    return Promise.reject(err);
  }
}

async function ephemeralsUnderRoot(ctx: OpContext, reply: Promise<string[]>): Promise<string[]> {
  const paths = await reply;
  const root = ctx.root.root;
  // The server matches by string prefix: '/app' would also match '/app2/x', which is outside the chroot.
  return paths.filter((p) => root === '' || p === root || p.startsWith(`${root}/`)).map((p) => ctx.root.toClient(p));
}

export function getAllChildrenNumber(ctx: OpContext, path: string, options: CallOptions): Promise<number> {
  try {
    checkCallOptions(options, 'zk.getAllChildrenNumber');
    return ctx.read(req.getAllChildrenNumber(serverPath(ctx, path), path), options);
  } catch (err) {
    return Promise.reject(err);
  }
}

export function whoAmI(ctx: OpContext, options: CallOptions): Promise<{ authScheme: string; user: string }[]> {
  try {
    checkCallOptions(options, 'zk.whoAmI');
    return ctx.read(req.whoAmI(), options);
  } catch (err) {
    return Promise.reject(err);
  }
}





export function reconfig(ctx: OpContext, options: ReconfigOptions): Promise<GetDataResult> {
  try {
    checkCallOptions(options, 'zk.admin.reconfig', RECONFIG_KEYS);
    checkReconfigValues(options);
    return ctx.call(req.reconfig(options), options);
  } catch (err) {
    return Promise.reject(err);
  }
}

/** mkdirp (tree.ts), through the client's public operations. */
export function mkdirp(ctx: OpContext, client: TreeClient, path: string, options: CreateOptions): Promise<void> {
  try {
    checkCreateOptions(options, 'zk.mkdirp');
    checkCreateMode(options.mode, options.ttl);
    if (options.acl !== undefined) validateAcl(options.acl);
    serverPath(ctx, path);
    return mkdirpAll(client, path, options);
  } catch (err) {
    return Promise.reject(err);
  }
}

/** removeRecursive (tree.ts), through the client's public operations. */
export function removeRecursive(ctx: OpContext, client: TreeClient, path: string, options: CallOptions): Promise<void> {
  try {
    checkCallOptions(options, 'zk.removeRecursive');
    serverPath(ctx, path);
    return removeAll(client, path, options);
  } catch (err) {
    return Promise.reject(err);
  }
}

/** Adds a credential to the session (and to every later reconnect); resolves once the server accepts it. */
export function addAuth(session: Session, limits: { maxPacket: number; clock: Clock }, scheme: string, auth: Data, options: CallOptions): Promise<void> {
  try {
    if (typeof scheme !== 'string' || scheme === '') throw new InvalidArgumentError('scheme', `scheme must be a non-empty string, got ${describeValue(scheme)}`);
    checkCallOptions(options, 'zk.addAuth');
    const bytes = toBytes(auth, limits.maxPacket) ?? new Uint8Array(0);
    // The credential stays registered either way; a caller who gives up just stops waiting for the answer.
    return raceCancel(session.addAuth(scheme, bytes), options, 'addAuth', limits.clock);
  } catch (err) {
    return Promise.reject(err);
  }
}
