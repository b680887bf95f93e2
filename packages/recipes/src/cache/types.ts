/**
 * The public types of the caches (TreeCache, NodeCache, ChildrenCache) and the watch helpers: what a cached node
 * is, the events, and the options. Kept apart from the implementation so the surface reads in one place.
 */
import type { Stat } from '@zkts/protocol';

import type { RecipeError } from '../errors.js';

/** One cached node: its Stat and its data as the cache keeps it (bytes, decoded, or nothing: see `data`). */
export interface CachedNode<T> {
  readonly stat: Stat;
  readonly data: T;
}

/**
 * A change of one node. `zxid` is the zxid of the state the event reports, read from a Stat (notifications carry
 * none): `mzxid` for added and changed; for removed, a zxid at which the node is known to be gone (its parent's
 * `pzxid`, read after the deletion). Events are delivered in zxid order; two events of one zxid (a multi, or a
 * subtree gone at once) come removals deepest first, other changes parents first.
 */
export type NodeEvent<T> =
  | { readonly type: 'added'; readonly path: string; readonly zxid: bigint; readonly node: CachedNode<T>; readonly old: undefined }
  | { readonly type: 'changed'; readonly path: string; readonly zxid: bigint; readonly node: CachedNode<T>; readonly old: CachedNode<T> }
  | { readonly type: 'removed'; readonly path: string; readonly zxid: bigint; readonly node: undefined; readonly old: CachedNode<T> };

/**
 * `initialized`: once, after the first full read, whose nodes came before it as `added` events.
 * `resynced`: after the cache re-read what it may have missed (a reconnect, a new session after an expiry, or a
 * read that failed for another reason: `retry`); the events that brought it in line came before it.
 */
export type CacheEvent<T> =
  | NodeEvent<T>
  | { readonly type: 'initialized'; readonly size: number }
  | { readonly type: 'resynced'; readonly reason: ResyncReason; readonly size: number };

/** Why a cache re-read everything: a reconnect, a session renewal, or a read that failed and was retried. */
export type ResyncReason = 'reconnect' | 'renewal' | 'retry';

/**
 * A listener gets every event in order. It may return a promise: its next event waits until that settles (the
 * cache, the client and other listeners do not). A throw or a rejection goes to `onError`, never further.
 */
export type CacheListener<T> = (event: CacheEvent<T>) => void | Promise<void>;

/**
 * Turns a node's bytes into what the cache keeps (a parsed config, a string…). It is applied to every cached node,
 * the cache's root and nodes that only hold children included, whose data is often empty: accept that too (e.g.
 * `bytes.length === 0 ? undefined : JSON.parse(…)`). A throw is reported to `onError` as a CacheDecodeError, and
 * the node is cached with `data` undefined.
 */
export type Decoder<T> = (bytes: Uint8Array, path: string) => T;

/**
 * What the cache keeps of each node's data: `'bytes'` (the default), `'stat'` (the Stat only: the data is never
 * read and `data` is undefined; declare the cache as `TreeCache<undefined>`), or a decoder.
 */
export type DataOption<T> = ([T] extends [Uint8Array] ? 'bytes' : never) | ([T] extends [undefined] ? 'stat' : never) | Decoder<T>;

/** Options every cache takes. */
export interface CacheOptions<T> {
  data?: DataOption<T>;
  /**
   * Events buffered for one consumer (listener or iterator) before its buffer starts merging: past this bound a
   * consumer that fell behind gets, per node, one event from what it last saw to the current state (a change
   * then a removal arrive as one removal; an addition then a removal as nothing), so its buffer holds at most one
   * event per node and it still ends with the cache's view. Default 10,000.
   */
  maxPending?: number;
  /**
   * `'auto'` (default): one persistent watch, or one-shot watches on a server before 3.6 (UNIMPLEMENTED);
   * `'one-shot'` forces the classic scheme (a data and a child watch per node).
   */
  watchMode?: 'auto' | 'one-shot';
  /** Requests in flight at most during a full (re-)read. Default 1,000. */
  window?: number;
  /**
   * Full reads ask for many nodes per request (multiRead, ZooKeeper 3.6+), which makes a large load an order of
   * magnitude faster. A batch is sized from the largest node seen so far; a node far larger than all before it
   * (hundreds of KiB among small ones) can still make one reply exceed the client's maxPacket, once: the client
   * drops that connection and the cache reads node by node from then on. `false`: node by node from the start.
   * Default true.
   */
  batchReads?: boolean;
  /**
   * Errors that concern no caller: a listener that threw, a decoder that threw (CacheDecodeError), a node that
   * cannot be read (CacheReadError: no permission…). Default: a process warning.
   */
  onError?: (error: RecipeError | Error) => void;
}

/** Options of a TreeCache. */
export interface TreeCacheOptions<T> extends CacheOptions<T> {
  /** Levels below the root that are cached: 0 = the root only, 1 = its children… Default: all. */
  maxDepth?: number;
  /** A node is cached (and its subtree read) only if it and each of its ancestors below the root pass. */
  filter?: (path: string) => boolean;
}
