// Lock directories around the 2^31 wrap of ZooKeeper's sequence suffix (the parent's cversion, a signed 32-bit
// counter printed as %010d), for the two sides of one comparison: zkts's contender order (unit test, names.ts) and
// Curator's (a JVM running LockInternals.getSortedChildren with StandardLockInternalsDriver over the same names).
// Each case lists its sequences in creation order and, independently worked out from Curator's rule (compare the
// text after the lock name, where '-' sorts before every digit), the order Curator puts them in.
import { formatSequence } from '../../src/internal/names.js';

export interface BoundaryCase {
  readonly what: string;
  /** The suffixes, in the order ZooKeeper handed them out (the counter only goes up, wrapping at 2^31). */
  readonly created: readonly number[];
  /** Curator's order of the same names. */
  readonly curator: readonly number[];
  /** Whether the two orders differ (zkts's is the creation order). */
  readonly parts: boolean;
}

export const BOUNDARY_CASES: readonly BoundaryCase[] = [
  {
    what: 'below the wrap: every suffix 0000000000-2147483647',
    created: [0, 1, 9, 10, 999_999_999, 1_000_000_000, 2_147_483_646, 2_147_483_647],
    curator: [0, 1, 9, 10, 999_999_999, 1_000_000_000, 2_147_483_646, 2_147_483_647],
    parts: false,
  },
  {
    what: 'the wrap: 2147483647 then -2147483648',
    created: [2_147_483_645, 2_147_483_646, 2_147_483_647, -2_147_483_648, -2_147_483_647],
    curator: [-2_147_483_647, -2_147_483_648, 2_147_483_645, 2_147_483_646, 2_147_483_647],
    parts: true,
  },
  {
    what: 'wrapped, 11-character suffixes, across the change to 10 characters',
    created: [-1_000_000_002, -1_000_000_001, -1_000_000_000, -999_999_999, -999_999_998],
    curator: [-1_000_000_000, -1_000_000_001, -1_000_000_002, -999_999_998, -999_999_999],
    parts: true,
  },
  {
    what: 'the 11/10-character change alone: -1000000000 then -999999999',
    created: [-1_000_000_000, -999_999_999],
    curator: [-1_000_000_000, -999_999_999],
    parts: false,
  },
  {
    what: 'back to non-negative: -000000002 up to 0000000001',
    created: [-2, -1, 0, 1],
    curator: [-1, -2, 0, 1],
    parts: true,
  },
];

const UUIDS = ['0f8fad5b-d9cb-469f-a165-70867728950e', '7c9e6679-7425-40de-944b-e07fc1f90ae7', '3f333df6-90a4-4fda-8dd3-9485d27cee36'];

/** The InterProcessMutex node name of a sequence (Curator's protected `_c_<uuid>-lock-<seq>`), uuids varied. */
export function curatorLockName(sequence: number, i = 0): string {
  return `_c_${UUIDS[i % UUIDS.length]}-lock-${formatSequence(sequence)}`;
}

/** The names of a case, listed newest first (not the order either side sorts them into). */
export function namesOf(c: BoundaryCase): string[] {
  return c.created.map((s, i) => curatorLockName(s, i)).reverse();
}
