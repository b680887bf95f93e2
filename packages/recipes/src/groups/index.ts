/** Group membership: kazoo's Party / ShallowParty and SetPartitioner, Curator's GroupMember. */
export { Party, ShallowParty, type PartyOptions } from './party.js';
export { GroupMember, type GroupMemberOptions } from './group-member.js';
export {
  SetPartitioner, type SetPartitionerOptions, type PartitionState, type PartitionSet, type PartitionFunction,
} from './set-partitioner.js';

// For inspect/: kazoo's default split, to show a partitioner's assignment.
export { kazooPartition } from './default-partition.js';
