/** Counters exact under lost replies: Curator's DistributedAtomicLong/Integer, SharedValue and SharedCount, kazoo's Counter. */
export { DistributedAtomicLong, DistributedAtomicInteger, type DistributedAtomicIntegerOptions } from './atomic-long.js';
export { type DistributedAtomicLongOptions, type AtomicResult, type PromotedToLock } from './atomic-value.js';
export { Counter, type CounterOptions, type CounterChange } from './counter.js';
export type { CasStats } from './counter-cas.js';
export { SharedCount, SharedValue, type VersionedCount } from './shared-count.js';
export type { VersionedValue } from './shared-node.js';
