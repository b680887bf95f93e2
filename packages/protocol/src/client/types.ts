/**
 * Public types of the client (docs/architecture.md). Kept apart from the implementation so the
 * recipes and CLI packages can read the surface in one place.
 */
import type { Buffer } from 'node:buffer';
import type { ConnectionOptions } from 'node:tls';
import type { ZkError, ZkErrorCode } from '../errors/errors.js';
import type { Clock } from './clock.js';
import type { RetryPolicy } from './retry.js';
import type { Stat } from './stat.js';
import type { SaslOptions } from './sasl/mechanism.js';

/** Options of `createClient` and `connect`. All optional. */
export interface ClientOptions {
  /** ms requested, default 30_000; the server negotiates and every timer derives from the negotiated value. */
  sessionTimeout?: number;
  /** ms per host attempt; default the negotiated timeout (before the first session: sessionTimeout) over the host count, at most a third of it. */
  connectTimeout?: number;
  /**
   * The first `connect()` waits for a server to come up, up to its timeout, instead of failing. Default false:
   * once every host of the connect string has refused the connection (ECONNREFUSED), failed to resolve
   * (ENOTFOUND), been unreachable (EHOSTUNREACH, ENETUNREACH) or answered in another protocol (an HTTP
   * server: NotZooKeeperError), that connect rejects at once with UnreachableError naming each host's failure.
   * Set it for a program that may start before its ZooKeeper. Only the first connect: reconnects of a session
   * that existed always retry.
   */
  waitForServer?: boolean;
  /** Largest frame accepted or sent; must match the server's jute.maxbuffer. Default 0xfffff. */
  maxPacket?: number;
  canBeReadOnly?: boolean;
  /**
   * Credentials (auth packets: `digest` `user:password`, or any scheme the server has a provider for)
   * presented on every connection, in order, before watches are re-set and queued requests go. As with `sasl`,
   * the state reaches `connected` (and `connect()` resolves) only once the server has answered every one, so
   * `connected` means authenticated; a new session's credentials ride with its ConnectRequest, so this costs no
   * round trip. A refusal (AUTH_FAILED) ends the session in `auth-failed` with an AuthFailedError naming the
   * scheme (cause chained). Each entry needs a non-empty string `scheme` and a string or Uint8Array `auth`,
   * else createClient throws InvalidArgumentError (`auth[i].scheme` / `auth[i].auth`).
   */
  auth?: { scheme: string; auth: string | Uint8Array }[];
  /**
   * SASL authentication on every connection, right after the handshake and before anything else, as Java's
   * ZooKeeperSaslClient does: `{ mechanism: 'DIGEST-MD5', username, password }` (a server's DigestLoginModule
   * users), or `{ mechanism: gssapi() }` from @zkts/sasl-kerberos (Kerberos). The state reaches `connected`
   * only once the server has accepted it (so `connected` also means authenticated); a refusal or a failure of
   * the mechanism ends the session in `auth-failed` with an AuthFailedError (cause chained). The server then
   * knows the session as `sasl:<id>` (whoAmI; ACLs with Acls.sasl).
   */
  sasl?: SaslOptions;
  /**
   * Set ⇒ connect with TLS. A client certificate (`cert`, `key`) is the session's `x509` identity on a server
   * with X509AuthenticationProvider (whoAmI; ACLs with Acls.x509).
   */
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
  /**
   * After the session expires, open a new one with the same client (default true, as Curator and kazoo do).
   * The states go `expired` (old session id) → `connecting` → `connected` (new id, next generation); requests
   * of the old session reject with SessionExpiredError and are never sent in the new one; one-shot watches
   * reject. false: `expired` is final, as with ZooKeeper's Java client.
   */
  renewSession?: boolean;
  /**
   * With renewSession: re-add persistent watches in the new session, each first receiving a `resync` event
   * (changes in between were missed). Default true; false: they end with SessionExpiredError.
   */
  renewWatches?: boolean;
  /**
   * ms to wait before dialling again after the server closed a working connection, and before opening a new
   * session after an expiry: uniform in [min, max] (default { min: 100, max: 1200 }), so that the sessions of
   * a member that dies spread their reconnects over the survivors. A connection the network broke (a reset, a
   * timeout) dials the same server again at once instead, given that wait to answer. When the server closes a connection that had just
   * re-attached the session, or answers SESSION_MOVED, another connection holds the session: the wait is then
   * longer (1-2 s, doubling while it goes on, at most a third of the session timeout). After every host
   * failed in a row, the ~1 s back-off between cycles applies as before. 0 ≤ min ≤ max ≤ 60,000.
   */
  reconnectDelay?: { min: number; max: number };
  /** The random source of the host order and every jitter, values in [0, 1); a seeded one in tests. Default Math.random. */
  random?: () => number;
  /** Follow reconfigs: watch /zookeeper/config and move to the new membership (updateServers). Default false. */
  trackEnsemble?: boolean;
  /** Default retry policy of the operations that are safe to repeat (default: none). Per call: `{ retry }`. */
  retry?: RetryPolicy;
  /** The time source of every timer (session, requests, waits); a manual clock in tests. Default: the system's. */
  clock?: Clock;
  /**
   * Where the client reports what happens to its session (connected, suspended, expired, failed connection
   * attempts, a listener that threw). Default: silent. `console` fits, and so do pino and winston loggers.
   * `NODE_DEBUG=zkts` keeps printing its own lines either way.
   */
  logger?: Logger;
  /**
   * The ACL of every node created without an explicit `acl` (Curator's ACLProvider): `create`, `mkdirp` and its
   * parents, multi's create ops, and so every node @zkts/recipes creates. Default: world:anyone with ALL.
   * `forPath(path)` (the path as this client writes it, under its chroot; through a namespace view, with the
   * view's path in front; a sequential node's prefix) may return undefined for the default. See `ZkClient.aclFor`.
   */
  aclProvider?: AclProvider;
  /**
   * When @zkts/recipes treats a hold (a lock, a leadership, a lease) as lost, for every recipe not given its own
   * `lostOn` (Curator's ConnectionStateErrorPolicy): `'suspended'` at a lost connection (Curator's
   * StandardConnectionStateErrorPolicy), `'expired'` only when the session is gone (its
   * SessionConnectionStateErrorPolicy). Default: unset, each recipe's own default.
   */
  recipeErrorPolicy?: RecipeErrorPolicy;
  /** Bounds of the writes the client finishes in the background (guaranteed deletes, protected-create clean-ups). */
  backgroundWrites?: BackgroundWriteOptions;
}

