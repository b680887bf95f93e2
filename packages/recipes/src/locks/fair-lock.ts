/**
 * The handle-level behaviour shared by Mutex and both sides of ReadWriteLock: one instance is one contender;
 * reentrancy (optional) counts acquires of the same instance; release is guaranteed (retried across reconnects
 * until the node or the session is gone) and the instance stays "releasing" until then, so a new acquire can
 * never overlap a stale node of ours. The kinds differ only in the marker they write; who waits for whom is
 * lock-rule.ts's one rule, the same for every node on the path.
 */
import { basename, joinPath, systemClock, type ACL, type Clock } from '@zkts/protocol';

import { LockBusyError, LockNotHeldError } from '../errors.js';
import {
  aclRule, checkClientAndPath, checkOptions, checkWait, childrenOrEmpty, lockWait, lostOnFor, openScope, rules, type OptionRules, readNodes, removeNode, sortContenders, testHooksOf, utf8, withAcl, type Contender,
  type ContenderKind, type Data, type LockWaitTrace, type RecipeClient, type Scope, type WaitOptions,
} from '../internal/index.js';
import { contend, newStats, sweepPrefix, type Entry, type ContenderSpec, type LockStats } from './contender.js';
import { EXPIRY_POLICIES, Hold, LockHandleImpl, LOST_ON, type ExpiryPolicy, type LockHandle, type LostOn } from './lock-handle.js';
import { decide, holderIndexes, LOCK_MARKERS } from './lock-rule.js';
import { IDLE, type Attempt, type LockState } from './lock-state.js';
import { borrowerOf, progressFor, progressOf, waitTrace, type TracedAs, type WaitProgress } from './lock-trace.js';

/** Options of Mutex, ReadLock and WriteLock. */
export interface LockOptions {
  /** Re-acquiring from the same instance while held increments a count (default false: rejects with LockBusyError). */
  reentrant?: boolean;
  /** Data stored in our contender node; `participants()` reports it. Default: empty. */
  data?: Data;
  /** When the handle's `lost` fires. Default: the client's recipeErrorPolicy, else 'expired'. */
  lostOn?: LostOn;
  /** The ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  acl?: ACL[];
  /** What an acquire() still waiting when its session expires does. Default 'restart' (ExpiryPolicy). */
  onExpiry?: ExpiryPolicy;
  /** Time source for `timeout` (default: the system clock); tests pass a manual one. */
  clock?: Clock;
}

/** The checks of LockOptions (Mutex, ReadWriteLock and its two sides). */
export const LOCK_OPTION_RULES: OptionRules<LockOptions> = {
  reentrant: rules.boolean, data: rules.data, lostOn: rules.oneOf(LOST_ON), onExpiry: rules.oneOf(EXPIRY_POLICIES), clock: rules.clock, acl: aclRule,
};

/** Anything MultiLock can hold. */
export interface Lockable {
  /** Waits for the lock and resolves with its handle. */
  acquire(options?: WaitOptions): Promise<LockHandle>;
}

/** One contender of a lock, in queue order. */
export interface Participant {
  /** Full path of the contender node. */
  node: string;
  sequence: number;
  kind: ContenderKind;
  /** The node's data as UTF-8 text (Curator writes the host address, zkts the `data` option). */
  data: string;
  /** The session owning the node. */
  ephemeralOwner: bigint;
  /** czxid of the node: its fencing token once granted. */
  czxid: bigint;
}

/** What a held lock instance keeps: the hold on ZooKeeper and one handle per unreleased acquire. */
interface Held {
  readonly hold: Hold;
  handles: LockHandleImpl[];
}

/** Where a traced acquire gets the hold it made, to begin the hold's trace after the wait's (a reentrant acquire makes none). */
interface FreshHold {
  hold: Hold | undefined;
}

/** Waits for `acquired`, then disposes of the acquire's scope (its timer and signal listener). */
async function disposedAfter<T>(scope: NonNullable<Scope>, acquired: Promise<T>): Promise<T> {
  try {
    return await acquired;
  } finally {
    scope.dispose();
  }
}

export abstract class FairLock implements Lockable {
  readonly client: RecipeClient;
  readonly path: string;
  /** Herd-freedom counters for this instance (diagnostics: the bench and the tests read them). */
  readonly stats: LockStats = newStats();
  protected readonly options: LockOptions;
  private state: LockState<Held> = IDLE;
  /** What errors and scopes call this lock. */
  private readonly what: string;

