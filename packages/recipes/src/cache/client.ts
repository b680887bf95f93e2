/**
 * The slice of @zkts/protocol's ZkClient the caches use, as a structural type (any ZkClient fits; unit tests pass
 * a fake). It is wider than RecipeClient: the caches need persistent watches (addWatch), one-shot watches with a
 * listener (delivered in wire order with the replies, which promise-based watches are not) and exists on any path.
 * Kept apart from RecipeClient so the lock recipes' contract does not grow with the caches'.
 */
import type { CallOptions, PersistentWatch, ReadOp, ReadResult, SessionState, Stat, StateChange, WatchListener } from '@zkts/protocol';

/** The slice of ZkClient the caches use (a ZkClient fits). */
export interface CacheClient {
  readonly state: SessionState;
  /** See ZkClient.connected. */
  connected(options?: CallOptions): Promise<void>;
  /** See ZkClient.onStateChange. */
  onStateChange(listener: (change: StateChange) => void): () => void;
  /** See ZkClient.addWatch. */
  addWatch(path: string, mode: 'persistent' | 'persistent-recursive', options?: CallOptions): Promise<PersistentWatch>;
  /** See ZkClient.exists. */
  exists(path: string, options?: CallOptions): Promise<Stat | null>;
  /** See ZkClient.exists (with a watch callback). */
  exists(path: string, options: CallOptions & { watch: WatchListener }): Promise<Stat | null>;
  /** See ZkClient.getData. */
  getData(path: string, options?: CallOptions & { watch?: WatchListener }): Promise<{ data: Uint8Array; stat: Stat }>;
  /** See ZkClient.getChildren. */
  getChildren(path: string, options?: CallOptions & { watch?: WatchListener }): Promise<{ children: string[]; stat: Stat }>;
  /** Optional: without it (or on a server that answers UNIMPLEMENTED) full reads go one node per request. */
  multiRead?(ops: ReadOp[], options?: CallOptions): Promise<ReadResult[]>;
}
