/**
 * The lock family's side of the tracing channels (internal/diagnostics.ts): the context of one wait, how a wait
 * reports its progress (our node, our place in the queue) as it goes, the trace of one hold, and the locks that
 * publish nothing of their own because their wait belongs to the recipe above them (the gate mutex inside a
 * Semaphore, whose place in its queue is the semaphore's; the mutex under a LeaderSelector, whose holds are
 * election terms). Nothing here allocates unless somebody subscribes.
 */
import {
  beginTrace, finishTrace, lockHold, lockWait, type LockHoldTrace, type LockKind, type LockWaitTrace,
} from '../internal/index.js';

/** How the contender engine (contender.ts) tells a traced wait where it stands. */
export interface WaitProgress {
  /** Our node exists (created or adopted) and belongs to `sessionId`. */
  enqueued(path: string, sessionId: bigint): void;
  /** A listing shows us at `position` (0 = the head). */
  moved(position: number): void;
  /** The node just ahead of us went, without a new listing. */
  advanced(): void;
}

/** What the channels call a kind of lock: its recipe (class name) and kind. One constant per class. */
export interface TracedAs {
  readonly recipe: string;
  readonly kind: LockKind;
}

/** A wait's context when somebody listens to `zkts:lock.wait`, else undefined. */
export function waitTrace(as: TracedAs, path: string, sessionId: bigint): LockWaitTrace | undefined {
  return lockWait.hasSubscribers ? { recipe: as.recipe, kind: as.kind, path, sessionId } : undefined;
}

/** Progress written into a wait's own context. */
export function progressOf(trace: LockWaitTrace): WaitProgress {
  return {
    enqueued(path, sessionId) {
      trace.node = path;
      trace.sessionId = sessionId;
    },
    moved(position) {
      trace.queuePosition = position;
    },
    advanced() {
      if (trace.queuePosition !== undefined && trace.queuePosition > 0) trace.queuePosition--;
    },
  };
}

/** Locks whose waits and holds belong to the recipe above them: the outer wait's context, or null for none. */
const borrowed = new WeakMap<object, LockWaitTrace | null>();

/** Makes `lock` publish no wait or hold of its own; with `outer`, its place in its queue goes into `outer`. */
export function quiet(lock: object, outer?: LockWaitTrace): void {
  borrowed.set(lock, outer ?? null);
}

/**
 * Whose wait `lock`'s acquire is: undefined = its own (it publishes its wait and hold); null = nobody's (quiet);
 * a context = an outer wait's, which gets only its place in the queue.
 */
export function borrowerOf(lock: object): LockWaitTrace | null | undefined {
  return borrowed.get(lock);
}

/** Where the contender engine reports: the wait's own context, or the outer wait's (only the position), or nowhere. */
export function progressFor(own: LockWaitTrace | undefined, outer: LockWaitTrace | null | undefined): WaitProgress | undefined {
  if (own !== undefined) return progressOf(own);
  if (outer === undefined || outer === null) return undefined;
  const into = progressOf(outer);
  return { enqueued: () => undefined, moved: into.moved, advanced: into.advanced };
}

/** Where a hold stands: its node, fencing token and session (a Hold fits as it is). */
export interface HoldPlace {
  readonly node?: string | undefined;
  readonly fencingToken?: bigint | undefined;
  readonly sessionId: bigint;
}

/** One hold's `zkts:lock.hold` trace: begun at the grant, finished once, released or lost. */
export class HoldTrace {
  private readonly context: LockHoldTrace;
  private done = false;

  private constructor(context: LockHoldTrace) {
    this.context = context;
  }

  /**
   * Begins a hold's trace when somebody listens (else undefined). Called after the wait's asyncEnd, so the hold
   * follows its wait; `wait` (the wait's context, if it was traced) gives the last queue position.
   */
  static begin(as: TracedAs, path: string, place: HoldPlace, wait?: LockWaitTrace): HoldTrace | undefined {
    if (!lockHold.hasSubscribers) return undefined;
    const { node, fencingToken, sessionId } = place;
    const context: LockHoldTrace = { recipe: as.recipe, kind: as.kind, path, sessionId };
    if (node !== undefined) context.node = node;
    if (fencingToken !== undefined) context.fencingToken = fencingToken;
    const position = wait?.queuePosition;
    if (position !== undefined) context.queuePosition = position;
    const trace = new HoldTrace(context);
    beginTrace(lockHold, context);
    return trace;
  }

  /** The hold ended by a release (its node deleted). */
  released(): void {
    this.finish('released');
  }

  /** The hold was lost (`error`: the LockLostError its `lost` signal carries). */
  lost(error: unknown): void {
    this.finish('lost', error);
  }

  private finish(reason: 'released' | 'lost', error?: unknown): void {
    if (this.done) return;
    this.done = true;
    this.context.reason = reason;
    finishTrace(lockHold, this.context, error);
  }
}