  constructor(client: RecipeClient, path: string, options: LockOptions = {}) {
    checkClientAndPath(new.target.name, client, path);
    checkOptions(new.target.name, options, LOCK_OPTION_RULES);
    this.client = withAcl(client, options.acl);
    this.path = path;
    this.options = options;
    this.what = `lock ${path}`;
  }

  /** The marker our nodes carry (lock-rule.ts MARKER): it makes them writers or readers for everyone. */
  protected abstract readonly marker: string;

  /** What the tracing channels call this lock (recipe and kind). */
  protected abstract readonly tracedAs: TracedAs;

  /** True while this instance holds the lock and the hold has not been lost. */
  get isHeld(): boolean {
    return this.state.kind === 'held' && !this.state.hold.isLost;
  }

  /** Full path of the node of the current hold, if any. */
  protected get currentNode(): string | undefined {
    return this.state.kind === 'held' ? this.state.hold.node : undefined;
  }

  /** How many unreleased acquires this instance holds (0 or 1 unless reentrant). */
  get holdCount(): number {
    return this.state.kind === 'held' ? this.state.hold.count : 0;
  }

  /** Waits for the lock. Rejects with TimeoutError / AbortError (our node removed) or LockBusyError. */
  acquire(options?: WaitOptions): Promise<LockHandle> {
    let scope: Scope;
    try {
      checkWait(`${this.constructor.name}.acquire`, options);
      scope = options === undefined ? null : openScope(options, this.what, this.options.clock ?? systemClock);
    } catch (e) {
      return Promise.reject(e);
    }
    const acquired = this.acquireTraced({ blocking: true, scope, restartOnExpiry: (this.options.onExpiry ?? 'restart') === 'restart' });
    // Without a scope there is nothing to dispose: the acquire's own promise is the caller's (no async step more).
    return (scope === null ? acquired : disposedAfter(scope, acquired)) as Promise<LockHandle>;
  }

  /** Takes the lock only if nobody is ahead of us; null otherwise (our node removed). */
  async tryAcquire(): Promise<LockHandle | null> {
    return (await this.acquireTraced({ blocking: false, scope: null })) ?? null;
  }

  /** Releases the most recent unreleased acquire of this instance; LockNotHeldError if there is none. */
  async release(): Promise<void> {
    const last = this.state.kind === 'held' ? this.state.handles.at(-1) : undefined;
    if (last === undefined) throw new LockNotHeldError(`${this.path}: release() without a held lock`);
    await last.release();
  }

  /** Contenders in queue order with their data. Foreign children are skipped. */
  async participants(): Promise<Participant[]> {
    const sorted = sortContenders(await childrenOrEmpty(this.client, this.path), LOCK_MARKERS);
    const byPath = new Map(sorted.map((c) => [joinPath(this.path, c.name), c]));
    const read = await readNodes(this.client, [...byPath.keys()]);
    return read.map(({ path, data, stat }) => {
      const c = byPath.get(path) as Contender;
      return { node: path, sequence: c.sequence, kind: c.kind, data: utf8(data), ephemeralOwner: stat.ephemeralOwner, czxid: stat.czxid };
    });
  }

  /** Who holds the lock now, by the one rule: the head writer, or the readers ahead of the first writer. */
  async holders(): Promise<Participant[]> {
    const ps = await this.participants();
    return holderIndexes(sortContenders(ps.map((p) => basename(p.node)), LOCK_MARKERS)).map((i) => ps[i] as Participant);
  }

  protected spec(): ContenderSpec {
    return {
      client: this.client, dir: this.path, marker: this.marker, markers: LOCK_MARKERS, decide,
      data: this.options.data ?? '', hooks: testHooksOf(this), stats: this.stats, owner: this, what: this.what,
    };
  }

  /** Gets a granted node (or undefined for a failed try). Subclasses override for special paths (downgrade). */
  protected obtain(attempt: Attempt, progress: WaitProgress | undefined): Promise<Entry | undefined> {
    return contend(progress === undefined ? this.spec() : { ...this.spec(), progress }, attempt);
  }

  /** Checks before acquiring; subclasses add rules (upgrade rejection). */
  protected precheck(): void {}

  /**
   * acquireWith as one `zkts:lock.wait` trace when somebody listens (its requests run in the trace's context),
   * then the trace of a new hold. A lock that is quiet (lock-trace.ts) publishes neither. Not async itself:
   * without a listener the acquire is acquireWith's promise, one async step fewer.
   */
  private acquireTraced(attempt: Attempt): Promise<LockHandle | undefined> {
    const outer = borrowerOf(this);
    const trace = outer === undefined ? waitTrace(this.tracedAs, this.path, this.client.sessionId) : undefined;
    if (trace === undefined) return this.acquireWith(attempt, progressFor(undefined, outer), outer === undefined ? 'now' : 'none');
    return this.acquireInTrace(attempt, trace);
  }

