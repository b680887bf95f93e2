/**
 * NodeCache: a local view of one node, which may not exist yet (Curator's NodeCache, kazoo's DataWatch). A node
 * that is missing reads as null at once, and its creation arrives as an `added` event: unlike a watch set by
 * getData, which a missing node never arms, nothing waits forever on a node that is already gone.
 */
import { BaseCache, CACHE_OPTION_RULES, checkedCacheOptions } from './base-cache.js';
import type { OptionRules } from '../internal/index.js';
import type { CacheClient } from './client.js';
import type { CacheOptions, CachedNode } from './types.js';

/** A cache of one node, which may not exist yet (Curator NodeCache): reports "absent" at once and its creation when it happens. */
export class NodeCache<T = Uint8Array> extends BaseCache<T> {
  constructor(client: CacheClient, path: string, options: CacheOptions<T> = {}) {
    super(client, path, checkedCacheOptions('NodeCache', options, CACHE_OPTION_RULES as OptionRules<CacheOptions<T>>), { maxDepth: 0 });
  }

  /** The node as last read, or null when it does not exist (and before start() resolves). */
  get current(): CachedNode<T> | null {
    return this.engine.store.get(this.path) ?? null;
  }

  get size(): number {
    return this.engine.store.size;
  }
}
