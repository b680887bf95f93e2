/**
 * Small pure helpers of the client API: call-option plumbing and the watch-type tables of removeWatches /
 * checkWatches.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { WatcherType } from '../codec/records/constants.js';
import type { CallOptions, RemoveWatchType } from './types.js';
import type { OneShotKind, PersistentKind } from './watches/watch-manager.js';

/** Only the signal/timeout of a richer options object. */
export function pickCallOptions(options: CallOptions): CallOptions {
  const out: CallOptions = {};
  if (options.signal !== undefined) out.signal = options.signal;
  if (options.timeout !== undefined) out.timeout = options.timeout;
  return out;
}

/** Which local tables a removeWatches type clears. */
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
