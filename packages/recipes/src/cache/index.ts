/**
 * Caches and watch helpers: a local, always-converging view of a node, its children or a subtree (Curator's
 * CuratorCache, kazoo's TreeCache / DataWatch / ChildrenWatch). The engine under them lives in engine/.
 */
export { TreeCache } from './tree-cache.js';
export { NodeCache } from './node-cache.js';
export { ChildrenCache, type ChildrenCacheOptions } from './children-cache.js';
export type { CacheStats } from './base-cache.js';
export type { CacheClient } from './client.js';
export { CacheDecodeError, CacheReadError } from './errors.js';
export type {
  CachedNode, CacheEvent, CacheListener, CacheOptions, DataOption, Decoder, NodeEvent, ResyncReason, TreeCacheOptions,
} from './types.js';
export { watchData, watchChildren, type Watching, type DataWatcher, type ChildrenWatcher } from './watch-helpers.js';