/** How long a background write keeps trying before it gives up (then its event says `gave-up`). */
export interface BackgroundWriteOptions {
  /** Tries sent to a server (waits for a reconnect are not tries). Default 50. */
  maxAttempts?: number;
  /** ms from the write's start, waits for a reconnect included. Default 600_000 (10 minutes). */
  maxTime?: number;
}

/** `guaranteed-delete`: `delete(…, { guaranteed: true })`; `protected-cleanup`: removing what a failed protected create may have left. */
export type BackgroundWriteKind = 'guaranteed-delete' | 'protected-cleanup';

/**
 * A write the client is still finishing (`zk.pendingWrites`, `close()`'s `unfinished`). For a protected-cleanup
 * the path is the node's name with its protection prefix (a sequential node's suffix is not known yet).
 */
export interface PendingWrite {
  readonly kind: BackgroundWriteKind;
  readonly path: string;
  /** Tries sent so far. */
  readonly attempts: number;
  /** Clock time the write was handed over. */
  readonly since: number;
  /** Why the last try did not finish it. */
  readonly lastError: ZkError | undefined;
}

/**
 * `zk.on('backgroundWrite', …)`: `pending` when a write starts, then one of `done` (the node is gone),
 * `replaced` (after a new session the path holds an ephemeral node made since: not ours, left alone),
 * `failed` (an error a retry cannot fix, e.g. NOT_EMPTY, NO_AUTH, BAD_VERSION), `gave-up` (the bounds of
 * backgroundWrites) or `cancelled` (close(), or the session ended with none to follow).
 */
