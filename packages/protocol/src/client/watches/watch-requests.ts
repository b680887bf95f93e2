/**
 * The requests that set and remove watches on the server, and what they change in the session's tables
 * (watches.ts): addWatch and its handle's removal, and removeWatches with the fallback for servers before 3.9.
 * The operations (../operations.ts) validate first and call in here with server paths.
 */
import { InvalidArgumentError, ServerError } from '../../errors/errors.js';
import { KeeperCode } from '../../errors/codes.js';
import { WatcherType } from '../../codec/records/constants.js';
import type { Chroot } from '../chroot.js';
import type { RequestSpec } from '../request.js';
import * as req from '../requests.js';
import type { CallOptions, PersistentWatch, RemoveWatcherType, RemoveWatchType } from '../types.js';
import type { OneShotKind, PersistentKind, Watcher } from './watch-manager.js';
import type { ClientWatches } from './watches.js';
import { PersistentWatchHandle } from './watchers.js';

/** What these need: the tables, the chroot, a way to send, and whether the session is over. */
export interface WatchRequestContext {
  readonly root: Chroot;
  readonly watches: ClientWatches;
  /** No state will follow: a removal then has nothing to tell the server. */
  readonly sessionOver: boolean;
  call<T>(spec: RequestSpec<T>, options: CallOptions | undefined): Promise<T>;
}

const ALL_KINDS = ['data', 'exist', 'child', 'persistent', 'persistent-recursive'] as const;

/** Which local tables a removeWatches type clears (throws on an unknown type). */
export function removalKinds(type: RemoveWatchType): (OneShotKind | PersistentKind)[] {
  switch (type) {
    case 'children':
      return ['child'];
    case 'data':
      return ['data', 'exist'];
    case 'any':
      return ['data', 'exist', 'child', 'persistent', 'persistent-recursive'];
    case 'persistent':
      return ['persistent'];
    case 'persistent-recursive':
      return ['persistent-recursive'];
    default:
      throw new InvalidArgumentError('type', `unknown watch type ${JSON.stringify(type)}`);
  }
}

/** The WatcherType number sent on the wire. */
export function watcherTypeOf(type: RemoveWatchType): number {
  switch (type) {
    case 'children':
      return WatcherType.Children;
    case 'data':
      return WatcherType.Data;
    case 'any':
      return WatcherType.Any;
    case 'persistent':
      return WatcherType.Persistent;
    case 'persistent-recursive':
      return WatcherType.PersistentRecursive;
  }
}

/** addWatch: the handle is registered when the reply arrives, in frame order. */
export async function addWatch(ctx: WatchRequestContext, path: string, serverPath: string, mode: PersistentKind, options: CallOptions | undefined): Promise<PersistentWatch> {
  const handle = new PersistentWatchHandle(path, ctx.root, (h, o) => removePersistent(ctx, h, serverPath, mode, o));
  const done = ctx.watches.armingStarted(mode, serverPath);
  try {
    await ctx.call(
      req.addWatch(serverPath, path, mode, () => ctx.watches.register(mode, serverPath, handle)),
      options,
    );
  } finally {
    done();
  }
  return handle;
}

async function removePersistent(ctx: WatchRequestContext, handle: PersistentWatchHandle, serverPath: string, mode: PersistentKind, options: CallOptions | undefined): Promise<void> {
  const last = ctx.watches.unregister(mode, serverPath, handle);
  handle.finish(null);
  // Other handles on the same path still need the server watch, and so does an addWatch not yet answered.
  if (!last || ctx.sessionOver || ctx.watches.serverWatchNeeded(mode, serverPath)) return;
  await removeServerWatch(ctx, serverPath, handle.path, mode === 'persistent' ? WatcherType.Persistent : WatcherType.PersistentRecursive, options);
}

/**
 * removeWatches for one persistent kind. Servers before 3.9 only remove persistent watches with `Any` (they
 * answer MARSHALLING_ERROR to types 4/5); `Any` would also drop one-shot watches there, so it is only used
 * when nothing else watches the path. A watch left on the server has no local watcher: its events are
 * dropped here until the session ends.
 */
