/**
 * A held lock, as a handle: release it, `await using` it, watch `lost`, pass `fencingToken` to the resource you
 * protect, or run a multi that commits only while the lock node still exists (`guard`).
 */
import { MultiError } from '@zkts/protocol';

import { LockLostError, LockNotHeldError } from '../errors.js';
import {
  checkArg, isConnectedState, isNoNode, rules, type LockWaitTrace, type Op, type OpResult, type RecipeClient,
} from '../internal/index.js';
import { HoldTrace, type TracedAs } from './lock-trace.js';

/** When a held lock counts as lost: only when the session is certainly gone, or already when it is in doubt. */
export type LostOn = 'expired' | 'suspended';

export const LOST_ON: readonly LostOn[] = ['expired', 'suspended'];

/**
 * What an acquire() still waiting when its session expires does: start over in the renewed session, with a
 * new node at the back of the queue ('restart', the default, as Curator's and kazoo's locks retry), or reject
 * with the session's error ('reject'). A granted lock is never carried over: its `lost` fires either way.
 */
export type ExpiryPolicy = 'restart' | 'reject';

export const EXPIRY_POLICIES: readonly ExpiryPolicy[] = ['restart', 'reject'];

/** A held lock: release it (or `await using` it), watch `lost`, pass `fencingToken` to what you protect, and write through `guard`. */
export interface LockHandle extends AsyncDisposable {
  /** Full path of the node that holds the lock. */
  readonly node: string;
  /**
   * The node's czxid: grows with every grant of this lock (grant order = creation order = zxid order), is
   * 64-bit, and survives the lock directory being deleted (unlike the sequence number, which resets and wraps).
   */
  readonly fencingToken: bigint;
  /** Fires when the lock can no longer be trusted: session expired/closed (and suspended, by policy). */
  readonly lost: AbortSignal;
  /** True once release() was called on this handle. */
  readonly released: boolean;
  /** Gives this handle's hold back; the node is deleted when the last hold of the lock goes. Idempotent. */
  release(): Promise<void>;
  /**
   * Runs `ops` as one multi that commits only while our lock node exists (a `check` of it goes first). Resolves
   * with the results of `ops`. If the check fails the lock is gone: rejects with `LockLostError` (and `lost`
   * fires). If one of `ops` fails: a `MultiError` whose `failedIndex` and `results` count `ops` only.
   */
  guard(ops: Op[]): Promise<OpResult[]>;
}

/**
 * The ZooKeeper side of a hold, shared by the reentrant handles of one lock instance. Tracks loss: session
 * state changes (always), and a data watch on our own node, armed the first time someone looks at `lost` (so
 * a lock nobody watches costs no extra request).
 */
export class Hold {
  readonly client: RecipeClient;
  readonly node: string;
  readonly fencingToken: bigint;
  readonly sessionId: bigint;
  /** Set when a duplicate node with our uuid may exist: the release sweeps it (contender.ts sweepPrefix). */
  sweep: { readonly dir: string; readonly prefix: string } | undefined;
  count = 1;
  /** This hold's `zkts:lock.hold` trace, when somebody listened as it began (lock-trace.ts). */
  trace: HoldTrace | undefined;
  /**
   * Behind `lost`, made when somebody first reads it: most holds are released without anyone asking, and an
   * AbortController per hold showed in the uncontended lock cycle's profile.
   */
  private controller: AbortController | undefined;
  /** The LockLostError, once lost. */
  private lostWith: LockLostError | undefined;
  /** Told once when the hold is lost (traces); allocated by the first whenLost. */
  private lossListeners: ((error: unknown) => void)[] | undefined;
  private readonly unsubscribe: () => void;
  private armed = false;
  private ended = false;

  constructor(client: RecipeClient, node: string, czxid: bigint, sessionId: bigint, lostOn: LostOn) {
    this.client = client;
    this.node = node;
    this.fencingToken = czxid;
    this.sessionId = sessionId;
    this.unsubscribe = client.onStateChange((c) => {
      if (c.state === 'expired' || c.state === 'closed' || c.state === 'auth-failed') this.lose(`session ${c.state}`);
      else if (c.state === 'suspended' && lostOn === 'suspended') this.lose('connection suspended');
      else if (c.sessionId !== 0n && c.sessionId !== sessionId) this.lose('a new session replaced ours');
    });
    if (client.sessionId !== sessionId || client.state === 'expired' || client.state === 'closed') this.lose('session gone');
    else if (lostOn === 'suspended' && !isConnectedState(client.state)) this.lose('not connected');
  }