export interface BackgroundWriteEvent extends PendingWrite {
  readonly status: 'pending' | 'done' | 'replaced' | 'failed' | 'gave-up' | 'cancelled';
  error?: ZkError;
}

/** What `close()` resolves with: the background writes it stopped before they finished, and whether the session may outlive it. */
export interface CloseReport {
  readonly unfinished: PendingWrite[];
  /**
   * No server answered in close()'s time limit (about 2 s): the session stays open on the server until its
   * timeout runs out, and its ephemeral nodes with it (also logged as a warning). False once the server ended it,
   * for a session that had already ended, and for a view (its close leaves the session to its client).
   */
  readonly lingering: boolean;
}

/** The ACL provider of ClientOptions.aclProvider. */
export interface AclProvider {
  /** The ACL of a node `forPath` has no answer for (e.g. `[...Acls.creatorAll(), ...Acls.readUnsafe()]`). */
  default: ACL[];
  /** The ACL of the node at `path`, or undefined for `default`. Its answer is checked at each create. */
  forPath?(path: string): ACL[] | undefined;
}

/** See ClientOptions.recipeErrorPolicy. */
export type RecipeErrorPolicy = 'suspended' | 'expired';

/**
 * A logger the client reports to: any object with some of these four methods (missing ones are skipped):
 * console, pino, winston. Each message is whole by itself (server, cause, wait, session id in hex), since pino
 * keeps only the message; `details` repeats the facts as plain values (ids as hex strings) for the others.
 */
export interface Logger {
  /** Each dial and each authentication. */
  debug?(message: string, details?: Record<string, unknown>): void;
  /** Connected, reconnected, renewed (a new session after an expiry), closed, a move to another server. */
  info?(message: string, details?: Record<string, unknown>): void;
  /** A lost connection (and the wait before the next dial), a failed dial, a read-only server, an expiry. */
  warn?(message: string, details?: Record<string, unknown>): void;
  /** A refused authentication (the client is unusable), or a listener that threw. */
  error?(message: string, details?: Record<string, unknown>): void;
}

/** Where the session is. `expired`, `auth-failed` and `closed` are final; see the failure semantics guide. */
export type SessionState =
  | 'idle'
  | 'connecting'
  | 'connected'
  | 'connected-read-only'
  | 'suspended'
  | 'expired'
  | 'auth-failed'
  | 'closed';

/** One change of session state, as listeners and `states()` get it. */
export interface StateChange {
  state: SessionState;
  previous: SessionState;
  /** The session the change is about: on `expired`, the session that ended; from `connecting` on, the new one (0n until the handshake). */
  sessionId: bigint;
  /** 1 for the client's first session, +1 for each session opened after an expiry (renewSession). */
  generation: number;
  error?: ZkError;
}

/** Options every call takes: give up when `signal` fires or after `timeout` ms. */
export interface CallOptions {
  signal?: AbortSignal;
  /** ms for each try; the signal spans all of them. */
  timeout?: number;
  /**
   * Retry policy for this call (exponentialBackoff(), noRetry…). Honoured only by operations that are safe to
   * repeat (reads, exists, getChildren, sync, multiRead, getACL, whoAmI, checkWatches…); writes ignore it.
   */
  retry?: RetryPolicy;
}

/** A string is sent as UTF-8. */
export type Data = Uint8Array | string;

/** How `create` makes a node: persistent or ephemeral (deleted with the session), optionally sequential, a container (deleted by the server when its last child goes) or with a TTL. */
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

/** One access-control entry: permission bits (`Perms`) for one identity. */
export interface ACL {
  perms: number;
  id: { scheme: string; id: string };
}

