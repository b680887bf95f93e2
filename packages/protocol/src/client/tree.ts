/**
 * Whole-path helpers built on the client's public operations: creating a path with its missing ancestors, and
 * deleting a subtree. Neither is atomic (ZooKeeper has no such operation); both tolerate the races a concurrent
 * writer causes (an ancestor created meanwhile, a node already gone).
 */
import { ServerError } from '../errors/errors.js';
import { KeeperCode } from '../errors/codes.js';
import { pickCallOptions } from './cancel.js';
import { ancestors, joinPath, validatePath } from './paths.js';
import type { CallOptions, CreateOptions, Data, Stat } from './types.js';

/** The operations the helpers use (ZkClient has them). */
export interface TreeClient {
  create(path: string, data?: Data | null, options?: CreateOptions): Promise<{ path: string; stat: Stat }>;
  delete(path: string, options?: CallOptions & { version?: number }): Promise<void>;
  getChildren(path: string, options?: CallOptions): Promise<{ children: string[]; stat: Stat }>;
}

function isCode(err: unknown, code: number): boolean {
  return err instanceof ServerError && err.keeperCode === code;
}

/** Creates `path` and every missing ancestor (persistent; the last one with `options.mode`). */
export async function mkdirp(client: TreeClient, path: string, options: CreateOptions): Promise<void> {
  validatePath(path);
  if (path === '/') return;
  const chain = [...ancestors(path).reverse().filter((p) => p !== '/'), path];
  for (const p of chain) {
    const last = p === path;
    try {
      await client.create(p, null, last ? options : { ...pickCallOptions(options), ...(options.acl === undefined ? {} : { acl: options.acl }) });
    } catch (err) {
      if (!isCode(err, KeeperCode.NODE_EXISTS)) throw err;
    }
  }
}

/** Deletes `path` and everything under it (depth first); a node that vanished meanwhile is fine. */
export async function removeRecursive(client: TreeClient, path: string, options: CallOptions): Promise<void> {
  validatePath(path);
  let children: string[];
  try {
    children = (await client.getChildren(path, pickCallOptions(options))).children;
  } catch (err) {
    if (isCode(err, KeeperCode.NO_NODE)) return;
    throw err;
  }
  for (const child of children) await removeRecursive(client, joinPath(path, child), options);
  if (path === '/') return;
  try {
    await client.delete(path, pickCallOptions(options));
  } catch (err) {
    if (!isCode(err, KeeperCode.NO_NODE)) throw err;
  }
}
