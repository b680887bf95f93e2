/**
 * Public types of the client (docs/architecture.md). Kept apart from the implementation so the
 * recipes and CLI packages can read the surface in one place.
 */
import type { ConnectionOptions } from 'node:tls';
import type { ZkError, ZkErrorCode } from '../errors/errors.js';
import type { Stat } from '../records/data.js';
import type { Clock } from './clock.js';
import type { RetryPolicy } from './retry.js';
import type { SaslOptions } from './sasl/mechanism.js';

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
  /** Follow reconfigs: watch /zookeeper/config and move to the new membership (updateServers). Default false. */
  trackEnsemble?: boolean;
  /** Default retry policy of the operations that are safe to repeat (default: none). Per call: `{ retry }`. */
  retry?: RetryPolicy;
  /** The time source of every timer (session, requests, waits); a manual clock in tests. Default: the system's. */
  clock?: Clock;
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
  /** The session the change is about: on `expired`, the session that ended; from `connecting` on, the new one (0n until the handshake). */
  sessionId: bigint;
  /** 1 for the client's first session, +1 for each session opened after an expiry (renewSession). */
  generation: number;
  error?: ZkError;
}

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

export type CreateMode =
  | 'persistent'
  | 'ephemeral'
  | 'persistent-sequential'
  | 'ephemeral-sequential'
  | 'container'
  | 'persistent-ttl'
  | 'persistent-sequential-ttl';

// The Stat of a node is the Jute record itself (one definition, in the codec).
export type { Stat };

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
  | 'persistentWatchRemoved'
  /** Client-made, persistent watches only: re-added in a new session after an expiry; changes in between were missed. */
  | 'resync';

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
  /**
   * Curator's protection: the node is named `_c_<uuid>-<name>` and a create whose reply was lost is found by
   * that uuid (and, for an ephemeral, owned by this session) instead of being made twice. The result's path is
   * the real one.
   */
  protected?: boolean;
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
  | { op: 'getData'; data: Uint8Array; stat: Stat }
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
