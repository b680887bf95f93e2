// Public surface of @zkts/recipes: lock and coordination recipes built only on @zkts/protocol's client API.
// Only what a user needs: the recipes, their option and lease types, the errors, RecipeClient and WaitOptions.
// Internals (node-name parsing, lock decisions, cleanup bookkeeping, test hooks) stay inside; tests import them
// from src by path.
export { Mutex } from './mutex.js';
export { ReadWriteLock, ReadLock, WriteLock } from './rw-lock.js';
export { ExclusiveLock, type ExclusiveLockOptions, type LockOwner } from './exclusive-lock.js';
export { Semaphore, type SemaphoreLease, type SemaphoreOptions } from './semaphore.js';
export { MultiLock, type MultiLease } from './multi-lock.js';
export type { LockOptions, Lockable, Participant } from './queue-lock.js';
export type { ContenderKind } from './names.js';
// The type of every lock's public `stats` counters.
export type { QueueStats } from './contender.js';
export type { Lease, LostOn } from './lease.js';
export {
  RecipeError, LockNotHeldError, LockBusyError, LockUpgradeError, LockLostError, RecipeArgumentError, RecipeClosedError,
  type RecipeErrorCode,
} from './errors.js';
export type { RecipeClient } from './zk.js';
export type { WaitOptions } from './wait.js';
export { LeaderElection, type LeaderElectionOptions, type ElectionParticipant } from './leader-election.js';
export { Barrier } from './barrier.js';
export { DoubleBarrier } from './double-barrier.js';
export { Queue } from './queue.js';
// Caches and watch helpers (#14): a local, always-converging view of a node, its children or a subtree.
export { TreeCache } from './cache/tree-cache.js';
export { NodeCache } from './cache/node-cache.js';
export { ChildrenCache, type ChildrenCacheOptions } from './cache/children-cache.js';
export type { CacheStats } from './cache/base-cache.js';
export type { CacheClient } from './cache/client.js';
export { CacheDecodeError, CacheReadError } from './cache/errors.js';
export type {
  CachedNode, CacheEvent, CacheListener, CacheOptions, DataOption, Decoder, NodeEvent, ResyncReason, TreeCacheOptions,
} from './cache/types.js';
export { watchData, watchChildren, type Watching, type DataWatcher, type ChildrenWatcher } from './cache/watch-helpers.js';
