/** The ZooKeeper barrier recipes (Curator's DistributedBarrier and DistributedDoubleBarrier). */
export { Barrier } from './barrier.js';
export { DoubleBarrier } from './double-barrier.js';