/** What a watch event reports. */
export type EventTypeName =
  | 'created'
  | 'deleted'
  | 'dataChanged'
  | 'childrenChanged'
  | 'dataWatchRemoved'
  | 'childWatchRemoved'
  | 'persistentWatchRemoved'
  /** Client-made, persistent watches only: re-added in a new session after an expiry; changes in between were missed. */
  | 'resync';

/** A watch notification. */
export interface WatchEvent {
  type: EventTypeName;
  /** Client path: the chroot is stripped. */
  path: string;
  /** zxid of the notification frame (-1n for events the client makes itself, e.g. watch removal). */
  zxid: bigint;
}

/** A watch callback: `{ watch: (event) => … }`. */
export type WatchListener = (event: WatchEvent) => void;

/** Options of the reads that can leave a watch: `watch: true` for a promise, or a callback. */
export interface WatchOptions extends CallOptions {
  watch?: true | WatchListener;
}

/** Options of `create`. */
export interface CreateOptions extends CallOptions {
  mode?: CreateMode;
  /** Default: open (world:anyone, ALL). */
  acl?: ACL[];
  /** ms, required for (and only for) the TTL modes. */
  ttl?: number;
  /**
   * Curator's protection: the node is named `_c_<uuid>-<name>` and a create whose reply was lost is found by
   * that uuid (and, for an ephemeral, owned by this session) instead of being made twice. The result's path is
   * the real one.
   */
  protected?: boolean;
}

/** One operation of a `multi`: all of them apply, or none. */
export type Op =
  | { op: 'create'; path: string; data?: Data | null; acl?: ACL[]; mode?: CreateMode; ttl?: number }
  | { op: 'delete'; path: string; version?: number }
  | { op: 'setData'; path: string; data: Data | null; version?: number }
  | { op: 'check'; path: string; version?: number };

/** The result of one `multi` operation, in the order given. */
export type OpResult =
  | { op: 'create'; path: string; stat?: Stat }
  | { op: 'delete' }
  | { op: 'setData'; stat: Stat }
  | { op: 'check' };

/** One read of a `multiRead`. */
export type ReadOp = { op: 'getData'; path: string } | { op: 'getChildren'; path: string };

/** The result of one `multiRead` read: its data, its children, or the error of that read alone. */
export type ReadResult =
  | { op: 'getData'; data: Buffer; stat: Stat }
  | { op: 'getChildren'; children: string[] }
  | { op: 'error'; error: ZkError };

/** What happened to one operation of a failed multi (MultiError.results). */
export interface MultiOpOutcome {
  code: ZkErrorCode | 'OK' | 'RUNTIME_INCONSISTENCY';
  keeperCode: number;
}

/** A watch set by `addWatch`: every event on its path (and below, if recursive) until removed. Iterate it with `for await`, or add listeners. */
export interface PersistentWatch extends AsyncIterable<WatchEvent>, AsyncDisposable {
  readonly path: string;
  /** Calls `listener` on every event; returns the function that removes it. */
  on(listener: WatchListener): () => void;
  /** removeWatches on the server (when this was the last listener of the path) + ends the iterator. */
  remove(options?: CallOptions): Promise<void>;
}

/** Which watches `removeWatches` removes. */
export type RemoveWatchType = 'children' | 'data' | 'any' | 'persistent' | 'persistent-recursive';

/** Which of one watcher's watches `removeWatcher` removes (a persistent watch goes through its handle's `remove()`). */
export type RemoveWatcherType = 'children' | 'data' | 'any';
/** Which watches `checkWatches` asks about. */
export type CheckWatchType = 'children' | 'data' | 'any';

/** The calls under `zk.admin`: those that change the ensemble itself. */
export interface AdminCalls {
  /** Changes the ensemble's membership (ZooKeeper's dynamic reconfiguration); resolves with the new configuration. */
  reconfig(options: ReconfigOptions): Promise<GetDataResult>;
}

/** Options of `admin.reconfig`: incremental (`joining`/`leaving`) or bulk (`newMembers`). */
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
