/**
 * The slice of @zkts/protocol's ZkClient the recipes use (docs/design/contracts.md §2), as a structural type so
 * any ZkClient fits and unit tests can pass a fake. Plus the small retry/cleanup helpers every recipe shares.
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
  type SessionState,
  type StateChange,
  type Stat,
  type WatchEvent,
} from '@zkts/protocol';

export type { CallOptions, CreateMode, Data, Op, OpResult, SessionState, StateChange, Stat, WatchEvent };

/** The part of ZkClient the recipes use, as a structural type: any ZkClient fits, and tests can pass a fake. */
export interface RecipeClient {
  readonly state: SessionState;
  readonly sessionId: bigint;
  readonly negotiatedTimeout: number;
  /** See ZkClient.connected. */
  connected(options?: CallOptions): Promise<void>;
  /** See ZkClient.onStateChange. */
  onStateChange(listener: (change: StateChange) => void): () => void;
  /** See ZkClient.create. */
  create(path: string, data?: Data | null, options?: CallOptions & { mode?: CreateMode }): Promise<{ path: string; stat: Stat }>;
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
  /** See ZkClient.sync. */
  sync(path: string, options?: CallOptions): Promise<void>;
}

export function isServerCode(e: unknown, code: string): boolean {
  return e instanceof ServerError && e.code === code;
}
export const isNoNode = (e: unknown): boolean => isServerCode(e, 'NO_NODE');
export const isNodeExists = (e: unknown): boolean => isServerCode(e, 'NODE_EXISTS');
export const isConnectionLoss = (e: unknown): boolean => e instanceof ConnectionLossError;

/** The session is gone for good: nothing ephemeral of ours survives, and retrying cannot help. */
export function isSessionGone(e: unknown): boolean {
  return (
    e instanceof SessionExpiredError ||
    e instanceof ClientClosedError ||
    e instanceof AuthFailedError ||
    isServerCode(e, 'SESSION_EXPIRED')
  );
}

export function isLive(state: SessionState): boolean {
  return state !== 'expired' && state !== 'closed' && state !== 'auth-failed';
}

/** Joins a directory and a child name. */
export function child(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

export function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
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

let containersUnsupported = false;

/**
 * Creates `dir` and its missing ancestors as container nodes (what Curator's creatingParentContainersIfNeeded
 * does: ZooKeeper deletes an empty container later, so lock directories do not pile up). Falls back to
 * persistent nodes on a server without containers.
 */
export async function ensureDir(client: RecipeClient, dir: string): Promise<void> {
  if (dir === '/') return;
  const parts = dir.split('/').filter((p) => p.length > 0);
  let path = '';
  for (const part of parts) {
    path += `/${part}`;
    await retrying(client, async () => {
      try {
        await client.create(path, null, { mode: containersUnsupported ? 'persistent' : 'container' });
      } catch (e) {
        if (isNodeExists(e)) return;
        if (!containersUnsupported && isServerCode(e, 'UNIMPLEMENTED')) {
          containersUnsupported = true;
          await client.create(path, null, { mode: 'persistent' }).catch((e2: unknown) => {
            if (!isNodeExists(e2)) throw e2;
          });
          return;
        }
        throw e;
      }
    });
  }
}