async function removeServerWatch(ctx: WatchRequestContext, serverPath: string, path: string, type: number, options: CallOptions | undefined): Promise<void> {
  try {
    await ctx.call(req.removeWatches(serverPath, path, type), options);
  } catch (err) {
    if (!(err instanceof ServerError)) throw err;
    if (err.keeperCode === KeeperCode.NO_WATCHER) return;
    if (err.keeperCode !== KeeperCode.MARSHALLING_ERROR) throw err;
    if (ALL_KINDS.some((k) => ctx.watches.has(k, serverPath))) return;
    try {
      await ctx.call(req.removeWatches(serverPath, path, WatcherType.Any), options);
    } catch (again) {
      if (!(again instanceof ServerError && again.keeperCode === KeeperCode.NO_WATCHER)) throw again;
    }
  }
}

/** The client's removeWatches: on the server unless `local`, then locally; removed watchers hear about it. */
export async function removeWatches(
  ctx: WatchRequestContext,
  path: string,
  serverPath: string,
  type: RemoveWatchType,
  options: CallOptions & { local?: boolean },
): Promise<void> {
  const kinds = removalKinds(type);
  const watches = ctx.watches;
  if (options.local !== true) {
    if (type === 'persistent' || type === 'persistent-recursive') {
      // Checked locally first: the fallback for old servers (see removeServerWatch) cannot report NO_WATCHER.
      if (!watches.has(type, serverPath)) throw new ServerError(KeeperCode.NO_WATCHER, path);
      const removed = watches.removeAll(type, serverPath);
      await removeServerWatch(ctx, serverPath, path, watcherTypeOf(type), options);
      watches.tellRemoved(removed, 'persistentWatchRemoved', serverPath);
      return;
    }
    await ctx.call(req.removeWatches(serverPath, path, watcherTypeOf(type)), options);
  } else if (!kinds.some((k) => watches.has(k, serverPath))) {
    throw new ServerError(KeeperCode.NO_WATCHER, path);
  }
  // Like Java's DataWatchRemoved/ChildWatchRemoved events.
  for (const kind of kinds) {
    const removed = watches.removeAll(kind, serverPath);
    watches.tellRemoved(removed, kind === 'child' ? 'childWatchRemoved' : kind === 'data' || kind === 'exist' ? 'dataWatchRemoved' : 'persistentWatchRemoved', serverPath);
  }
}

/**
 * removeWatcher (Java's removeWatches(path, watcher, type, local)): forgets ONE watcher of `type` on the path,
 * and asks the server to drop its watch only when no other watcher of this session still needs it (none left
 * of that kind, none on its way in an unanswered read). NO_WATCHER when that watcher is not set here. The
 * removed watcher hears `dataWatchRemoved`/`childWatchRemoved`; the others hear nothing. `local`: never asks
 * the server (a watch left there fires into nothing, as after a local removeWatches).
 */
export async function removeWatcher(
  ctx: WatchRequestContext,
  path: string,
  serverPath: string,
  watcher: Watcher,
  type: RemoveWatcherType,
  options: CallOptions & { local?: boolean },
): Promise<void> {
  const watches = ctx.watches;
  const groups: { kinds: OneShotKind[]; server: 'data' | 'child'; event: 'dataWatchRemoved' | 'childWatchRemoved'; wire: number }[] = [];
  if (type === 'data' || type === 'any') groups.push({ kinds: ['data', 'exist'], server: 'data', event: 'dataWatchRemoved', wire: WatcherType.Data });
  if (type === 'children' || type === 'any') groups.push({ kinds: ['child'], server: 'child', event: 'childWatchRemoved', wire: WatcherType.Children });
  const removed: typeof groups = [];
  for (const group of groups) {
    let found = false;
    for (const kind of group.kinds) {
      if (!watches.holds(kind, serverPath, watcher)) continue;
      watches.unregister(kind, serverPath, watcher);
      found = true;
    }
    if (found) removed.push(group);
  }
  if (removed.length === 0) throw new ServerError(KeeperCode.NO_WATCHER, path);
  const asks: Promise<void>[] = [];
  for (const group of removed) {
    watches.tellRemoved(new Set([watcher]), group.event, serverPath);
    if (options.local === true || ctx.sessionOver || watches.serverWatchNeeded(group.server, serverPath)) continue;
    asks.push(removeOnServer(ctx, serverPath, path, group.wire, options));
  }
  await Promise.all(asks);
}

/** The server watch is no longer needed; NO_WATCHER there (it fired, or was never set) is fine. */
async function removeOnServer(ctx: WatchRequestContext, serverPath: string, path: string, type: number, options: CallOptions): Promise<void> {
  try {
    await ctx.call(req.removeWatches(serverPath, path, type), options);
  } catch (err) {
    if (!(err instanceof ServerError && err.keeperCode === KeeperCode.NO_WATCHER)) throw err;
  }
}
