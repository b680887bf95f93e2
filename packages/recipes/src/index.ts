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
export type { ExpiryPolicy, Lease, LostOn } from './lease.js';
export {
  RecipeError, LockNotHeldError, LockBusyError, LockUpgradeError, LockLostError, RecipeArgumentError, RecipeClosedError,
  CounterOutcomeUnknownError, OutcomeUnknownError, DataFormatError, InstanceFormatError, ServiceNotRegisteredError,
  QueueItemCorruptError,
  type RecipeErrorCode,
} from './errors.js';
export type { RecipeClient } from './zk.js';
export type { WaitOptions } from './wait.js';
export { LeaderElection, type LeaderElectionOptions, type ElectionParticipant, type Leadership } from './leader-election.js';
export type { ElectionStats } from './candidacy.js';
export { PersistentNode, type PersistentNodeMode, type PersistentNodeOptions, type PersistentNodeStats } from './persistent-node.js';
export { PersistentTtlNode, type PersistentTtlNodeOptions } from './persistent-ttl-node.js';
export { PersistentWatcher, type PersistentWatcherOptions } from './persistent-watcher.js';
export { Barrier } from './barrier.js';
export { DoubleBarrier } from './double-barrier.js';
export { Queue } from './queue.js';
// Curator's queue family (#15), node for node: Curator and zkts producers and consumers share one queue.
export { DistributedQueue, DistributedPriorityQueue, DistributedDelayQueue, DistributedIdQueue } from './curator-queue/queues.js';
export { CuratorQueueBase, type CuratorQueueOptions } from './curator-queue/queue-base.js';
export { bytesSerializer, type QueueSerializer } from './curator-queue/format.js';
export type { ConsumerStats as QueueConsumerStats } from './curator-queue/consume.js';
export {
  NonBlockingLease, MultiNonBlockingLease, type NonBlockingLeaseOptions, type LeaseTerm,
} from './kazoo-lease.js';
export { LockingQueue, type LockingQueueOptions, type LockedEntry, type PutOptions } from './locking-queue.js';
export {
  LeaderSelector, type LeaderSelectorOptions, type LeadershipCallback, type SelectorTerm, type SelectorStats,
} from './leader-selector.js';
export {
  DistributedAtomicLong, type DistributedAtomicLongOptions, type AtomicResult, type PromotedToLock,
} from './atomic-long.js';
export { Counter, type CounterOptions, type CounterChange } from './kazoo-counter.js';
export type { CasStats } from './counter-cas.js';
export { SharedCount, type VersionedCount } from './shared-count.js';
export { attemptRevoke, onRevocationRequest, REVOKE_MESSAGE } from './revocation.js';
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
// Group membership (#15): kazoo's Party / ShallowParty and Curator's GroupMember.
export { Party, ShallowParty, type PartyOptions } from './party.js';
export { GroupMember, type GroupMemberOptions } from './group-member.js';
export {
  SetPartitioner, type SetPartitionerOptions, type PartitionState, type PartitionSet, type PartitionFunction,
} from './set-partitioner.js';
// Service discovery (#15): Curator's curator-x-discovery layout and JSON, with its cache, provider and strategies.
export { ServiceDiscovery, type DiscoveryClient, type ServiceDiscoveryOptions } from './discovery/service-discovery.js';
export {
  serviceInstance, instanceUri, type ServiceInstance, type ServiceInstanceInit, type ServiceType,
} from './discovery/instance.js';
export { parseUriSpec, buildUri, type UriSpec, type UriSpecPart, type UriFields } from './discovery/uri-spec.js';
export {
  JsonInstanceSerializer, jsonPayload, javaPayload,
  type InstanceSerializer, type InstanceSerialization, type JsonInstanceSerializerOptions, type PayloadCodec,
} from './discovery/serializer.js';
export { ServiceCache, type ServiceCacheOptions } from './discovery/service-cache.js';
export { ServiceProvider, type ServiceProviderOptions, type InstanceFilter } from './discovery/service-provider.js';
export type { DownInstancePolicy } from './discovery/down-instances.js';
export {
  RandomStrategy, RoundRobinStrategy, StickyStrategy, type ProviderStrategy, type RandomStrategyOptions,
} from './discovery/strategies.js';
