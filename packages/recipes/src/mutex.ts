/**
 * A fair, optionally reentrant mutex with Curator InterProcessMutex's node layout (`_c_<uuid>-lock-<seq>`), so
 * zkts and Curator processes queue together; kazoo's `__lock__`/`__rlock__` nodes count as contenders too.
 * Each waiter watches only its immediate predecessor: a release wakes exactly one waiter.
 *
 *   const mutex = new Mutex(client, '/app/locks/job');
 *   await using lease = await mutex.acquire({ timeout: 5_000 });
 *   await store.write(x, { fencingToken: lease.fencingToken });
 *
 * Non-reentrant (default): acquiring again from the same instance while it holds rejects with LockBusyError
 * (waiting on yourself would deadlock). Two instances never share ownership, even on one client.
 */
import { MUTEX_MARKERS, writerDecision, type Decision } from './lock-rule.js';
import type { Contender, MarkerTable } from './names.js';
import { QueueLock } from './queue-lock.js';

export class Mutex extends QueueLock {
  protected readonly marker = 'lock-';
  protected readonly markers: MarkerTable = MUTEX_MARKERS;
  protected override readonly sequentialOnly = true;

  protected decide(sorted: readonly Contender[], ourIndex: number): Decision {
    return writerDecision(sorted, ourIndex);
  }
}
