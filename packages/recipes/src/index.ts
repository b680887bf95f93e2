// Public surface of @zkts/recipes: lock and coordination recipes built only on @zkts/protocol's client API.
export { Mutex } from './mutex.js';
export { ReadWriteLock, ReadLock, WriteLock } from './rw-lock.js';
export { ExclusiveLock, type ExclusiveLockOptions, type LockOwner } from './exclusive-lock.js';
export { Semaphore, type SemaphoreLease, type SemaphoreOptions } from './semaphore.js';
export { MultiLock, type MultiLease } from './multi-lock.js';
export { QueueLock, type LockOptions, type Lockable, type Participant } from './queue-lock.js';
export type { Lease, LostOn } from './lease.js';
export type { TestHooks, QueueStats } from './contender.js';
export { settleCleanups } from './cleanup.js';
export {
  RecipeError, LockNotHeldError, LockBusyError, LockUpgradeError, LockLostError, RecipeArgumentError, RecipeClosedError,
  type RecipeErrorCode,
} from './errors.js';
export {
  parseContender, sortContenders, compareSequence, parseSequence, formatSequence, mutexDecision, readDecision,
  writeDecision, MUTEX_MARKERS, RW_MARKERS, type Contender, type ContenderKind, type Decision,
} from './names.js';
export type { RecipeClient } from './zk.js';
export type { WaitOptions } from './wait.js';
export { LeaderElection, type LeaderElectionOptions, type ElectionParticipant } from './leader-election.js';
export { Barrier } from './barrier.js';
export { DoubleBarrier } from './double-barrier.js';
export { Queue } from './queue.js';
