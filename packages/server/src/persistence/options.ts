/**
 * The persistence options of startServer (a ZooKeeper dataDir, fsync, snapCount, preAllocSize) with
 * ZooKeeper's defaults, and their validation. Without `dataDir` the server keeps everything in memory.
 */
import { integerIn, optionalBoolean, optionalString } from '../option-checks.js';

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

/** Every key of PersistenceOptions, for the unknown-key check of startServer. */
export const PERSISTENCE_OPTION_KEYS: readonly string[] = ['dataDir', 'fsync', 'snapCount', 'preAllocSize'];

/** Defaults and checks (a bad value is an InvalidArgumentError naming the option). */
export function resolvePersistenceOptions(options: PersistenceOptions): ResolvedPersistenceOptions {
  return {
    dataDir: optionalString('dataDir', options.dataDir),
    fsync: optionalBoolean('fsync', options.fsync) ?? false,
    snapCount: integerIn('snapCount', options.snapCount, 2, 2 ** 31 - 1, 100_000),
    // KiB: past 2^21 KiB a log file's preallocation exceeds 2 GiB, more than a Buffer can hold.
    preAllocSize: integerIn('preAllocSize', options.preAllocSize, 0, 2 ** 21, 65_536),
  };
}
