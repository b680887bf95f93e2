/**
 * Where ZooKeeper keeps quotas (org.apache.zookeeper.Quotas): the quota of `/a/b` is the node pair
 * `/zookeeper/quota/a/b/zookeeper_limits` (what may be used, written by setquota) and
 * `/zookeeper/quota/a/b/zookeeper_stats` (what is used, kept up to date by the server), under plain persistent
 * directories that mirror the path. The server finds quotas by the limits node: creating it makes the path a
 * quota, creating the stats node makes the server count the subtree, deleting the limits node ends it.
 */
import { RecipeArgumentError } from '../errors.js';

export const PROC_ZOOKEEPER = '/zookeeper';
export const QUOTA_ROOT = '/zookeeper/quota';
export const LIMIT_NODE = 'zookeeper_limits';
export const STAT_NODE = 'zookeeper_stats';

/** The directory of a path's quota: `/zookeeper/quota` + path. */
export const quotaDir = (path: string): string => `${QUOTA_ROOT}${path}`;
export const limitPath = (path: string): string => `${quotaDir(path)}/${LIMIT_NODE}`;
export const statPath = (path: string): string => `${quotaDir(path)}/${STAT_NODE}`;
/** The path a quota directory stands for. */
export const pathOfDir = (dir: string): string => dir.slice(QUOTA_ROOT.length);

/** The strict ancestors of an absolute path, top first: `/a/b/c` → `/a`, `/a/b`. */
export function ancestorsOf(path: string): string[] {
  const parts = path.split('/').filter((p) => p !== '');
  return parts.slice(0, -1).map((_, i) => `/${parts.slice(0, i + 1).join('/')}`);
}

/**
 * Refuses what can have no quota: the root (its quota directory would be `/zookeeper/quota/`, not a path) and
 * anything inside the quota tree itself (zkCli refuses those too).
 */
export function checkQuotaTarget(what: string, path: string): void {
  if (path === '/') throw new RecipeArgumentError(`${what}: path must not be the root: a quota is set on a node below it`);
  if (path === QUOTA_ROOT || path.startsWith(`${QUOTA_ROOT}/`)) {
    throw new RecipeArgumentError(`${what}: path must not be under ${QUOTA_ROOT}, got '${path}'`);
  }
}

/**
 * Refuses a client with a chroot: quotas live at the root of the tree, and a chrooted client can reach neither
 * /zookeeper/quota nor say which absolute path it means.
 */
export function checkNoChroot(what: string, client: unknown): void {
  const chroot = (client as { chroot?: unknown }).chroot;
  if (typeof chroot === 'string' && chroot !== '' && chroot !== '/') {
    throw new RecipeArgumentError(
      `${what}: client has the chroot '${chroot}'; quotas live at ${QUOTA_ROOT}, outside it: use a client without a chroot and absolute paths`,
    );
  }
}
