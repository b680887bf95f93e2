/** The public types of the quotas family. */

/**
 * A quota's limits, as zkCli's setquota flags name them: `count` (-n) and `bytes` (-b) are soft limits (a write
 * past one goes through, and the server logs "Quota exceeded"), `countHardLimit` (-N) and `bytesHardLimit` (-B)
 * hard ones (the server refuses the create or setData with QUOTA_EXCEEDED; a hard limit replaces the soft one
 * beside it). A ZooKeeper 3.8 server checks either only when started with `-Dzookeeper.enforceQuota=true`;
 * otherwise it just counts. `count` counts the node itself and every node below it; `bytes` adds up their data.
 * Absent: not set (StatsTrack's -1).
 */
export interface QuotaLimits {
  /** Soft limit on the number of nodes (the quota's node included): 1..2^31-1, as zkCli's `-n`. */
  count?: number;
  /** Soft limit on the data bytes of the subtree: ≥ 0, as zkCli's `-b`. */
  bytes?: number;
  /** Hard limit on the number of nodes: 1..2^31-1, as zkCli's `-N`. */
  countHardLimit?: number;
  /** Hard limit on the data bytes (`byteHardLimit` in the node's text): ≥ 0, as zkCli's `-B`. */
  bytesHardLimit?: number;
}

/** What the subtree uses now, as the server counts it in the `zookeeper_stats` node. */
export interface QuotaUsage {
  /** Nodes in the subtree, the quota's node included. */
  readonly count: number;
  /** Data bytes of those nodes. */
  readonly bytes: number;
}

/** A quota as zkCli's listquota shows it: its limits and what is used. */
export interface Quota {
  /** The node the quota is on. */
  readonly path: string;
  readonly limits: Readonly<QuotaLimits>;
  /** undefined when the stats node is missing (a quota half made by hand). */
  readonly stats: QuotaUsage | undefined;
}

/** setQuota's options: the limits to set (at least one; the others stay as they are) and a signal. */
export interface SetQuotaOptions extends QuotaLimits {
  signal?: AbortSignal;
}

/**
 * deleteQuota's options. With no limit named, the whole quota goes (zkCli's `delquota PATH`); with some, only
 * those are unset and the quota stays (`delquota -n PATH`…).
 */
export interface DeleteQuotaOptions {
  /** Unset the soft count limit (zkCli `-n`). */
  count?: boolean;
  /** Unset the soft bytes limit (zkCli `-b`). */
  bytes?: boolean;
  /** Unset the hard count limit (zkCli `-N`). */
  countHardLimit?: boolean;
  /** Unset the hard bytes limit (zkCli `-B`). */
  bytesHardLimit?: boolean;
  signal?: AbortSignal;
}

/** getQuota's and listQuotas' options. */
export interface QuotaReadOptions {
  signal?: AbortSignal;
}
