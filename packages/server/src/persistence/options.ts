/**
 * The persistence options of startServer (a ZooKeeper dataDir, fsync, snapCount, preAllocSize) with
 * ZooKeeper's defaults, and their validation. Without `dataDir` the server keeps everything in memory.
 */

/** Where and how the server keeps its data in ZooKeeper's own files. */
export interface PersistenceOptions {
  /**
   * ZooKeeper's `dataDir`: transaction logs and snapshots under `<dataDir>/version-2`, loaded on start and
   * written while running. Default none: nothing is kept.
   */
  dataDir?: string;
  /** fsync the transaction log after every transaction (ZooKeeper's `forceSync`); default false. */
  fsync?: boolean;
  /** Transactions per log file: after this many the log rolls and a snapshot is written; default 100000. */
  snapCount?: number;
  /** KiB by which a log file is preallocated (ZooKeeper's `zookeeper.preAllocSize`); default 65536, 0 = none. */
  preAllocSize?: number;
}

/** The persistence settings, resolved. */
export interface ResolvedPersistenceOptions {
  readonly dataDir: string | undefined;
  readonly fsync: boolean;
  readonly snapCount: number;
  readonly preAllocSize: number;
}

/** Defaults and range checks (a bad value throws RangeError). */
export function resolvePersistenceOptions(options: PersistenceOptions): ResolvedPersistenceOptions {
  const snapCount = options.snapCount ?? 100_000;
  if (!Number.isInteger(snapCount) || snapCount < 2) throw new RangeError(`snapCount must be an integer ≥ 2, got ${snapCount}`);
  const preAllocSize = options.preAllocSize ?? 65_536;
  if (!Number.isInteger(preAllocSize) || preAllocSize < 0) throw new RangeError(`preAllocSize must be a non-negative integer, got ${preAllocSize}`);
  if (options.dataDir !== undefined && options.dataDir === '') throw new RangeError('dataDir must not be empty');
  return { dataDir: options.dataDir, fsync: options.fsync ?? false, snapCount, preAllocSize };
}
