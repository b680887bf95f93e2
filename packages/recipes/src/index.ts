// Public surface of @zkts/recipes: lock and coordination recipes built only on @zkts/protocol's client API.
// Only what a user needs: the recipes, their option and lease types, the errors, RecipeClient and WaitOptions.
// Internals (node-name parsing, lock decisions, cleanup bookkeeping, test hooks) stay inside; tests import them
// from src by path.
export { Mutex } from './locks/mutex.js';
export { ReadWriteLock, ReadLock, WriteLock } from './locks/rw-lock.js';
export { ExclusiveLock, type ExclusiveLockOptions, type LockOwner } from './locks/exclusive-lock.js';
export { Semaphore, type SemaphoreLease, type SemaphoreOptions } from './locks/semaphore.js';
export { MultiLock, type MultiLease } from './locks/multi-lock.js';
export type { LockOptions, Lockable, Participant } from './locks/sequential-lock.js';
export type { ContenderKind } from './internal/names.js';
// The type of every lock's public `stats` counters.
export type { QueueStats } from './locks/contender.js';
export type { ExpiryPolicy, Lease, LostOn } from './locks/lock-handle.js';
export {
  RecipeError, LockNotHeldError, LockBusyError, LockUpgradeError, LockLostError, RecipeArgumentError, RecipeClosedError,
  CounterOutcomeUnknownError, OutcomeUnknownError, DataFormatError, InstanceFormatError, ServiceNotRegisteredError,
  QueueItemCorruptError,
  type RecipeErrorCode,
} from './errors.js';
export type { RecipeClient } from './internal/zk.js';
export type { WaitOptions } from './internal/wait.js';
export { LeaderElection, type LeaderElectionOptions, type ElectionParticipant, type Leadership } from './election/leader-election.js';
export type { ElectionStats } from './election/candidacy.js';
export { PersistentNode, type PersistentNodeMode, type PersistentNodeOptions, type PersistentNodeStats } from './nodes/persistent-node.js';
export { PersistentTtlNode, type PersistentTtlNodeOptions } from './nodes/persistent-ttl-node.js';
export { PersistentWatcher, type PersistentWatcherOptions } from './nodes/persistent-watcher.js';
export { Barrier } from './barriers/barrier.js';
export { DoubleBarrier } from './barriers/double-barrier.js';
export { Queue } from './queues/queue.js';
// Curator's queue family (#15), node for node: Curator and zkts producers and consumers share one queue.
export { DistributedQueue, DistributedPriorityQueue, DistributedDelayQueue, DistributedIdQueue } from './queues/curator/queues.js';
export { CuratorQueueBase, type CuratorQueueOptions } from './queues/curator/queue-base.js';
export { bytesSerializer, type QueueSerializer } from './queues/curator/format.js';
export type { ConsumerStats as QueueConsumerStats } from './queues/curator/consume.js';
export {
  NonBlockingLease, MultiNonBlockingLease, type NonBlockingLeaseOptions, type LeaseTerm,
} from './leases/non-blocking-lease.js';
export { LockingQueue, type LockingQueueOptions, type LockedEntry, type PutOptions } from './queues/locking-queue.js';
export {
  LeaderSelector, type LeaderSelectorOptions, type LeadershipCallback, type SelectorTerm, type SelectorStats,
} from './election/leader-selector.js';
export {
  DistributedAtomicLong, type DistributedAtomicLongOptions, type AtomicResult, type PromotedToLock,
} from './counters/atomic-long.js';
export { Counter, type CounterOptions, type CounterChange } from './counters/counter.js';
export type { CasStats } from './counters/counter-cas.js';
export { SharedCount, type VersionedCount } from './counters/shared-count.js';
export { attemptRevoke, onRevocationRequest, REVOKE_MESSAGE } from './locks/revocation.js';
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
export { Party, ShallowParty, type PartyOptions } from './groups/party.js';
export { GroupMember, type GroupMemberOptions } from './groups/group-member.js';
export {
  SetPartitioner, type SetPartitionerOptions, type PartitionState, type PartitionSet, type PartitionFunction,
} from './groups/set-partitioner.js';
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