  private async acquireInTrace(attempt: Attempt, trace: LockWaitTrace): Promise<LockHandle | undefined> {
    const fresh: FreshHold = { hold: undefined };
    const handle = await lockWait.tracePromise(() => this.acquireWith(attempt, progressOf(trace), fresh, trace), trace);
    fresh.hold?.beginTrace(this.tracedAs, this.path, trace);
    return handle;
  }

  /**
   * Gets the lock: a reentrant count, or a new hold from obtain(). `holdTrace` says when a new hold's trace
   * begins: 'now' (at the grant), 'none' (the lock is quiet), or later by the caller, who gets the hold in it.
   */
  private async acquireWith(attempt: Attempt, progress: WaitProgress | undefined, holdTrace: 'now' | 'none' | FreshHold, trace?: LockWaitTrace): Promise<LockHandleImpl | undefined> {
    const current = this.state;
    if (current.kind === 'waiting') throw new LockBusyError(`${this.path}: an acquire of this instance is already in progress`);
    if (current.kind === 'held') {
      if (!current.hold.isLost) {
        if (this.options.reentrant !== true) throw new LockBusyError(`${this.path}: this non-reentrant instance already holds the lock`);
        current.hold.count++;
        if (trace !== undefined) granted(trace, current.hold.node, current.hold.sessionId, current.hold.fencingToken);
        return this.newHandle(current);
      }
      // The session took our node; drop the stale hold (its handles stay released-on-call).
      this.dropHold(current);
    }
    this.precheck();
    const releasing = this.state.kind === 'releasing' ? this.state.done : undefined;
    const waiting = { kind: 'waiting' } as const;
    this.state = waiting;
    try {
      if (releasing !== undefined) await releasing;
      const entry = await this.obtain(attempt, progress);
      if (entry === undefined) return undefined;
      const hold = new Hold(this.client, entry.path, entry.stat.czxid, entry.sessionId, lostOnFor(this.client, this.options.lostOn, 'expired'));
      hold.sweep = entry.uncertain;
      const held = { kind: 'held' as const, hold, handles: [] as LockHandleImpl[] };
      this.state = held;
      if (trace !== undefined) granted(trace, entry.path, entry.sessionId, entry.stat.czxid);
      if (holdTrace === 'now') hold.beginTrace(this.tracedAs, this.path);
      else if (holdTrace !== 'none') holdTrace.hold = hold;
      return this.newHandle(held);
    } finally {
      if (this.state === waiting) this.state = IDLE;
    }
  }

  private newHandle(held: Held): LockHandleImpl {
    const handle = new LockHandleImpl(held.hold, (h) => this.giveBack(held, h));
    held.handles.push(handle);
    return handle;
  }

  private async giveBack(held: Held, handle: LockHandleImpl): Promise<void> {
    const { hold } = held;
    const at = held.handles.indexOf(handle);
    if (at >= 0) held.handles.splice(at, 1);
    hold.count--;
    if (hold.count > 0) return;
    hold.end();
    const sweep = hold.sweep;
    const removed = removeNode(this.client, { path: hold.node }, hold.sessionId);
    // The sweep is rare (a create whose outcome was unknown): without one the release waits for the removal alone.
    const done = sweep === undefined ? removed : removed.then(() => sweepPrefix(this.client, sweep, hold.sessionId));
    // Only the hold this instance still has moves it to "releasing"; a stale hold (dropped after a loss) does not.
    const releasing = { kind: 'releasing', done } as const;
    if (this.state.kind === 'held' && this.state.hold === hold) this.state = releasing;
    try {
      await done;
    } finally {
      if (this.state === releasing) this.state = IDLE;
      hold.trace?.released();
    }
  }

  private dropHold(held: Held): void {
    held.hold.end();
    held.handles = [];
    this.state = IDLE;
    void removeNode(this.client, { path: held.hold.node }, held.hold.sessionId);
  }
}

/** A traced wait that was granted: our node, its session and fencing token (a downgrade's node is at the head). */
function granted(trace: LockWaitTrace, node: string, sessionId: bigint, fencingToken: bigint): void {
  trace.node = node;
  trace.sessionId = sessionId;
  trace.fencingToken = fencingToken;
  trace.queuePosition ??= 0;
}
