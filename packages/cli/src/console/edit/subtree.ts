/**
 * Subtrees for the recursive delete: counted (what the confirmation names), walked breadth first into levels,
 * and deleted deepest level first so every node goes after all of its children. The walk is bounded: a
 * subtree larger than the limit is refused with a clear error instead of filling the console's memory.
 */
import { joinPath, type ZkClient } from '@zkts/protocol';

import { ConsoleApiError } from '../api-error.js';
import { isCode, refusal } from './words.js';

/** How many requests a walk or a delete keeps in flight: enough to hide the round trip, few enough to be polite. */
const IN_FLIGHT = 32;

export function tooLarge(path: string, limit: number): ConsoleApiError {
  return new ConsoleApiError(413, 'TOO_LARGE', `more than ${limit.toLocaleString('en-US')} nodes under ${path}: too many for the console to count or delete`);
}

/** Runs `work` on every item with at most IN_FLIGHT at once; stops starting new ones after the first failure. */
async function pool<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, items.length) }, lane));
  if (failure !== undefined) throw failure.error;
}

export interface Subtree {
  /** levels[0] is [path]; levels[d] the nodes d below it. */
  readonly levels: readonly (readonly string[])[];
  readonly count: number;
}

/** Every node under `path` (itself included); more than `limit` → `onTooLarge`'s error. */
export async function walkSubtree(client: ZkClient, path: string, limit: number, onTooLarge: () => Error, signal?: AbortSignal): Promise<Subtree> {
  const options = signal === undefined ? {} : { signal };
  try {
    await client.exists(path, options).then((stat) => {
      if (stat === null) throw new ConsoleApiError(404, 'NO_NODE', `no node ${path}`);
    });
  } catch (error) {
    throw error instanceof ConsoleApiError ? error : refusal(`read ${path}`, error);
  }
  const levels: string[][] = [[path]];
  let count = 1;
  if (count > limit) throw onTooLarge();
  for (;;) {
    const level = levels[levels.length - 1] ?? [];
    const below: string[] = [];
    try {
      await pool(level, async (parent) => {
        let children: string[];
        try {
          children = (await client.getChildren(parent, options)).children;
        } catch (error) {
          // Deleted meanwhile: nothing under it to count.
          if (isCode(error, 'NO_NODE') && parent !== path) return;
          throw error;
        }
        count += children.length;
        if (count > limit) throw onTooLarge();
        for (const child of children) below.push(joinPath(parent, child));
      });
    } catch (error) {
      throw error instanceof ConsoleApiError ? error : refusal(`list the subtree of ${path}`, error);
    }
    if (below.length === 0) return { levels, count };
    levels.push(below);
  }
}

/** How many nodes a recursive delete of `path` removes: one server-side count where the server has it. */
export async function countSubtree(client: ZkClient, path: string, limit: number, signal?: AbortSignal): Promise<number> {
  try {
    const below = await client.getAllChildrenNumber(path, signal === undefined ? {} : { signal });
    if (below + 1 > limit) throw tooLarge(path, limit);
    return below + 1;
  } catch (error) {
    if (error instanceof ConsoleApiError) throw error;
    // Servers before 3.6 lack getAllChildrenNumber: count by walking instead.
    if (!isCode(error, 'UNIMPLEMENTED')) throw refusal(`count the nodes under ${path}`, error);
  }
  return (await walkSubtree(client, path, limit, () => tooLarge(path, limit), signal)).count;
}

/**
 * Deletes a walked subtree, deepest level first. A node already gone is not counted; the first other refusal
 * stops the delete and says how far it got.
 */
export async function deleteSubtree(client: ZkClient, path: string, subtree: Subtree): Promise<number> {
  let deleted = 0;
  for (let depth = subtree.levels.length - 1; depth >= 0; depth--) {
    let failedAt = '';
    try {
      await pool(subtree.levels[depth] ?? [], async (node) => {
        try {
          await client.delete(node);
          deleted++;
        } catch (error) {
          if (isCode(error, 'NO_NODE')) return;
          failedAt = node;
          throw error;
        }
      });
    } catch (error) {
      const total = subtree.count.toLocaleString('en-US');
      throw refusal(`deleted ${deleted.toLocaleString('en-US')} of ${total} nodes under ${path}, then deleting ${failedAt} failed`, error);
    }
  }
  return deleted;
}
