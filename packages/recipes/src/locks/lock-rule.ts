/**
 * The one rule for every contender node under a lock path, whoever created it, so that every kind of lock on
 * one path (Mutex, both sides of ReadWriteLock, `zkts lock`, `zkts lock --shared`, and foreign processes)
 * excludes what it must:
 *
 *   a WRITER blocks everyone queued after it;   a READER blocks only the writers queued after it.
 *
 *   writers   _c_<uuid>-lock-<seq>     zkts Mutex, Curator InterProcessMutex (go-zookeeper uses it too)
 *             _c_<uuid>-__WRIT__<seq>  zkts ReadWriteLock.writeLock, Curator InterProcessReadWriteLock write side
 *             <uuidhex>__lock__<seq>   kazoo Lock / WriteLock
 *   readers   _c_<uuid>-__READ__<seq>  zkts ReadWriteLock.readLock, Curator InterProcessReadWriteLock read side
 *             <uuidhex>__rlock__<seq>  kazoo ReadLock
 *
 * Children with no recognised marker are ignored. Every kind reads every marker: a Mutex sees `__READ__`/`__WRIT__`
 * nodes and a ReadWriteLock sees `lock-` nodes, so an exclusive and a shared holder on one path never overlap.
 * A waiter watches only the node that can unblock it: a writer its immediate predecessor (of either kind), a
 * reader its nearest preceding writer; so a release wakes one waiter, or the run of readers right behind it.
 */
import type { Contender, MarkerTable } from '../internal/index.js';

/** The markers zkts writes: Curator's, so Curator processes of the same class queue with us. */
export const MARKER = { mutex: 'lock-', write: '__WRIT__', read: '__READ__' } as const;

export const LOCK_MARKERS: MarkerTable = {
  [MARKER.mutex]: 'write',
  [MARKER.write]: 'write',
  __lock__: 'write',
  [MARKER.read]: 'read',
  __rlock__: 'read',
};

/**
 * What a contender must do next: it holds the lock, or it waits for `watch` (a child name) to go away.
 * `lastBlocker`: the watched node is the only one that blocks us and none can appear ahead of us while we wait,
 * so its deletion grants us the lock without listing the queue again (a handoff costs no extra round trip).
 */
export type Decision =
  | { readonly granted: true }
  | { readonly granted: false; readonly watch: string; readonly lastBlocker: boolean };

const GRANTED: Decision = { granted: true };

/** Decides for contender `ourIndex` of a queue sorted by sequence (names.ts sortContenders). */
export function decide(sorted: readonly Contender[], ourIndex: number): Decision {
  return (sorted[ourIndex] as Contender).kind === 'write' ? writerDecision(sorted, ourIndex) : readerDecision(sorted, ourIndex);
}

/**
 * A writer holds the lock iff nobody precedes it; otherwise it watches its immediate predecessor, reader or
 * writer. The only node that can appear ahead of a waiter is a downgrade's read node, which takes the sequence
 * of a HELD `__WRIT__` node (CURATOR-621); so when one node precedes us and it is not a `__WRIT__` node, its
 * deletion leaves us at the head.
 */
export function writerDecision(sorted: readonly Contender[], ourIndex: number): Decision {
  if (ourIndex === 0) return GRANTED;
  const pred = sorted[ourIndex - 1] as Contender;
  return { granted: false, watch: pred.name, lastBlocker: ourIndex === 1 && pred.marker !== MARKER.write };
}

/**
 * A reader holds the lock iff no writer precedes it; otherwise it watches its NEAREST preceding writer (the ZK
 * recipe and kazoo; Curator watches the lowest writer, which wakes readers behind several writers on every
 * writer release). When that writer goes, the reader re-evaluates and may find an earlier writer still queued;
 * if it was the only writer ahead, nothing else can block us (a downgrade adds readers, never writers).
 */
export function readerDecision(sorted: readonly Contender[], ourIndex: number): Decision {
  let nearest: Contender | undefined;
  let writersAhead = 0;
  for (let i = ourIndex - 1; i >= 0; i--) {
    const c = sorted[i] as Contender;
    if (c.kind !== 'write') continue;
    nearest ??= c;
    writersAhead++;
  }
  return nearest === undefined ? GRANTED : { granted: false, watch: nearest.name, lastBlocker: writersAhead === 1 };
}

/** Indexes of the contenders that hold the lock now: the head writer, or the readers ahead of the first writer. */
export function holderIndexes(sorted: readonly Contender[]): number[] {
  const firstWriter = sorted.findIndex((c) => c.kind === 'write');
  if (firstWriter === 0) return [0];
  return Array.from({ length: firstWriter < 0 ? sorted.length : firstWriter }, (_, i) => i);
}
