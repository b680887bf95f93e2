/** Counters exact under lost replies: Curator's DistributedAtomicLong and SharedCount, kazoo's Counter. */
export {
  DistributedAtomicLong, type DistributedAtomicLongOptions, type AtomicResult, type PromotedToLock,
} from './atomic-long.js';
export { Counter, type CounterOptions, type CounterChange } from './counter.js';
export type { CasStats } from './counter-cas.js';
export { SharedCount, type VersionedCount } from './shared-count.js';
