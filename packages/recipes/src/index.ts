/**
 * Locks and coordination on `@zkts/protocol`'s client, in Curator's and kazoo's node layouts: {@link Mutex},
 * {@link ReadWriteLock} and {@link Semaphore} with fencing tokens, leader election ({@link LeaderElection},
 * {@link LeaderSelector}), caches ({@link TreeCache}, {@link NodeCache}, {@link ChildrenCache}), queues, counters,
 * barriers, group membership, leases and service discovery.
 *
 * @packageDocumentation
 */
// Public surface of @zkts/recipes: lock and coordination recipes built only on @zkts/protocol's client API, one
// re-export per family (each family's index.ts). Only what a user needs: the recipes, their option and handle
// types, the errors, RecipeClient and WaitOptions, the tracing channels' names and context types. internal/
// (node-name parsing, cleanup bookkeeping, test hooks) and each family's engine stay inside; tests import them
// from src by path.
export {
  Mutex, ReadWriteLock, ReadLock, WriteLock, ExclusiveLock, Semaphore, MultiLock, attemptRevoke, onRevocationRequest, REVOKE_MESSAGE,
  type ExclusiveLockOptions, type LockOwner, type SemaphoreLease, type SemaphoreOptions, type SemaphoreLayout, type MultiLockHandle, type LockOptions,
  type Lockable, type Participant, type ContenderKind, type LockStats, type ExpiryPolicy, type LockHandle, type LostOn,
} from './locks/index.js';
export {
  RecipeError, LockNotHeldError, LockBusyError, LockUpgradeError, LockLostError, RecipeArgumentError, RecipeClosedError,
  CounterOutcomeUnknownError, OutcomeUnknownError, DataFormatError, InstanceFormatError, ServiceNotRegisteredError,
  QueueItemCorruptError, CompressedDataError, DecompressedTooLargeError, QueueEmptyError,
  type RecipeErrorCode,
} from './errors.js';
// The two contract types every recipe takes, and the tracing channels' names and context types; the rest of
// internal/ is not exported.
export type { RecipeClient, WaitOptions } from './internal/index.js';
export {
  RECIPE_CHANNELS,
  type LockWaitTrace, type LockHoldTrace, type LockKind, type ElectionTermTrace, type CacheResyncTrace, type CacheLoadReason,
  type QueueTrace,
} from './internal/index.js';
export {
  LeaderElection, LeaderSelector,
  type LeaderElectionOptions, type ElectionParticipant, type Leadership, type ElectionStats, type LeaderSelectorOptions,
  type LeadershipCallback, type SelectorTerm, type SelectorStats, type SelectorLayout,
} from './election/index.js';
export {
  PersistentNode, PersistentTtlNode, PersistentWatcher,
  type PersistentNodeMode, type PersistentNodeOptions, type PersistentNodeStats, type PersistentTtlNodeOptions,
  type PersistentWatcherOptions,
} from './nodes/index.js';
export { Barrier, DoubleBarrier } from './barriers/index.js';
export {
  Queue, SimpleDistributedQueue, LockingQueue, DistributedQueue, DistributedPriorityQueue, DistributedDelayQueue, DistributedIdQueue, CuratorQueueBase,
  bytesSerializer,
  type LockingQueueOptions, type LockedEntry, type PutOptions, type CuratorQueueOptions, type QueueSerializer,
  type QueueConsumerStats,
} from './queues/index.js';
export { NonBlockingLease, MultiNonBlockingLease, type NonBlockingLeaseOptions, type LeaseTerm } from './leases/index.js';
export {
  DistributedAtomicLong, DistributedAtomicInteger, Counter, SharedCount, SharedValue,
  type DistributedAtomicLongOptions, type DistributedAtomicIntegerOptions, type AtomicResult, type PromotedToLock, type CounterOptions, type CounterChange,
  type CasStats, type VersionedCount, type VersionedValue,
} from './counters/index.js';
export {
  TreeCache, NodeCache, ChildrenCache, CacheDecodeError, CacheReadError, watchData, watchChildren,
  type ChildrenCacheOptions, type CacheStats, type CacheClient, type CachedNode, type CacheEvent, type CacheListener,
  type CacheOptions, type DataOption, type Decoder, type NodeEvent, type ResyncReason, type TreeCacheOptions,
  type Watching, type DataWatcher, type ChildrenWatcher,
} from './cache/index.js';
export {
  Party, ShallowParty, GroupMember, SetPartitioner,
  type PartyOptions, type GroupMemberOptions, type SetPartitionerOptions, type PartitionState, type PartitionSet,
  type PartitionFunction,
} from './groups/index.js';
export {
  ServiceDiscovery, serviceInstance, instanceUri, parseUriSpec, buildUri, JsonInstanceSerializer, jsonPayload, javaPayload,
  ServiceCache, ServiceProvider, RandomStrategy, RoundRobinStrategy, StickyStrategy,
  type DiscoveryClient, type ServiceDiscoveryOptions, type ServiceInstance, type ServiceInstanceInit, type ServiceType,
  type UriSpec, type UriSpecPart, type UriFields, type InstanceSerializer, type InstanceSerialization,
  type JsonInstanceSerializerOptions, type PayloadCodec, type ServiceCacheOptions, type ServiceProviderOptions,
  type InstanceFilter, type DownInstancePolicy, type ProviderStrategy, type RandomStrategyOptions,
} from './discovery/index.js';
export {
  inspectRecipe,
  type InspectOptions, type RecipeInspection, type RecipeKind, type RecipeLibrary, type RecipeMember,
} from './inspect/index.js';
export {
  setQuota, getQuota, listQuotas, deleteQuota, QuotaConflictError, QuotaFormatError,
  type Quota, type QuotaLimits, type QuotaUsage, type SetQuotaOptions, type DeleteQuotaOptions, type QuotaReadOptions,
} from './quotas/index.js';
export {
  compressLikeCurator, decompressLikeCurator, gunzipDecoder, DEFAULT_MAX_DECOMPRESSED_BYTES, type DecompressOptions,
} from './compression/index.js';
