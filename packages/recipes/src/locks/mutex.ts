/**
 * A fair, optionally reentrant mutex with Curator InterProcessMutex's node layout (`_c_<uuid>-lock-<seq>`), so
 * zkts and Curator mutex processes queue together. It is a writer under lock-rule.ts's rule: it waits for every
 * contender ahead of it on the path (readers and writers of any library) and blocks everyone behind it.
 * Each waiter watches only its immediate predecessor: a release wakes exactly one waiter.
 *
 *   const mutex = new Mutex(client, '/app/locks/job');
 *   await using held = await mutex.acquire({ timeout: 5_000 });
 *   await store.write(x, { fencingToken: held.fencingToken });
 *
 * Non-reentrant (default): acquiring again from the same instance while it holds rejects with LockBusyError
 * (waiting on yourself would deadlock). Two instances never share ownership, even on one client.
 */
import { FairLock } from './fair-lock.js';
import { MARKER } from './lock-rule.js';
import type { TracedAs } from './lock-trace.js';

const TRACED: TracedAs = { recipe: 'Mutex', kind: 'exclusive' };

/** A fair, herd-free exclusive lock with Curator's node layout (`_c_<uuid>-lock-<seq>`); its handles carry fencing tokens. */
export class Mutex extends FairLock {
  protected readonly marker = MARKER.mutex;
  protected readonly tracedAs = TRACED;
}
