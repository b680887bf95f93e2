/**
 * The bodies of ZkClient's node operations: validation, the chroot, the request spec, and which calls may be
 * retried (`read`: safe to repeat) or not (`call`: a write). ZkClient keeps the public signatures and their
 * documentation; each of its operation methods is one line calling in here, so the class stays readable.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { CONFIG_NODE } from '../codec/records/config.js';
import { Acls, validateAcl } from './acl.js';
import { watcherTypeOf } from './call-helpers.js';
import type { Chroot } from './chroot.js';
import { validatePath } from './paths.js';
import type { RequestSpec } from './request.js';
import * as req from './requests.js';
import { multi as multiSpec, multiRead as multiReadSpec, prepareMultiOp } from './requests-multi.js';
import type {
  ACL,
  CallOptions,
  CheckWatchType,
  CreateOptions,
  Data,
  GetChildrenResult,
  GetDataResult,
  Op,
  OpResult,
  PersistentWatch,
  ReadOp,
  ReadResult,
  RemoveWatchType,
  Stat,
  WatchEvent,
  WatchOptions,
} from './types.js';
import { checkCreateMode, checkVersion, toBytes } from './validation.js';
import type { ClientWatches } from './watches/watches.js';

/** What the operations need of the client. */
export interface OpContext {
  readonly root: Chroot;
  readonly maxPacket: number;
  readonly watches: ClientWatches;
  /** A request that must not be repeated by itself (a write). */
  call<T>(spec: RequestSpec<T>, options: CallOptions | undefined): Promise<T>;
  /** A request that is safe to repeat: retried under the retry policy, if any. */
  read<T>(spec: RequestSpec<T>, options: CallOptions | undefined): Promise<T>;
}

type MaybeWatched<T> = T & { watch?: Promise<WatchEvent> };

export function serverPath(ctx: OpContext, path: string, options?: { sequential?: boolean }): string {
  validatePath(path, options);
  return ctx.root.toServer(path);
}

export async function create(ctx: OpContext, path: string, data: Data | null | undefined, options: CreateOptions): Promise<{ path: string; stat: Stat }> {
  const mode = checkCreateMode(options.mode, options.ttl);
  const target = serverPath(ctx, path, { sequential: mode.sequential });
  const acl = options.acl ?? Acls.openUnsafe();
  validateAcl(acl);
  const bytes = toBytes(data, ctx.maxPacket);
  const result = await ctx.call(req.create(target, path, bytes, acl, mode), options);
  return { path: ctx.root.toClient(result.path), stat: result.stat };
}

/** Throws synchronously on bad input (the caller turns it into a rejection). */
export function deleteNode(ctx: OpContext, path: string, options: CallOptions & { version?: number }): Promise<void> {
  const version = checkVersion(options.version);
  const target = serverPath(ctx, path);
  if (target === '/') throw new InvalidArgumentError('path', 'the root node cannot be deleted');
  return ctx.call(req.deleteNode(target, path, version), options);
}

export async function exists(ctx: OpContext, path: string, options: WatchOptions): Promise<Stat | null | { stat: Stat | null; watch: Promise<WatchEvent> }> {
  const target = serverPath(ctx, path);
  const w = ctx.watches.watcherFor(options.watch);
  const stat = await ctx.read(
    req.exists(target, path, w === undefined ? undefined : (found) => ctx.watches.register(found ? 'data' : 'exist', target, w.watcher)),
    options,
  );
  if (w?.promise !== undefined) return { stat, watch: w.promise };
  return stat;
}

// Not async: the plain read returns the call's own promise (no wrapper promise, no extra microtask hop).
// Throws synchronously on bad input (the caller turns it into a rejection).
export function getData(ctx: OpContext, path: string, options: WatchOptions): Promise<MaybeWatched<GetDataResult>> {
  const target = serverPath(ctx, path);
  if (options.watch === undefined) return ctx.read(req.getData(target, path, undefined), options);
  return getDataAt(ctx, target, path, options);
}

export async function getDataAt(ctx: OpContext, target: string, path: string, options: WatchOptions): Promise<MaybeWatched<GetDataResult>> {
  const w = ctx.watches.watcherFor(options.watch);
  const result = await ctx.read(req.getData(target, path, w === undefined ? undefined : () => ctx.watches.register('data', target, w.watcher)), options);
  return w?.promise === undefined ? result : { ...result, watch: w.promise };
}

/** The ensemble configuration; the watch is on the raw /zookeeper/config, never under the chroot. */
export function getConfig(ctx: OpContext, options: WatchOptions): Promise<MaybeWatched<GetDataResult>> {
  return getDataAt(ctx, CONFIG_NODE, CONFIG_NODE, options);
}

