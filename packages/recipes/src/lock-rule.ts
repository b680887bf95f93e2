/**
 * Which contender nodes a lock recognises, and when a contender holds the lock or which node it must wait for.
 * Kept apart from the queue mechanics (contender.ts) so the rule can be read, and unit-tested, on its own.
 *
 *   Curator mutex     _c_<uuid>-lock-<seq>          (go-zookeeper uses the same layout)
 *   Curator RW lock   _c_<uuid>-__READ__<seq>  /  _c_<uuid>-__WRIT__<seq>
 *   kazoo             <uuidhex>__lock__<seq>   /  <uuidhex>__rlock__<seq>
 */
import type { Contender, MarkerTable } from './names.js';

/** Markers recognised in a mutex directory, with the side each stands for. */
export const MUTEX_MARKERS: MarkerTable = {
  'lock-': 'write',
  __lock__: 'write',
  // kazoo's Lock counts its read-lock nodes as contenders too, so a kazoo reader in a mutex dir blocks us.
  __rlock__: 'read',
};

/** Markers recognised in a read-write lock directory. */
export const RW_MARKERS: MarkerTable = {
  __READ__: 'read',
  __WRIT__: 'write',
  __rlock__: 'read',
  __lock__: 'write',
};

/** What a contender must do next: it holds the lock, or it waits for `watch` (a child name) to go away. */
export type Decision = { readonly granted: true } | { readonly granted: false; readonly watch: string };

/**
 * A writer (or mutex contender) holds the lock iff nobody precedes it; otherwise it watches its immediate
 * predecessor, reader or writer, so one release wakes one waiter (no herd).
 */
export function writerDecision(sorted: readonly Contender[], ourIndex: number): Decision {
  if (ourIndex === 0) return { granted: true };
  const pred = sorted[ourIndex - 1] as Contender;
  return { granted: false, watch: pred.name };
}

/**
 * A reader holds the lock iff no writer precedes it; otherwise it watches its NEAREST preceding writer (the ZK
 * recipe and kazoo; Curator watches the lowest writer, which wakes readers behind several writers on every
 * writer release). When that writer goes, the reader re-evaluates and may find an earlier writer still queued.
 */
export function readerDecision(sorted: readonly Contender[], ourIndex: number): Decision {
  for (let i = ourIndex - 1; i >= 0; i--) {
    const c = sorted[i] as Contender;
    if (c.kind === 'write') return { granted: false, watch: c.name };
  }
  return { granted: true };
}
