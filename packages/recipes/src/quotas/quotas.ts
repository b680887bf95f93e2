/**
 * The quota doors, doing what zkCli's setquota, listquota and delquota do (ZooKeeper 3.8), on the same nodes, so
 * either tool reads and changes what the other wrote:
 *
 *   setQuota     refuses a path whose ancestor or descendant has a quota (QuotaConflictError), creates the
 *                quota directories, then the limits and stats nodes in one multi (with a check that the node
 *                still exists), the limits first so that the server counts the subtree when the stats node
 *                appears; on a path with a quota, changes only the limits given (compare-and-set on the version)
 *   getQuota     the limits and the usage the server keeps
 *   listQuotas   every quota under /zookeeper/quota
 *   deleteQuota  unsets the limits named, or (none named) deletes the quota and the directories it leaves empty
 *
 * Like zkCli, the nesting check and the writes are separate steps: two writers racing on an ancestor and a
 * descendant can both pass it.
 */
import { KeeperCode, ServerError } from '@zkts/protocol';

import { RecipeArgumentError } from '../errors.js';
import {
  checkArg, checkClientAndPath, checkOptions, clientRule, isNoNode, isNodeExists, isServerCode, rules, type OptionRules, type RecipeClient,
} from '../internal/index.js';
import { QuotaConflictError } from './errors.js';
import {
  ancestorsOf, checkNoChroot, checkQuotaTarget, LIMIT_NODE, limitPath, PROC_ZOOKEEPER, QUOTA_ROOT, quotaDir, statPath,
} from './layout.js';
import { dataOrNone, quotaContext, quotaPathsUnder, readQuota, step, type QuotaContext } from './read.js';
import { formatStatsTrack, KEYS, parseStatsTrack, type StatsPairs } from './stats-track.js';
import type { DeleteQuotaOptions, Quota, QuotaReadOptions, SetQuotaOptions } from './types.js';

/** The largest count limit: zkCli reads `-n`/`-N` with Integer.parseInt. */
const MAX_COUNT = 2 ** 31 - 1;

const SET_RULES: OptionRules<SetQuotaOptions> = {
  count: rules.integer(1, MAX_COUNT),
  bytes: rules.integer(0),
  countHardLimit: rules.integer(1, MAX_COUNT),
  bytesHardLimit: rules.integer(0),
  signal: rules.signal,
};
const DELETE_RULES: OptionRules<DeleteQuotaOptions> = {
  count: rules.boolean,
  bytes: rules.boolean,
  countHardLimit: rules.boolean,
  bytesHardLimit: rules.boolean,
  signal: rules.signal,
};
const READ_RULES: OptionRules<QuotaReadOptions> = { signal: rules.signal };

/** The limits of the API and the keys of the node's text, in one table. */
const LIMIT_KEYS = [
  ['count', KEYS.count], ['bytes', KEYS.bytes], ['countHardLimit', KEYS.countHardLimit], ['bytesHardLimit', KEYS.byteHardLimit],
] as const;

function checkDoor(what: string, client: RecipeClient, path: string): void {
  checkClientAndPath(what, client, path);
  checkQuotaTarget(what, path);
  checkNoChroot(what, client);
}

/**
 * Sets limits on the subtree at `path` (which must exist), as zkCli's `setquota`: the limits given change, the
 * others stay. Resolves with the quota as it is now. Rejects with QuotaConflictError when an ancestor or a
 * descendant of `path` has a quota, with a NO_NODE ServerError when `path` does not exist.
 */
export async function setQuota(client: RecipeClient, path: string, options: SetQuotaOptions): Promise<Quota> {
  checkDoor('setQuota', client, path);
  checkOptions('setQuota', options, SET_RULES);
  if (options === undefined || LIMIT_KEYS.every(([name]) => options[name] === undefined)) {
    throw new RecipeArgumentError('setQuota: options must set at least one of count, bytes, countHardLimit, bytesHardLimit');
  }
  const ctx = quotaContext(client, options.signal);
  if ((await step(ctx, () => client.exists(path, ctx.options))) === null) throw new ServerError(KeeperCode.NO_NODE, path);
  await checkNoNesting(ctx, path);
  await makeDirs(ctx, path);
  const given: StatsPairs = new Map(LIMIT_KEYS.map(([name, key]) => [key, options[name] ?? -1]));
  if (!(await createQuotaNodes(ctx, path, given))) await updateLimits(ctx, path, (pairs) => {
    for (const [key, value] of given) if (value >= 0) pairs.set(key, value);
  });
  const quota = await readQuota(ctx, path);
  // Deleted by someone else in the meantime: say so as a read of a missing node would.
  if (quota === undefined) throw new ServerError(KeeperCode.NO_NODE, limitPath(path));
  return quota;
}

/** Throws QuotaConflictError if an ancestor (nearest to the root first) or a descendant of `path` has a quota. */
async function checkNoNesting(ctx: QuotaContext, path: string): Promise<void> {
  for (const below of await quotaPathsUnder(ctx, quotaDir(path))) {
    if (below !== path) throw new QuotaConflictError(path, below, 'descendant');
  }
  for (const above of ancestorsOf(path)) {
    let children: string[];
    try {
      children = (await step(ctx, () => ctx.client.getChildren(quotaDir(above), ctx.options))).children;
    } catch (e) {
      // No directory here, so none deeper either.
      if (isNoNode(e)) return;
      throw e;
    }
    if (children.includes(LIMIT_NODE)) throw new QuotaConflictError(path, above, 'ancestor');
  }
}