/** Throws synchronously on bad input (the caller turns it into a rejection). */
export function setData(ctx: OpContext, path: string, data: Data | null, options: CallOptions & { version?: number }): Promise<Stat> {
  const version = checkVersion(options.version);
  const target = serverPath(ctx, path);
  const bytes = toBytes(data, ctx.maxPacket);
  return ctx.call(req.setData(target, path, bytes, version), options);
}

export async function getACL(ctx: OpContext, path: string, options: CallOptions): Promise<{ acl: ACL[]; stat: Stat }> {
  return ctx.read(req.getACL(serverPath(ctx, path), path), options);
}

export async function setACL(ctx: OpContext, path: string, acl: ACL[], options: CallOptions & { version?: number }): Promise<Stat> {
  const version = checkVersion(options.version);
  const target = serverPath(ctx, path);
  validateAcl(acl);
  return ctx.call(req.setACL(target, path, acl, version), options);
}

export async function getChildren(ctx: OpContext, path: string, options: WatchOptions): Promise<MaybeWatched<GetChildrenResult>> {
  const target = serverPath(ctx, path);
  const w = ctx.watches.watcherFor(options.watch);
  const result = await ctx.read(req.getChildren(target, path, w === undefined ? undefined : () => ctx.watches.register('child', target, w.watcher)), options);
  return w?.promise === undefined ? result : { ...result, watch: w.promise };
}

export async function sync(ctx: OpContext, path: string, options: CallOptions): Promise<void> {
  await ctx.read(req.sync(serverPath(ctx, path), path), options);
}

export async function multi(ctx: OpContext, ops: Op[], options: CallOptions): Promise<OpResult[]> {
  if (!Array.isArray(ops)) throw new InvalidArgumentError('ops', 'ops must be an array');
  const prepared = ops.map((op, i) => prepareMultiOp(op, i, ctx.root, ctx.maxPacket));
  if (ops.length === 0) return [];
  return ctx.call(multiSpec(prepared, ctx.root), options);
}

export async function multiRead(ctx: OpContext, ops: ReadOp[], options: CallOptions): Promise<ReadResult[]> {
  if (!Array.isArray(ops)) throw new InvalidArgumentError('ops', 'ops must be an array');
  const prepared = ops.map((op, i) => {
    if (op?.op !== 'getData' && op?.op !== 'getChildren') {
      throw new InvalidArgumentError('ops', `op #${i}: multiRead only takes getData and getChildren`);
    }
    return { op: op.op, path: op.path, serverPath: serverPath(ctx, op.path) };
  });
  if (ops.length === 0) return [];
  return ctx.read(multiReadSpec(prepared), options);
}

export async function getEphemerals(ctx: OpContext, prefixPath: string, options: CallOptions): Promise<string[]> {
  const paths = await ctx.read(req.getEphemerals(serverPath(ctx, prefixPath)), options);
  const root = ctx.root.root;
  // The server matches by string prefix: '/app' would also match '/app2/x', which is outside the chroot.
  return paths.filter((p) => root === '' || p === root || p.startsWith(`${root}/`)).map((p) => ctx.root.toClient(p));
}

export async function getAllChildrenNumber(ctx: OpContext, path: string, options: CallOptions): Promise<number> {
  return ctx.read(req.getAllChildrenNumber(serverPath(ctx, path), path), options);
}

export async function whoAmI(ctx: OpContext, options: CallOptions): Promise<{ authScheme: string; user: string }[]> {
  return ctx.read(req.whoAmI(), options);
}

export async function addWatch(ctx: OpContext, path: string, mode: 'persistent' | 'persistent-recursive', options: CallOptions): Promise<PersistentWatch> {
  if (mode !== 'persistent' && mode !== 'persistent-recursive') {
    throw new InvalidArgumentError('mode', `addWatch mode must be 'persistent' or 'persistent-recursive', got ${String(mode)}`);
  }
  return ctx.watches.addWatch(path, serverPath(ctx, path), mode, options);
}

export async function removeWatches(ctx: OpContext, path: string, type: RemoveWatchType, options: CallOptions & { local?: boolean }): Promise<void> {
  await ctx.watches.remove(path, serverPath(ctx, path), type, options);
}

export async function checkWatches(ctx: OpContext, path: string, type: CheckWatchType, options: CallOptions): Promise<void> {
  if (type !== 'children' && type !== 'data' && type !== 'any') {
    throw new InvalidArgumentError('type', `checkWatches type must be children, data or any, got ${String(type)}`);
  }
  await ctx.read(req.checkWatches(serverPath(ctx, path), path, watcherTypeOf(type)), options);
}
