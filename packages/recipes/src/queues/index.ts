/**
 * Queues: the zkts FIFO Queue, kazoo's LockingQueue, and Curator's queue family (curator/), node for node, so
 * Curator and zkts producers and consumers share one queue.
 */
export { Queue } from './queue.js';
export { SimpleDistributedQueue } from './simple-queue.js';
export { LockingQueue, type LockingQueueOptions, type LockedEntry, type PutOptions } from './locking-queue.js';
export { DistributedQueue, DistributedPriorityQueue, DistributedDelayQueue, DistributedIdQueue } from './curator/queues.js';
export { CuratorQueueBase, type CuratorQueueOptions } from './curator/queue-base.js';
export { bytesSerializer, type QueueSerializer } from './curator/format.js';
export type { ConsumerStats as QueueConsumerStats } from './curator/consume.js';

// For inspect/: the item names of kazoo's and Curator's queues, read without a queue object.
export { parseEntry, type EntryName } from './entry-names.js';
export { delayLayout, epochOf, idLayout, idOf, parseItemName, plainLayout, type ItemLayout, type ItemName } from './curator/names.js';
