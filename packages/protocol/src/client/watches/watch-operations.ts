/**
 * The watch operations' bodies (ZkClient.addWatch, removeWatches, removeWatcher, checkWatches): validation and
 * the chroot, then the requests in watch-requests.ts. Like every operation (operations.ts), they never throw:
 * a bad argument is a rejected promise.
 */
import { InvalidArgumentError, ServerError } from '../../errors/errors.js';
import { KeeperCode } from '../../errors/codes.js';
import { describeValue } from '../../errors/option-keys.js';
import type { OpContext } from '../op-context.js';
import { validatePath } from '../paths.js';
import type { CallOptions, CheckWatchType, PersistentWatch, RemoveWatcherType, RemoveWatchType, WatchEvent, WatchListener } from '../types.js';
import { REMOVE_WATCHES_KEYS, checkBoolean, checkCallOptions } from '../validation.js';
import * as req from '../requests.js';
import { addWatch as addWatchAt, removalKinds, removeWatcher as removeWatcherAt, removeWatches as removeWatchesAt, watcherTypeOf } from './watch-requests.js';

function toServer(ctx: OpContext, path: string): string {
  validatePath(path);
  return ctx.root.toServer(path);
}

export function addWatch(ctx: OpContext, path: string, mode: 'persistent' | 'persistent-recursive', options: CallOptions): Promise<PersistentWatch> {
  try {
    checkCallOptions(options, 'zk.addWatch');
    if (mode !== 'persistent' && mode !== 'persistent-recursive') {
      throw new InvalidArgumentError('mode', `addWatch mode must be 'persistent' or 'persistent-recursive', got ${describeValue(mode)}`);
    }
    return addWatchAt(ctx, path, toServer(ctx, path), mode, options);
  } catch (err) {
    return Promise.reject(err);
  }
}

export function removeWatches(ctx: OpContext, path: string, type: RemoveWatchType, options: CallOptions & { local?: boolean }): Promise<void> {
  try {
    checkCallOptions(options, 'zk.removeWatches', REMOVE_WATCHES_KEYS);
    checkBoolean(options.local, 'local');
    removalKinds(type);
    return removeWatchesAt(ctx, path, toServer(ctx, path), type, options);
  } catch (err) {
    return Promise.reject(err);
  }
}

export function removeWatcher(ctx: OpContext, path: string, watcher: WatchListener | Promise<WatchEvent>, type: RemoveWatcherType, options: CallOptions & { local?: boolean }): Promise<void> {
  try {
    checkCallOptions(options, 'zk.removeWatcher', REMOVE_WATCHES_KEYS);
    checkBoolean(options.local, 'local');
    if (type !== 'children' && type !== 'data' && type !== 'any') {
      throw new InvalidArgumentError('type', `removeWatcher type must be children, data or any, got ${describeValue(type)}`);
    }
    if (typeof watcher !== 'function' && !(watcher instanceof Promise)) {
      throw new InvalidArgumentError('watcher', `watcher must be a watch listener or a watch promise, got ${describeValue(watcher)}`);
    }
    const target = toServer(ctx, path);
    const known = ctx.watches.known(watcher, ctx.root);
    if (known === undefined) return Promise.reject(new ServerError(KeeperCode.NO_WATCHER, path));
    return removeWatcherAt(ctx, path, target, known, type, options);
  } catch (err) {
    return Promise.reject(err);
  }
}

export function checkWatches(ctx: OpContext, path: string, type: CheckWatchType, options: CallOptions): Promise<void> {
  try {
    checkCallOptions(options, 'zk.checkWatches');
    if (type !== 'children' && type !== 'data' && type !== 'any') {
      throw new InvalidArgumentError('type', `checkWatches type must be children, data or any, got ${describeValue(type)}`);
    }
    return ctx.read(req.checkWatches(toServer(ctx, path), path, watcherTypeOf(type)), options);
  } catch (err) {
    return Promise.reject(err);
  }
}
