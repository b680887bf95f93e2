/**
 * Locks: Curator's mutex, read-write lock, semaphore and multi-lock, the zkts ephemeral-node ExclusiveLock and
 * Curator's revocation, all on one lock rule (lock-rule.ts) and one contender engine (contender.ts). Below the
 * public members: the engine and UuidHexLock, which the election, groups and leases families build on.
 */
export { Mutex } from './mutex.js';
export { ReadWriteLock, ReadLock, WriteLock } from './rw-lock.js';
export { ExclusiveLock, type ExclusiveLockOptions, type LockOwner } from './exclusive-lock.js';
export { Semaphore, type SemaphoreLease, type SemaphoreOptions, type SemaphoreLayout } from './semaphore.js';
export { MultiLock, type MultiLockHandle } from './multi-lock.js';
export type { LockOptions, Lockable, Participant } from './fair-lock.js';
export type { ContenderKind } from '../internal/index.js';
export type { LockStats } from './contender.js';
export type { ExpiryPolicy, LockHandle, LostOn } from './lock-handle.js';
export { attemptRevoke, onRevocationRequest, REVOKE_MESSAGE } from './revocation.js';

export { enqueue, removeLateDuplicates, sweepPrefix, type ContenderSpec, type Entry } from './contender.js';
export { UuidHexLock } from './uuid-hex-lock.js';

// For recipes built on a lock whose waits and holds are theirs to report (the selector's terms).
export { quiet } from './lock-trace.js';

// For inspect/: the lock rule's marker table and who holds, read from a listing.
export { LOCK_MARKERS, MARKER, holderIndexes } from './lock-rule.js';

// For the other families' argument checks: the values of LostOn and ExpiryPolicy.
export { EXPIRY_POLICIES, LOST_ON } from './lock-handle.js';
