/**
 * The recipes' tracing channels (node:diagnostics_channel), their names and their context types: lock waits and
 * holds, election terms, cache (re)loads, queue puts and takes. Node derives five channels from each name,
 * `tracing:<name>:start|end|asyncStart|asyncEnd|error`; one context object goes through all five events of a
 * trace, and a subscriber may attach its own fields to it.
 *
 * Nothing is built when nobody listens: callers ask `hasSubscribers` before they allocate a context (the helpers
 * below take one that may be undefined). A trace whose end comes long after the call that began it (a hold, a
 * term) is published by hand in the same order `tracePromise` uses: start (through `runStores`, so that a store a
 * subscriber bound to start is entered), end, then error (when it failed), asyncStart and asyncEnd.
 */
import { tracingChannel, type TracingChannel } from 'node:diagnostics_channel';

/** The names of the recipes' tracing channels. */
export const RECIPE_CHANNELS = {
  lockWait: 'zkts:lock.wait',
  lockHold: 'zkts:lock.hold',
  electionTerm: 'zkts:election.term',
  cacheResync: 'zkts:cache.resync',
  queuePut: 'zkts:queue.put',
  queueTake: 'zkts:queue.take',
} as const;

/** What TracingChannel itself sets on a context: the resolved value, or the failure. */
interface Settled {
  error?: unknown;
  result?: unknown;
}

/** What kind of lock a wait or hold is for. */
export type LockKind = 'exclusive' | 'read' | 'write' | 'semaphore' | 'multi';

/** The context of `zkts:lock.wait`: one acquire, from the call until it is held or fails. */
export interface LockWaitTrace extends Settled {
  /** The recipe's class name: 'Mutex', 'ReadWriteLock', 'ExclusiveLock', 'Semaphore', 'MultiLock', … */
  readonly recipe: string;
  readonly kind: LockKind;
  /** The lock's path (MultiLock: its locks' paths joined with ','). */
  readonly path: string;
  /** Full path of our node, once created (a semaphore's: our first lease node). */
  node?: string;
  /** Our place in the queue as last seen: 0 = the head. Updated while the wait goes on. */
  queuePosition?: number;
  /** The node's czxid, set when granted, for the locks whose handles carry a fencing token. */
  fencingToken?: bigint;
  /** The session of our node (the client's when the wait began, before a node exists). */
  sessionId: bigint;
}

/** The context of `zkts:lock.hold`: from the grant until the release (its node deleted) or the loss. */
export interface LockHoldTrace extends LockWaitTrace {
  /** Set when the hold ends; 'lost' comes with `error` (a LockLostError). */
  reason?: 'released' | 'lost';
}

/** The context of `zkts:election.term`: one term of leadership. */
export interface ElectionTermTrace extends Settled {
  /** 'LeaderElection' or 'LeaderSelector'. */
  readonly recipe: string;
  readonly path: string;
  /** Full path of our node. */
  readonly node?: string;
  readonly participantId?: string;
  readonly sessionId: bigint;
  /**
   * Set when the term ends: 'resigned' (requeued, or the selector's callback returned or threw, the throw in
   * `error`), 'lost' (with `error`) or 'closed'.
   */
  reason?: 'resigned' | 'lost' | 'closed';
}

/** Why a cache (re)loads: its first load, or a resync (the reasons of its `resynced` events). */
export type CacheLoadReason = 'initial' | 'reconnect' | 'renewal' | 'retry';

/** The context of `zkts:cache.resync`: one full read of a cache, until its view is complete again. */
export interface CacheResyncTrace extends Settled {
  /** 'TreeCache', 'NodeCache' or 'ChildrenCache'. */
  readonly recipe: string;
  readonly path: string;
  /** A renewal that supersedes a reconnect's load still under way turns it into the renewal's. */
  reason: CacheLoadReason;
  /** Nodes the cache holds once loaded (as its `size`). */
  size?: number;
}

/** The context of `zkts:queue.put` and `zkts:queue.take`: one put, or one take. */
export interface QueueTrace extends Settled {
  /** The queue's class name: 'Queue', 'LockingQueue', 'DistributedQueue', … */
  readonly recipe: string;
  readonly path: string;
  /** Full path of the item's node, when known (put: once created; take: the item taken). */
  node?: string;
  /** The payload's length: what was put, or what was taken (unset for a take that got nothing). */
  bytes?: number;
}

export const lockWait: TracingChannel<unknown, LockWaitTrace> = tracingChannel(RECIPE_CHANNELS.lockWait);
export const lockHold: TracingChannel<unknown, LockHoldTrace> = tracingChannel(RECIPE_CHANNELS.lockHold);
export const electionTerm: TracingChannel<unknown, ElectionTermTrace> = tracingChannel(RECIPE_CHANNELS.electionTerm);
export const cacheResync: TracingChannel<unknown, CacheResyncTrace> = tracingChannel(RECIPE_CHANNELS.cacheResync);
export const queuePut: TracingChannel<unknown, QueueTrace> = tracingChannel(RECIPE_CHANNELS.queuePut);
export const queueTake: TracingChannel<unknown, QueueTrace> = tracingChannel(RECIPE_CHANNELS.queueTake);

/** `fn()` as one trace of `channel` when there is a context (somebody listens), else just `fn()`. */
export function traced<C extends object, R>(channel: TracingChannel<unknown, C>, context: C | undefined, fn: () => Promise<R>): Promise<R> {
  return context === undefined ? fn() : channel.tracePromise(fn, context);
}

/**
 * Publishes the start and end of a trace that finishes later (finishTrace). `fn`, if given, runs inside start's
 * context (the stores subscribers bound to start are active in it and in what it starts); its result is returned.
 */
export function beginTrace<C extends object, R = undefined>(channel: TracingChannel<unknown, C>, context: C, fn?: () => R): R {
  try {
    return channel.start.runStores(context, fn ?? (() => undefined as R));
  } finally {
    channel.end.publish(context);
  }
}

/** Ends a trace begun with beginTrace: error (when `error` is given), asyncStart, asyncEnd. */
export function finishTrace<C extends Settled>(channel: TracingChannel<unknown, C>, context: C, error?: unknown): void {
  if (error !== undefined) {
    context.error = error;
    channel.error.publish(context);
  }
  channel.asyncStart.publish(context);
  channel.asyncEnd.publish(context);
}

/** The length of a payload in bytes (a string is written as UTF-8). */
export function byteLength(data: Uint8Array | string | null | undefined): number {
  if (data === null || data === undefined) return 0;
  return typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
}
