/**
 * Reading quotas: one quota's limits and usage (what zkCli's listquota prints), and the walk of the quota tree
 * that finds every quota under a directory (listQuotas, and setQuota's check for quotas below its path). Every
 * call carries the caller's signal and goes again after a connection loss, once the client is connected.
 */
import { isConnectionLoss, isNoNode, type CallOptions, type RecipeClient } from '../internal/index.js';
import { QuotaFormatError } from './errors.js';
import { LIMIT_NODE, limitPath, pathOfDir, STAT_NODE, statPath } from './layout.js';
import { KEYS, limitOf, parseStatsTrack, type StatsPairs } from './stats-track.js';
import type { Quota, QuotaLimits, QuotaUsage } from './types.js';

/** One quota call's client and options (the caller's signal). */
export interface QuotaContext {
  readonly client: RecipeClient;
  readonly options: CallOptions;
}

export function quotaContext(client: RecipeClient, signal: AbortSignal | undefined): QuotaContext {
  return { client, options: signal === undefined ? {} : { signal } };
}

/**
 * Runs one ZooKeeper call (a read, or a write whose repeat is harmless), again after a connection loss once the
 * client is connected; the signal ends the wait too.
 */
export async function step<T>(ctx: QuotaContext, call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (e) {
      if (!isConnectionLoss(e)) throw e;
      await ctx.client.connected(ctx.options);
    }
  }
}

/** A node's data, or undefined when it does not exist. */
export async function dataOrNone(ctx: QuotaContext, path: string): Promise<{ data: Uint8Array; version: number } | undefined> {
  try {
    const { data, stat } = await step(ctx, () => ctx.client.getData(path, ctx.options));
    return { data, version: stat.version };
  } catch (e) {
    if (isNoNode(e)) return undefined;
    throw e;
  }
}

/** A node's children, or none when it does not exist. */
async function childrenOrNone(ctx: QuotaContext, path: string): Promise<string[]> {
  try {
    return (await step(ctx, () => ctx.client.getChildren(path, ctx.options))).children;
  } catch (e) {
    if (isNoNode(e)) return [];
    throw e;
  }
}

/** The limits a limits node's pairs say. */
export function limitsOf(pairs: StatsPairs): QuotaLimits {
  const limits: QuotaLimits = {};
  const count = limitOf(pairs, KEYS.count);
  const bytes = limitOf(pairs, KEYS.bytes);
  const countHardLimit = limitOf(pairs, KEYS.countHardLimit);
  const bytesHardLimit = limitOf(pairs, KEYS.byteHardLimit);
  if (count !== undefined) limits.count = count;
  if (bytes !== undefined) limits.bytes = bytes;
  if (countHardLimit !== undefined) limits.countHardLimit = countHardLimit;
  if (bytesHardLimit !== undefined) limits.bytesHardLimit = bytesHardLimit;
  return limits;
}

/** The usage a stats node says; both values are required (the server always writes them). */
function usageOf(pairs: StatsPairs, node: string): QuotaUsage {
  const count = pairs.get(KEYS.count);
  const bytes = pairs.get(KEYS.bytes);
  if (count === undefined || count < 0) throw new QuotaFormatError(node, 'a stats node without a count');
  if (bytes === undefined || bytes < 0) throw new QuotaFormatError(node, 'a stats node without bytes');
  return { count, bytes };
}

/** The quota on `path`, or undefined when it has none (no limits node). */
export async function readQuota(ctx: QuotaContext, path: string): Promise<Quota | undefined> {
  const [limits, stats] = await Promise.all([dataOrNone(ctx, limitPath(path)), dataOrNone(ctx, statPath(path))]);
  if (limits === undefined) return undefined;
  return {
    path,
    limits: limitsOf(parseStatsTrack(limits.data, limitPath(path))),
    stats: stats === undefined ? undefined : usageOf(parseStatsTrack(stats.data, statPath(path)), statPath(path)),
  };
}

/**
 * The paths of the quotas in the quota tree at `dir` and below (`dir` itself included when it has one), sorted:
 * a breadth-first walk, one level's listings at a time. The limits and stats nodes are leaves, not directories.
 */
export async function quotaPathsUnder(ctx: QuotaContext, dir: string): Promise<string[]> {
  const found: string[] = [];
  let level = [dir];
  while (level.length > 0) {
    const listings = await Promise.all(level.map(async (d) => ({ dir: d, children: await childrenOrNone(ctx, d) })));
    level = [];
    for (const { dir: d, children } of listings) {
      if (children.includes(LIMIT_NODE)) found.push(pathOfDir(d));
      for (const child of children) if (child !== LIMIT_NODE && child !== STAT_NODE) level.push(`${d}/${child}`);
    }
  }
  return found.sort();
}
