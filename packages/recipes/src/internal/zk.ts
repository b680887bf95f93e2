/**
 * The slice of @zkts/protocol's ZkClient the recipes use (docs/design/contracts.md §2), as a structural type so
 * any ZkClient fits and unit tests can pass a fake, plus the error predicates and the retry rule every recipe
 * shares. Paths are built with protocol's joinPath/parentPath/basename.
 */
import {
  ClientClosedError,
  ConnectionLossError,
  ServerError,
  SessionExpiredError,
  AuthFailedError,
  type CallOptions,
  type CreateMode,
  type Data,
  type Op,
  type OpResult,
  type PersistentWatch,
  type SessionState,
  type StateChange,
  type Stat,
  type WatchEvent,
} from '@zkts/protocol';

export type { CallOptions, CreateMode, Data, Op, OpResult, PersistentWatch, SessionState, StateChange, Stat, WatchEvent };

/** The part of ZkClient the recipes use, as a structural type: any ZkClient fits, and tests can pass a fake. */
export interface RecipeClient {
  readonly state: SessionState;
  readonly sessionId: bigint;
  readonly negotiatedTimeout: number;
  /** See ZkClient.connected. */
  connected(options?: CallOptions): Promise<void>;
  /** See ZkClient.onStateChange. */
  onStateChange(listener: (change: StateChange) => void): () => void;
  /** `ttl` (ms) only with the TTL modes (PersistentTtlNode). */
  create(path: string, data?: Data | null, options?: CallOptions & { mode?: CreateMode; ttl?: number }): Promise<{ path: string; stat: Stat }>;
  /** See ZkClient.delete. */
  delete(path: string, options?: CallOptions & { version?: number }): Promise<void>;
  /** See ZkClient.exists. */
  exists(path: string, options?: CallOptions): Promise<Stat | null>;
  /** See ZkClient.exists: with `{ watch: true }`, the Stat and a watch promise. */
  exists(path: string, options: CallOptions & { watch: true }): Promise<{ stat: Stat | null; watch: Promise<WatchEvent> }>;
  /** See ZkClient.getData. */
  getData(path: string, options?: CallOptions & { watch?: true }): Promise<{ data: Uint8Array; stat: Stat; watch?: Promise<WatchEvent> }>;
  /** See ZkClient.setData. */
  setData(path: string, data: Data | null, options?: CallOptions & { version?: number }): Promise<Stat>;
  /** See ZkClient.getChildren. */
  getChildren(path: string, options?: CallOptions & { watch?: true }): Promise<{ children: string[]; stat: Stat; watch?: Promise<WatchEvent> }>;
  /** See ZkClient.multi. */
  multi(ops: Op[], options?: CallOptions): Promise<OpResult[]>;
  /** See ZkClient.removeWatches. */
  removeWatches(path: string, type: 'data', options?: CallOptions): Promise<void>;
  /** A persistent (recursive) watch; PersistentWatcher keeps one across reconnects and renewals. */
  addWatch(path: string, mode: 'persistent' | 'persistent-recursive', options?: CallOptions): Promise<PersistentWatch>;
  /** See ZkClient.sync. */
  sync(path: string, options?: CallOptions): Promise<void>;
}

export function isServerCode(e: unknown, code: string): boolean {
  return e instanceof ServerError && e.code === code;
}
export const isNoNode = (e: unknown): boolean => isServerCode(e, 'NO_NODE');
export const isNodeExists = (e: unknown): boolean => isServerCode(e, 'NODE_EXISTS');
export const isConnectionLoss = (e: unknown): boolean => e instanceof ConnectionLossError;

/**
 * The session is gone for good: nothing ephemeral of ours survives, and retrying cannot help. A server-sent
 * SESSION_EXPIRED (-112) reply arrives as a ServerError today and as a SessionExpiredError once the client maps
 * it (protocol's pending change): both count.
 */
export function isSessionGone(e: unknown): boolean {
  return (
    e instanceof SessionExpiredError ||
    e instanceof ClientClosedError ||
    e instanceof AuthFailedError ||
    isServerCode(e, 'SESSION_EXPIRED')
  );
}

/**
 * The client can still have a session: not closed, not auth-failed, and not expired for good. With session
 * renewal (the client's default) `expired` is a passing state, heard only by state listeners: by the time a
 * recipe's own code reads `client.state` again, it is `connecting` to a new session. So `!isLive(client.state)`
 * means "this client is over" and a recipe stops; a renewed client is live and the recipe carries on in the
 * new session.
 */
export function isLive(state: SessionState): boolean {
  return state !== 'expired' && state !== 'closed' && state !== 'auth-failed';
}

/** A state in which requests go out now. */
export function isConnectedState(state: SessionState): boolean {
  return state === 'connected' || state === 'connected-read-only';
}

/**
 * The error says our session ended (not the client): with renewal the client goes on in a new session, and a
 * recipe waiting in the old one may start over there.
 */
export function isExpiry(e: unknown): boolean {
  return e instanceof SessionExpiredError || isServerCode(e, 'SESSION_EXPIRED');
}

/**
 * Runs an idempotent call (a read, or a write whose repeat is harmless), retrying after a connection loss once
 * the client is connected again. A gone session surfaces as the client's own error.
 */
export async function retrying<T>(client: RecipeClient, call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (e) {
      if (!isConnectionLoss(e)) throw e;
      await client.connected();
    }
  }
}

/**
 * Waits until the client is connected again: in the same session, or after an expiry (with renewal) in the next
 * one. `client.connected()` alone rejects at an expiry, because what its caller waited for is gone; a step
 * whose outcome does not depend on the session (a persistent node, a read) can go on in the next session.
 * Rejects only when the client is over (closed, auth-failed, expired without renewal).
 */
export async function reconnected(client: RecipeClient): Promise<void> {
  for (;;) {
    try {
      await client.connected();
      return;
    } catch (e) {
      if (!isExpiry(e) || !isLive(client.state)) throw e;
    }
  }
}

/** Like `retrying`, also across an expiry: for calls whose meaning does not depend on the session (reads of persistent nodes). */
export async function retryingAcrossSessions<T>(client: RecipeClient, call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (e) {
      if (!isConnectionLoss(e) && !isExpiry(e)) throw e;
      await reconnected(client);
    }
  }
}
