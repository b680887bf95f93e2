/**
 * ChildrenCache: the children of one node and their data (Curator's PathChildrenCache, kazoo's ChildrenWatch with
 * data). Events concern the children only; the parent itself may come and go (`parent` says whether it is there).
 */
import { checkArg, rules, type OptionRules } from '../internal/index.js';
import { BaseCache, CACHE_OPTION_RULES, checkedCacheOptions } from './base-cache.js';
import type { CacheClient } from './client.js';
import type { CacheOptions, CachedNode } from './types.js';

const CHILDREN_RULES: OptionRules<ChildrenCacheOptions<unknown>> = { ...CACHE_OPTION_RULES, filter: rules.function };

/** Options of a ChildrenCache. */
export interface ChildrenCacheOptions<T> extends CacheOptions<T> {
  /** Only children whose path passes are cached. */
  filter?: (path: string) => boolean;
}

/** A cache of one node's children (Curator PathChildrenCache, kazoo ChildrenWatch's view): added/changed/removed per child. */
export class ChildrenCache<T = Uint8Array> extends BaseCache<T> {
  constructor(client: CacheClient, path: string, options: ChildrenCacheOptions<T> = {}) {
    super(client, path, checkedCacheOptions('ChildrenCache', options, CHILDREN_RULES as OptionRules<ChildrenCacheOptions<T>>), { maxDepth: 1, filter: options.filter, reported: (p) => p !== path });
  }

  /** The parent node, or null when it does not exist. */
  get parent(): CachedNode<T> | null {
    return this.engine.store.get(this.path) ?? null;
  }

  /** The cached child at `path` (a full path), or undefined. */
  get(path: string): CachedNode<T> | undefined {
    checkArg('ChildrenCache.get', 'path', path, rules.string);
    return path === this.path ? undefined : this.engine.store.get(path);
  }

  /** The children's names, sorted. */
  children(): string[] {
    const store = this.engine.store;
    return store.childNames(this.path).filter((name) => store.get(store.pathOf(this.path, name)) !== undefined).sort();
  }

  get size(): number {
    return this.engine.store.size - (this.parent === null ? 0 : 1);
  }

  /** Every cached child with its path. */
  *entries(): IterableIterator<[string, CachedNode<T>]> {
    for (const entry of this.engine.store.entries()) if (entry[0] !== this.path) yield entry;
  }
}