/** Creates /zookeeper/quota (a server makes it at start; a snapshot from elsewhere may lack it) and the path's directories. */
async function makeDirs(ctx: QuotaContext, path: string): Promise<void> {
  const dirs = [PROC_ZOOKEEPER, QUOTA_ROOT, ...[...ancestorsOf(path), path].map(quotaDir)];
  for (const dir of dirs) {
    await step(ctx, async () => {
      try {
        await ctx.client.create(dir, null, { ...ctx.options, mode: 'persistent' });
      } catch (e) {
        if (!isNodeExists(e)) throw e;
      }
    });
  }
}

/**
 * Creates the limits node (with every limit StatsTrack knows, the ones not given as -1, as zkCli writes it) and
 * the stats node (`count=0,bytes=0`; the server replaces it with the real count as it is created) in one multi.
 * False when the limits node exists already (a quota to update).
 */
async function createQuotaNodes(ctx: QuotaContext, path: string, limits: StatsPairs): Promise<boolean> {
  const usage: StatsPairs = new Map([[KEYS.count, 0], [KEYS.bytes, 0]]);
  try {
    await step(ctx, () => ctx.client.multi([
      { op: 'check', path },
      { op: 'create', path: limitPath(path), data: formatStatsTrack(limits), mode: 'persistent' },
      { op: 'create', path: statPath(path), data: formatStatsTrack(usage), mode: 'persistent' },
    ], ctx.options));
    return true;
  } catch (e) {
    // A stats node without limits (made by hand) also ends here; updateLimits then reports the missing limits node.
    if (isNodeExists(e)) return false;
    throw e;
  }
}

/**
 * Rewrites the limits node with `change` applied to its pairs, at the version read (again from the read on a
 * BAD_VERSION: another writer came first). Keys we do not know are kept. False when there is no limits node.
 */
async function updateLimits(ctx: QuotaContext, path: string, change: (pairs: StatsPairs) => void): Promise<boolean> {
  const node = limitPath(path);
  for (;;) {
    const current = await dataOrNone(ctx, node);
    if (current === undefined) return false;
    const pairs = parseStatsTrack(current.data, node);
    change(pairs);
    try {
      await step(ctx, () => ctx.client.setData(node, formatStatsTrack(pairs), { ...ctx.options, version: current.version }));
      return true;
    } catch (e) {
      if (!isServerCode(e, 'BAD_VERSION')) throw e;
    }
  }
}

/** The quota on `path` (zkCli's `listquota PATH`), or undefined when it has none. */
export async function getQuota(client: RecipeClient, path: string, options: QuotaReadOptions = {}): Promise<Quota | undefined> {
  checkDoor('getQuota', client, path);
  checkOptions('getQuota', options, READ_RULES);
  return readQuota(quotaContext(client, options.signal), path);
}

/** Every quota under /zookeeper/quota, sorted by path. */
export async function listQuotas(client: RecipeClient, options: QuotaReadOptions = {}): Promise<Quota[]> {
  checkArg('listQuotas', 'client', client, clientRule);
  checkNoChroot('listQuotas', client);
  checkOptions('listQuotas', options, READ_RULES);
  const ctx = quotaContext(client, options.signal);
  const quotas = await Promise.all((await quotaPathsUnder(ctx, QUOTA_ROOT)).map((p) => readQuota(ctx, p)));
  return quotas.filter((q): q is Quota => q !== undefined);
}

/**
 * zkCli's `delquota`: with limits named in `options`, unsets those (the quota stays, counting); with none, deletes
 * the quota and then each quota directory it leaves empty, up to /zookeeper/quota. Resolves false when `path` has
 * no quota (nothing changed).
 */
export async function deleteQuota(client: RecipeClient, path: string, options: DeleteQuotaOptions = {}): Promise<boolean> {
  checkDoor('deleteQuota', client, path);
  checkOptions('deleteQuota', options, DELETE_RULES);
  const ctx = quotaContext(client, options.signal);
  const named = LIMIT_KEYS.filter(([name]) => options[name] === true).map(([, key]) => key);
  if (named.length > 0) {
    return updateLimits(ctx, path, (pairs) => {
      for (const key of named) pairs.set(key, -1);
    });
  }
  if ((await dataOrNone(ctx, limitPath(path))) === undefined) return false;
  // The limits node first: without it the server stops counting, and a stats node left behind by a cut is harmless.
  for (const node of [limitPath(path), statPath(path)]) await deleteIfThere(ctx, node);
  await trimEmptyDirs(ctx, path);
  return true;
}

async function deleteIfThere(ctx: QuotaContext, node: string): Promise<void> {
  await step(ctx, async () => {
    try {
      await ctx.client.delete(node, ctx.options);
    } catch (e) {
      if (!isNoNode(e)) throw e;
    }
  });
}

/** Deletes the quota directory of `path` and of each ancestor while it is empty, deepest first, as zkCli does. */
async function trimEmptyDirs(ctx: QuotaContext, path: string): Promise<void> {
  for (const p of [path, ...ancestorsOf(path).reverse()]) {
    try {
      await step(ctx, async () => {
        try {
          await ctx.client.delete(quotaDir(p), ctx.options);
        } catch (e) {
          if (!isNoNode(e)) throw e;
        }
      });
    } catch (e) {
      // Another quota (or anything else) below: the tree above stays.
      if (isServerCode(e, 'NOT_EMPTY')) return;
      throw e;
    }
  }
}
