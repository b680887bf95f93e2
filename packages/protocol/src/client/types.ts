/**
 * Public types of the client (docs/architecture.md). Kept apart from the implementation so the
 * recipes and CLI packages can read the surface in one place.
 */
import type { Buffer } from 'node:buffer';
import type { ConnectionOptions } from 'node:tls';
import type { ZkError, ZkErrorCode } from '../errors/errors.js';
import type { Clock } from './clock.js';
import type { Stat } from './stat.js';

export interface ClientOptions {
  /** ms requested, default 30_000; the server negotiates and every timer derives from the negotiated value. */
  sessionTimeout?: number;
  /** ms per host attempt; default negotiated/hostCount (before the first session: sessionTimeout/hostCount). */
  connectTimeout?: number;
  /** Largest frame accepted or sent; must match the server's jute.maxbuffer. Default 0xfffff. */
  maxPacket?: number;
  canBeReadOnly?: boolean;
  /** Credentials replayed on every (re)connect, before watches are re-set. */
  auth?: { scheme: string; auth: string | Uint8Array }[];
  /** Set ⇒ connect with TLS. */
  tls?: ConnectionOptions;
  /** Requests made while suspended: wait for the reconnect (default) or fail fast. */
  whileSuspended?: 'queue' | 'fail';
  /** Bound on requests queued while not connected (default 10_000). */
  maxQueued?: number;
  /** ms, default 0 = off; per call: `{ timeout }`. */
  requestTimeout?: number;
  /** Shuffle the hosts once (default true). */
  shuffle?: boolean;
  /** Re-attach to an existing session (e.g. to hand a session over, or to expire it in tests). */
  sessionId?: bigint;
  sessionPassword?: Uint8Array;
  /** The time source of every timer (session, requests, waits); a manual clock in tests. Default: the system's. */
  clock?: Clock;
  /**
   * Where the client reports what happens to its session (connected, suspended, expired, failed connection
   * attempts, a listener that threw). Default: silent. `console` fits, and so do pino and winston loggers.
   * `NODE_DEBUG=zkts` keeps printing its own lines either way.
   */
  logger?: Logger;
}

/**
 * A logger the client reports to: any object with some of these four methods (missing ones are skipped).
 * `details` holds plain values only (ids as hex strings), so a JSON logger can write it as it is.
 */
export interface Logger {
  /** Connection attempts and transitions a healthy client goes through. */
  debug?(message: string, details?: Record<string, unknown>): void;
  /** Connected, reconnected, closed. */
  info?(message: string, details?: Record<string, unknown>): void;
  /** Suspended (the connection is lost; the session may survive), a failed connection attempt, read-only. */
  warn?(message: string, details?: Record<string, unknown>): void;
  /** The session is gone (expired, auth failed), or a listener threw. */
  error?(message: string, details?: Record<string, unknown>): void;
}

export type SessionState =
  | 'idle'
  | 'connecting'
  | 'connected'
  | 'connected-read-only'
  | 'suspended'
  | 'expired'
  | 'auth-failed'
  | 'closed';

export interface StateChange {
  state: SessionState;
  previous: SessionState;
  sessionId: bigint;
  error?: ZkError;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeout?: number;
}

/** A string is sent as UTF-8. */
export type Data = Uint8Array | string;

export type CreateMode =
  | 'persistent'
  | 'ephemeral'
  | 'persistent-sequential'
  | 'ephemeral-sequential'
  | 'container'
  | 'persistent-ttl'
  | 'persistent-sequential-ttl';

export type { Stat };

/**
 * What `getData` resolves to. `data` is a Buffer: `data.toString()` is its UTF-8 text and `JSON.parse(data)`
 * parses it.
 */
export interface GetDataResult {
  data: Buffer;
  stat: Stat;
}

/** What `getChildren` resolves to: the child names (not paths, unsorted) and the parent's Stat. */
export interface GetChildrenResult {
  children: string[];
  stat: Stat;
}

/** A result with the one-shot watch that `{ watch: true }` asked for: it resolves on the first event. */
export type Watched<T> = T & { watch: Promise<WatchEvent> };

export interface ACL {
  perms: number;
  id: { scheme: string; id: string };
}

export type EventTypeName =
  | 'created'
  | 'deleted'
  | 'dataChanged'
  | 'childrenChanged'
  | 'dataWatchRemoved'
  | 'childWatchRemoved'
  | 'persistentWatchRemoved';

export interface WatchEvent {
  type: EventTypeName;
  /** Client path: the chroot is stripped. */
  path: string;
  /** zxid of the notification frame (-1n for events the client makes itself, e.g. watch removal). */
  zxid: bigint;
}

export type WatchListener = (event: WatchEvent) => void;

export interface WatchOptions extends CallOptions {
  watch?: true | WatchListener;
}

export interface CreateOptions extends CallOptions {
  mode?: CreateMode;
  /** Default: open (world:anyone, ALL). */
  acl?: ACL[];
  /** ms, required for (and only for) the TTL modes. */
  ttl?: number;
}

export type Op =
  | { op: 'create'; path: string; data?: Data | null; acl?: ACL[]; mode?: CreateMode; ttl?: number }
  | { op: 'delete'; path: string; version?: number }
  | { op: 'setData'; path: string; data: Data | null; version?: number }
  | { op: 'check'; path: string; version?: number };

export type OpResult =
  | { op: 'create'; path: string; stat?: Stat }
  | { op: 'delete' }
  | { op: 'setData'; stat: Stat }
  | { op: 'check' };

export type ReadOp = { op: 'getData'; path: string } | { op: 'getChildren'; path: string };

export type ReadResult =
  | { op: 'getData'; data: Buffer; stat: Stat }
  | { op: 'getChildren'; children: string[] }
  | { op: 'error'; error: ZkError };

export interface MultiOpOutcome {
  code: ZkErrorCode | 'OK' | 'RUNTIME_INCONSISTENCY';
  keeperCode: number;
}

export interface PersistentWatch extends AsyncIterable<WatchEvent>, AsyncDisposable {
  readonly path: string;
  on(listener: WatchListener): () => void;
  /** removeWatches on the server (when this was the last listener of the path) + ends the iterator. */
  remove(options?: CallOptions): Promise<void>;
}

export type RemoveWatchType = 'children' | 'data' | 'any' | 'persistent' | 'persistent-recursive';
export type CheckWatchType = 'children' | 'data' | 'any';

export interface ReconfigOptions extends CallOptions {
  /** Comma-separated server specs to add (incremental reconfig). */
  joining?: string;
  /** Comma-separated server ids to remove (incremental reconfig). */
  leaving?: string;
  /** The complete new membership (non-incremental reconfig). */
  newMembers?: string;
  /** Only apply if the current config version is this one (-1 = any). */
  fromConfig?: bigint;
}
