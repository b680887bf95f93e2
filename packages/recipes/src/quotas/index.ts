/**
 * Quotas: ZooKeeper's per-subtree limits on node count and data bytes, read and written on the nodes zkCli's
 * setquota, listquota and delquota use (/zookeeper/quota/<path>/zookeeper_limits and zookeeper_stats), in
 * StatsTrack's text.
 */
export { deleteQuota, getQuota, listQuotas, setQuota } from './quotas.js';
export { QuotaConflictError, QuotaFormatError } from './errors.js';
export type { DeleteQuotaOptions, Quota, QuotaLimits, QuotaReadOptions, QuotaUsage, SetQuotaOptions } from './types.js';
