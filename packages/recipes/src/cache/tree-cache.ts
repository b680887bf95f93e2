/**
 * TreeCache: a local, always-converging view of a whole subtree (Curator's CuratorCache and TreeCache, kazoo's
 * TreeCache), optionally limited in depth and filtered by path. See base-cache.ts for the life cycle and
 * engine.ts for how the view is kept in line.
 */
import { BaseCache, checkedCacheOptions, TREE_CACHE_OPTION_RULES } from './base-cache.js';
import { checkArg, rules, type OptionRules } from '../internal/index.js';
import type { CacheClient } from './client.js';
import type { CachedNode, TreeCacheOptions } from './types.js';

/**
 * A local view of a whole subtree (Curator `CuratorCache`, kazoo `TreeCache`), optionally limited by `maxDepth`
 * and a path `filter`, that converges after every reconnect and session renewal. `start()` resolves once the view
 * is complete; `get(path)` reads it; `on(listener)` or `for await` hear `added`, `changed` and `removed` in zxid
 * order. `data` keeps the bytes (default), the Stat only (`'stat'`), or what a decoder makes of each node's bytes:
 * the decoder sees every node, the root and nodes holding only children included.
 *
 * @example
 * ```ts
 * import { connect } from '@zkts/protocol';
 * import { TreeCache } from '@zkts/recipes';
 *
 * await using zk = await connect(process.env.ZKTS_SERVER ?? '127.0.0.1:2181');
 * await zk.mkdirp('/example/config');
 * await zk.create('/example/config/db', 'db1');
 * {
 *   await using cache = new TreeCache(zk, '/example/config', { data: (bytes) => new TextDecoder().decode(bytes) });
 *   await cache.start();
 *   console.log(cache.get('/example/config/db')?.data, cache.size);
 *   const removed = new Promise<string>((resolve) => cache.on((event) => void (event.type === 'removed' && resolve(event.path))));
 *   await zk.delete('/example/config/db');
 *   console.log('removed', await removed, cache.size);
 * }
 * await zk.removeRecursive('/example');
 * // db1 2
 * // removed /example/config/db 1
 * ```
 */
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