  get lost(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.lostWith !== undefined) this.controller.abort(this.lostWith);
    }
    if (!this.armed) {
      this.armed = true;
      this.armNodeWatch();
    }
    return this.controller.signal;
  }

  /** Whether loss was detected, without arming the node watch that reading `lost` arms. */
  get isLost(): boolean {
    return this.lostWith !== undefined;
  }

  /** The hold is over (released or lost): stop listening. */
  end(): void {
    this.ended = true;
    this.lossListeners = undefined;
    this.unsubscribe();
  }

  lose(why: string): void {
    if (this.lostWith !== undefined) return;
    const error = new LockLostError(`lock ${this.node} lost: ${why}`);
    this.lostWith = error;
    this.controller?.abort(error);
    this.unsubscribe();
    this.trace?.lost(error);
    const listeners = this.lossListeners;
    this.lossListeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener(error);
  }

  /**
   * Begins this hold's `zkts:lock.hold` trace when somebody listens: after the wait's asyncEnd, so the hold
   * follows its wait (`wait`: that wait's context, if it was traced). A hold lost meanwhile ends at once.
   */
  beginTrace(as: TracedAs, path: string, wait?: LockWaitTrace): void {
    const trace = HoldTrace.begin(as, path, this, wait);
    if (trace === undefined) return;
    this.trace = trace;
    if (this.lostWith !== undefined) trace.lost(this.lostWith);
  }

  /**
   * Calls `listener` with the LockLostError once the hold is lost (at once if it is already), without arming
   * the node watch that reading `lost` arms. Nothing is called after a release (end()).
   */
  whenLost(listener: (error: unknown) => void): void {
    if (this.lostWith !== undefined) listener(this.lostWith);
    else if (!this.ended) (this.lossListeners ??= []).push(listener);
  }

  private armNodeWatch(): void {
    if (this.ended || this.lostWith !== undefined) return;
    this.client.getData(this.node, { watch: true }).then(
      (r) => {
        r.watch?.then(
          (ev) => {
            if (this.ended) return;
            if (ev.type === 'deleted') this.lose('node deleted');
            else this.armNodeWatch();
          },
          () => undefined, // session loss is reported through the state listener
        );
      },
      (e: unknown) => {
        if (this.ended) return;
        if (isNoNode(e)) this.lose('node deleted');
        // Connection trouble: the state listener covers the session; a later access does not re-arm.
      },
    );
  }
}

/** One acquire's handle. Reentrant acquires of one instance each get their own handle on a shared Hold. */
export class LockHandleImpl implements LockHandle {
  private readonly hold: Hold;
  private readonly giveBack: (handle: LockHandleImpl) => Promise<void>;
  private done: Promise<void> | undefined;

  constructor(hold: Hold, giveBack: (handle: LockHandleImpl) => Promise<void>) {
    this.hold = hold;
    this.giveBack = giveBack;
  }

  get node(): string {
    return this.hold.node;
  }
  get fencingToken(): bigint {
    return this.hold.fencingToken;
  }
  get lost(): AbortSignal {
    return this.hold.lost;
  }
  get released(): boolean {
    return this.done !== undefined;
  }

  /** Hold.whenLost of this handle's hold (for a MultiLock's trace: it learns of a loss without arming a watch). */
  whenLost(listener: (error: unknown) => void): void {
    this.hold.whenLost(listener);
  }

  release(): Promise<void> {
    this.done ??= this.giveBack(this);
    return this.done;
  }

  async guard(ops: Op[]): Promise<OpResult[]> {
    checkArg('LockHandle.guard', 'ops', ops, rules.arrayOf(rules.object));
    if (this.released) throw new LockNotHeldError('guard() on a released lock handle');
    try {
      const results = await this.hold.client.multi([{ op: 'check', path: this.hold.node }, ...ops]);
      return results.slice(1);
    } catch (e) {
      throw this.callersView(e);
    }
  }

  /**
   * A failed guard in the caller's terms: our check failing with NO_NODE is a lost lock; otherwise a MultiError
   * numbered over the caller's ops (-1 when the check failed for another reason, e.g. someone took READ away from
   * our node: no op of the caller's failed, none was applied).
   */
  private callersView(e: unknown): unknown {
    if (!(e instanceof MultiError)) return e;
    if (e.failedIndex === 0 && isNoNode(e)) {
      this.hold.lose('node deleted');
      return new LockLostError(`guard(): lock ${this.hold.node} is not held any more (its node is gone); nothing was written`, { cause: e });
    }
    const codes = e.results.slice(1).map((r) => r.keeperCode);
    return new MultiError(e.failedIndex - 1, e.keeperCode, codes, e.path);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.release();
  }
}
