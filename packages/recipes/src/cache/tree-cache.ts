/**
 * TreeCache: a local, always-converging view of a whole subtree (Curator's CuratorCache and TreeCache, kazoo's
 * TreeCache), optionally limited in depth and filtered by path. See base-cache.ts for the life cycle and
 * engine.ts for how the view is kept in line.
 */
import { BaseCache, checkedCacheOptions, TREE_CACHE_OPTION_RULES } from './base-cache.js';
import { checkArg, rules, type OptionRules } from '../internal/index.js';
import type { CacheClient } from './client.js';
import type { CachedNode, TreeCacheOptions } from './types.js';

/** A cache of a whole subtree (Curator CuratorCache, kazoo TreeCache), optionally depth-limited and filtered, converging after every reconnect and renewal. */
export class TreeCache<T = Uint8Array> extends BaseCache<T> {
  constructor(client: CacheClient, path: string, options: TreeCacheOptions<T> = {}) {
    super(client, path, checkedCacheOptions('TreeCache', options, TREE_CACHE_OPTION_RULES as OptionRules<TreeCacheOptions<T>>), { maxDepth: options.maxDepth ?? Infinity, filter: options.filter });
  }

  /** The cached node at `path` (the root or under it), or undefined. */
  get(path: string): CachedNode<T> | undefined {
    checkArg('TreeCache.get', 'path', path, rules.string);
    return this.engine.store.get(path);
  }

  get size(): number {
    return this.engine.store.size;
  }

  /** Names of the cached children of `path`. */
  children(path: string): string[] {
    checkArg('TreeCache.children', 'path', path, rules.string);
    const store = this.engine.store;
    return store.childNames(path).filter((name) => store.get(store.pathOf(path, name)) !== undefined);
  }

  /** Every cached node with its path, parents before children. */
  entries(): IterableIterator<[string, CachedNode<T>]> {
    return this.engine.store.entries();
  }
}
