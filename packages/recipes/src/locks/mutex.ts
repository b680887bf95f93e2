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

/**
 * A fair, herd-free exclusive lock with Curator `InterProcessMutex`'s node layout (`_c_<uuid>-lock-<seq>`), so zkts
 * and Curator processes queue together. `acquire({ timeout, signal })` resolves with a {@link LockHandle}: release
 * it (or `await using` it), pass its `fencingToken` (grows with every grant) to what you protect, stop when its
 * `lost` signal fires, and write to ZooKeeper through `guard(ops)` (commits only while the lock is held).
 *
 * Contenders are served in order, and each waiter watches only the node before its own, so a release wakes one
 * waiter. Not reentrant unless `{ reentrant: true }`: a second `acquire()` of a holding instance rejects with
 * `LockBusyError` instead of waiting on itself.
 *
 * @example
 * ```ts
 * import { connect } from '@zkts/protocol';
 * import { Mutex } from '@zkts/recipes';
 *
 * await using zk = await connect(process.env.ZKTS_SERVER ?? '127.0.0.1:2181');
 * const mutex = new Mutex(zk, '/example/locks/report');
 * {
 *   await using lock = await mutex.acquire({ timeout: 5_000 });
 *   console.log('holding, token', lock.fencingToken > 0n, 'lost', lock.lost.aborted);
 *   console.log('another instance gets it?', (await new Mutex(zk, '/example/locks/report').tryAcquire()) !== null);
 *   await lock.guard([{ op: 'create', path: '/example/report', data: 'written under the lock' }]);
 * }
 * console.log('contenders left', (await mutex.participants()).length);
 * await zk.removeRecursive('/example');
 * // holding, token true lost false
 * // another instance gets it? false
 * // contenders left 0
 * ```
 */
export class Mutex extends FairLock {
  protected readonly marker = MARKER.mutex;
  protected readonly tracedAs = TRACED;
}
