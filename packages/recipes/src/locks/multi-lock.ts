/**
 * Several locks taken in a fixed order (the order given: callers that always list locks in one global order
 * cannot deadlock each other), under ONE deadline shared by all of them (Curator gives each lock the full
 * timeout, so N locks could wait N times as long). On failure, and on release, the locks taken are released in
 * reverse order. If a lock taken early is lost while a later one is awaited (a session expiry, with the later
 * lock restarting in the renewed session), the acquire gives everything back and starts over, so it never
 * resolves with a handle that is already lost.
 */
import { systemClock, type Clock } from '@zkts/protocol';

import {
  checkArg, checkOptions, checkWait, lockHold, lockWait, nested, openScope, rules, traced, type LockWaitTrace, type Scope, type WaitOptions,
} from '../internal/index.js';
import type { Lockable } from './fair-lock.js';
import { LockHandleImpl, type LockHandle } from './lock-handle.js';
import { HoldTrace, waitTrace, type TracedAs } from './lock-trace.js';

const TRACED: TracedAs = { recipe: 'MultiLock', kind: 'multi' };

/** What a lock may tell about itself: its path and client (every zkts lock has both; a Lockable need not). */
interface Described {
  readonly path?: unknown;
  readonly client?: { readonly sessionId?: unknown };
}

/** A held MultiLock: the handles of its locks (`leases`), released together in reverse order. */
export interface MultiLockHandle extends AsyncDisposable {
  readonly leases: readonly LockHandle[];
  /** Fires when any of the handles is lost. */
  readonly lost: AbortSignal;
  readonly released: boolean;
  /** Releases every handle, last acquired first. */
  release(): Promise<void>;
}

/** Several locks taken in the given order under one deadline; if one cannot be had, those already taken are released. */
export class MultiLock {
  readonly locks: readonly Lockable[];
  /** Times an acquire gave everything back and started over because a lock it had taken was lost meanwhile. */
  restarts = 0;
  private readonly clock: Clock;

  /** `clock` times the shared deadline (default: the system clock). */
  constructor(locks: readonly Lockable[], options: { clock?: Clock } = {}) {
    checkArg('MultiLock', 'locks', locks, rules.arrayOf(rules.withMethods('a lock', 'acquire'), { nonEmpty: true }));
    checkOptions('MultiLock', options, { clock: rules.clock });
    this.locks = [...locks];
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Takes every lock in order, or none. Traced as one `zkts:lock.wait` (kind 'multi'): the waits of the locks
   * inside run in its context, so they are its children.
   */
  async acquire(options: WaitOptions = {}): Promise<MultiLockHandle> {
    checkWait('MultiLock.acquire', options);
    // One scope for all the locks: each acquire gets its signal, which fires at the shared deadline.
    const scope = openScope(options, 'multi-lock', this.clock);
    const trace = lockWait.hasSubscribers ? waitTrace(TRACED, this.paths(), this.sessionId()) : undefined;
    try {
      const multi = await traced(lockWait, trace, () => this.acquireAll(scope));
      if (lockHold.hasSubscribers) multi.beginTrace(trace?.path ?? this.paths(), trace?.sessionId ?? this.sessionId(), trace);
      return multi;
    } finally {
      scope?.dispose();
    }
  }

  /** The locks' paths joined with ',' (what the tracing channels report as the multi-lock's path). */
  private paths(): string {
    return this.locks.map((l) => (l as Described).path).filter((p): p is string => typeof p === 'string').join(',');
  }

  /** The session of the first lock's client, if it tells one (0n otherwise). */
  private sessionId(): bigint {
    const id = (this.locks[0] as Described | undefined)?.client?.sessionId;
    return typeof id === 'bigint' ? id : 0n;
  }

  private async acquireAll(scope: Scope): Promise<Multi> {
    for (;;) {
      const taken: LockHandle[] = [];
      try {
        for (const lock of this.locks) taken.push(await lock.acquire(nested(scope)));
      } catch (e) {
        await releaseReversed(taken);
        throw e;
      }
      // A lock lost while we waited for the later ones (its session expired, say, and the later locks then
      // restarted in the renewed one) would make an all-or-nothing hold that is not: give all back, start over.
      if (!taken.some((l) => l.lost.aborted)) return new Multi(taken);
      await releaseReversed(taken).catch(() => undefined);
      this.restarts++;
    }
  }
}

async function releaseReversed(leases: readonly LockHandle[]): Promise<void> {
  const errors: unknown[] = [];
  for (const lease of [...leases].reverse()) {
    try {
      await lease.release();
    } catch (e) {
      errors.push(e);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, 'releasing a multi-lock failed');
}

class Multi implements MultiLockHandle {
  readonly leases: readonly LockHandle[];
  private done: Promise<void> | undefined;
  private lostSignal: AbortSignal | undefined;
  /** The multi-lock's `zkts:lock.hold` trace: lost when any lock is, released once all are. */
  private trace: HoldTrace | undefined;

  constructor(leases: readonly LockHandle[]) {
    this.leases = leases;
  }

  get lost(): AbortSignal {
    this.lostSignal ??= AbortSignal.any(this.leases.map((l) => l.lost));
    return this.lostSignal;
  }

  get released(): boolean {
    return this.done !== undefined;
  }

  /** Begins the hold's trace (after the wait's asyncEnd; the caller checked that somebody listens). */
  beginTrace(path: string, sessionId: bigint, wait: LockWaitTrace | undefined): void {
    const trace = HoldTrace.begin(TRACED, path, { sessionId }, wait);
    if (trace === undefined) return;
    this.trace = trace;
    const lost = (error: unknown): void => trace.lost(error);
    for (const lease of this.leases) {
      // Our own handles tell of a loss without the node watch that reading `lost` arms; another Lockable's
      // handle only through `lost`.
      if (lease instanceof LockHandleImpl) lease.whenLost(lost);
      else if (lease.lost.aborted) lost(lease.lost.reason);
      else lease.lost.addEventListener('abort', () => lost(lease.lost.reason), { once: true });
    }
  }

  release(): Promise<void> {
    this.done ??= releaseReversed(this.leases).finally(() => this.trace?.released());
    return this.done;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.release();
  }
}
