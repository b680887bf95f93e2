/**
 * The slice of @zkts/protocol's ZkClient the recipes use (docs/design/contracts.md §2), as a structural type so
 * any ZkClient fits and unit tests can pass a fake, and the protocol types that come with it. Paths are built
 * with protocol's joinPath/parentPath/basename.
 */
import type {
  ACL,
  CallOptions,
  CreateMode,
  Data,
  Op,
  OpResult,
  PersistentWatch,
  SessionState,
  StateChange,
  Stat,
  WatchEvent,
} from '@zkts/protocol';

export type { CallOptions, CreateMode, Data, Op, OpResult, PersistentWatch, SessionState, StateChange, Stat, WatchEvent };

/** The part of ZkClient the recipes use, as a structural type: any ZkClient fits, and tests can pass a fake. */
export interface RecipeClient {
  readonly state: SessionState;
  readonly sessionId: bigint;
  readonly negotiatedTimeout: number;
  /** See ZkClient.recipeErrorPolicy (absent on a fake: each recipe's own default). */
  readonly recipeErrorPolicy?: 'suspended' | 'expired' | undefined;
  /** See ZkClient.connected. */
  connected(options?: CallOptions): Promise<void>;
  /** See ZkClient.onStateChange. */
  onStateChange(listener: (change: StateChange) => void): () => void;
  /** `ttl` (ms) only with the TTL modes (PersistentTtlNode). */
  create(path: string, data?: Data | null, options?: CallOptions & { mode?: CreateMode; ttl?: number; acl?: ACL[] }): Promise<{ path: string; stat: Stat }>;
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
  /** See ZkClient.removeWatcher: ends this one watch, leaving other watchers of the session on the path alone. */
  removeWatcher(path: string, watcher: Promise<WatchEvent>, type: 'data', options?: CallOptions): Promise<void>;
  /** A persistent (recursive) watch; PersistentWatcher keeps one across reconnects and renewals. */
  addWatch(path: string, mode: 'persistent' | 'persistent-recursive', options?: CallOptions): Promise<PersistentWatch>;
  /** See ZkClient.sync. */
  sync(path: string, options?: CallOptions): Promise<void>;
}
