/**
 * The node-level helpers every recipe shares: making a recipe's directory, listing a directory that may not exist
 * yet, and reading a set of nodes that may vanish while we read them. One copy keeps their NO_NODE handling
 * identical across the recipes.
 */
import { joinPath, parentPath } from '@zkts/protocol';

import { clientState } from './client-state.js';
import { isNoNode, isNodeExists, isServerCode } from './error-kinds.js';
import type { RecipeClient, Stat } from './recipe-client.js';
import { retrying } from './retry.js';

/**
 * Creates `dir` and its missing ancestors as container nodes (what Curator's creatingParentContainersIfNeeded
 * does: ZooKeeper deletes an empty container later, so lock directories do not pile up). Falls back to
 * persistent nodes on a server without containers, and remembers that for this client only. With `persistent`,
 * plain persistent nodes (kazoo's ensure_path).
 */
export async function ensureDir(client: RecipeClient, dir: string, options: { persistent?: boolean } = {}): Promise<void> {
  const state = clientState(client);
  // `persistent`: structure another library made with plain persistent nodes and expects to stay (kazoo's
  // ensure_path runs once per object; a container it relies on, deleted once empty, would fail its next create).
  const persistent = options.persistent === true;
  let path = '/';
  for (const part of dir.split('/')) {
    if (part === '') continue;
    path = joinPath(path, part);
    const target = path;
    await retrying(client, async () => {
      try {
        await client.create(target, null, { mode: persistent || state.containersUnsupported ? 'persistent' : 'container' });
      } catch (e) {
        if (isNodeExists(e)) return;
        if (persistent || state.containersUnsupported || !isServerCode(e, 'UNIMPLEMENTED')) throw e;
        state.containersUnsupported = true;
        await client.create(target, null, { mode: 'persistent' }).catch((e2: unknown) => {
          if (!isNodeExists(e2)) throw e2;
        });
      }
    });
  }
}

/**
 * Creates `dir` as a PERSISTENT node, its missing ancestors as containers: what Curator does for a queue's path
 * (creatingParentContainersIfNeeded makes only the parents containers). A queue directory must not be a
 * container: once empty, ZooKeeper would delete it, and a Curator producer creates its items without parents.
 */
export async function ensurePersistentDir(client: RecipeClient, dir: string): Promise<void> {
  const parent = parentPath(dir);
  if (parent !== '/') await ensureDir(client, parent);
  await retrying(client, async () => {
    try {
      await client.create(dir, null, { mode: 'persistent' });
    } catch (e) {
      if (!isNodeExists(e)) throw e;
    }
  });
}

/** The children of `dir`, or none when it does not exist (yet, or any more: lock dirs are containers). */
export async function childrenOrEmpty(client: RecipeClient, dir: string): Promise<string[]> {
  try {
    return (await retrying(client, () => client.getChildren(dir))).children;
  } catch (e) {
    if (isNoNode(e)) return [];
    throw e;
  }
}

/**
 * childrenOrEmpty as the leader has them when we ask. The member we are connected to answers reads from what it
 * has applied, and a create of ours whose connection broke may still be in flight at the leader and reach this
 * member a moment later: looking for it by its prefix without the sync can miss it, and then nobody removes it.
 */
export async function childrenAfterSync(client: RecipeClient, dir: string): Promise<string[]> {
  await retrying(client, () => client.sync(dir));
  return childrenOrEmpty(client, dir);
}

export interface NodeRead {
  readonly path: string;
  readonly data: Uint8Array;
  readonly stat: Stat;
}

/**
 * Reads the data and Stat of each path, in parallel, keeping the given order. A node deleted before we read it
 * is left out: contenders come and go while anyone looks at a queue.
 */
export async function readNodes(client: RecipeClient, paths: readonly string[]): Promise<NodeRead[]> {
  const rows = await Promise.all(
    paths.map(async (path): Promise<NodeRead | undefined> => {
      try {
        const { data, stat } = await retrying(client, () => client.getData(path));
        return { path, data, stat };
      } catch (e) {
        if (isNoNode(e)) return undefined;
        throw e;
      }
    }),
  );
  return rows.filter((r): r is NodeRead => r !== undefined);
}

export const utf8 = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
