/**
 * Sorted child lists, read once per change. A node with 100,000 children costs one getChildren (a megabyte on
 * the wire) and a sort; paging through it must not repeat that per page. An entry is valid while the parent's
 * cversion and pzxid are those it was read at (one cheap `exists` per request proves it), live change events
 * drop entries early, and the cache holds a bounded number of names in least-recently-used order.
 */
import type { ZkClient } from '@zkts/protocol';

export interface SortedChildren {
  readonly path: string;
  readonly names: readonly string[];
  readonly cversion: number;
  readonly pzxid: bigint;
}

export interface ChildrenCacheOptions {
  /** The most names kept over all entries; default 2,000,000 (two nodes of a million children). */
  readonly maxNames?: number;
  /** The most entries; default 256. */
  readonly maxEntries?: number;
}

export class ChildrenCache {
  private readonly entries = new Map<string, SortedChildren>();
  /** One read per path at a time: the pages a scroll asks for at once share it. */
  private readonly loading = new Map<string, Promise<SortedChildren>>();
  private names = 0;
  private readonly maxNames: number;
  private readonly maxEntries: number;

  constructor(private readonly client: ZkClient, options: ChildrenCacheOptions = {}) {
    this.maxNames = options.maxNames ?? 2_000_000;
    this.maxEntries = options.maxEntries ?? 256;
  }

  /** The sorted children of `path` as they are now (NO_NODE when it is gone). */
  async get(path: string, signal?: AbortSignal): Promise<SortedChildren> {
    const cached = this.entries.get(path);
    if (cached !== undefined) {
      const stat = await this.client.exists(path, signal === undefined ? {} : { signal });
      if (stat !== null && stat.cversion === cached.cversion && stat.pzxid === cached.pzxid) {
        this.touch(cached);
        return cached;
      }
      this.drop(path);
    }
    let pending = this.loading.get(path);
    if (pending === undefined) {
      // Not tied to one request's signal: other requests may be waiting on the same read.
      const read = this.load(path).finally(() => {
        if (this.loading.get(path) === read) this.loading.delete(path);
      });
      this.loading.set(path, read);
      pending = read;
    }
    return pending;
  }

  /**
   * Forgets a path's list: its children changed. A read in flight may have been answered before the change, so
   * later requests do not join it (those already waiting get its answer, as they would have without the change).
   */
  invalidate(path: string): void {
    this.drop(path);
    this.loading.delete(path);
  }

  clear(): void {
    this.entries.clear();
    this.names = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  private async load(path: string): Promise<SortedChildren> {
    const { children, stat } = await this.client.getChildren(path);
    children.sort(compareNames);
    const entry: SortedChildren = { path, names: children, cversion: stat.cversion, pzxid: stat.pzxid };
    this.drop(path);
    // A list larger than the whole budget is served but not kept.
    if (children.length <= this.maxNames) {
      this.entries.set(path, entry);
      this.names += children.length;
      this.evict();
    }
    return entry;
  }

  private touch(entry: SortedChildren): void {
    this.entries.delete(entry.path);
    this.entries.set(entry.path, entry);
  }

  private drop(path: string): void {
    const old = this.entries.get(path);
    if (old === undefined) return;
    this.entries.delete(path);
    this.names -= old.names.length;
  }

  private evict(): void {
    for (const [path] of this.entries) {
      if (this.names <= this.maxNames && this.entries.size <= this.maxEntries) return;
      this.drop(path);
    }
  }
}

/** Code-unit order: what the page shows and what a prefix range relies on. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The index range [start, end) of the sorted names that start with `prefix`. */
export function prefixRange(names: readonly string[], prefix: string): [number, number] {
  if (prefix === '') return [0, names.length];
  const start = lowerBound(names, prefix);
  // The names with the prefix are contiguous from `start`; find the first that lacks it by binary search too.
  let lo = start;
  let hi = names.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((names[mid] ?? '').startsWith(prefix)) lo = mid + 1;
    else hi = mid;
  }
  return [start, lo];
}

function lowerBound(names: readonly string[], key: string): number {
  let lo = 0;
  let hi = names.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((names[mid] ?? '') < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
