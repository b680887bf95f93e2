/** Leader election: Curator's LeaderLatch (LeaderElection, on the Candidacy engine) and LeaderSelector. */
export { LeaderElection, type LeaderElectionOptions, type ElectionParticipant, type Leadership } from './leader-election.js';
export type { ElectionStats } from './candidacy.js';
export {
  LeaderSelector, type LeaderSelectorOptions, type LeadershipCallback, type SelectorTerm, type SelectorStats, type SelectorLayout,
} from './leader-selector.js';

// For inspect/: the latch's node marker.
export { LATCH_MARKERS } from './candidacy.js';
