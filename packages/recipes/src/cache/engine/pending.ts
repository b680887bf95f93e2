/**
 * The buffer of one consumer (a listener or an iterator) of a cache: what the cache released and the consumer has
 * not taken yet. The policy for a consumer that falls behind, which must neither block the cache nor lose state:
 *
 * - up to `limit` events it is a plain queue: every event, in order;
 * - past it the buffer merges: at most one event per node, from what the consumer last saw to the node's current
 *   state (added + changed = added, changed + removed = removed, added + removed = nothing, removed + added =
 *   changed), moved to the end with the later zxid, so the order stays zxid order. It then holds at most one event
 *   per node the consumer knows or the cache holds, plus one `resynced`: memory is bounded by what is cached,
 *   and replaying what the consumer gets still yields the cache's view. It turns back into a queue once drained.
 */
import type { CacheEvent, NodeEvent } from '../types.js';

const INITIALIZED = Symbol('initialized');
const RESYNCED = Symbol('resynced');

function keyOf<T>(event: CacheEvent<T>): string | symbol {
  if (event.type === 'initialized') return INITIALIZED;
  if (event.type === 'resynced') return RESYNCED;
  return event.path;
}

/** One event from `a` then `b` (same path), or undefined when together they change nothing. */
export function mergeEvents<T>(a: NodeEvent<T>, b: NodeEvent<T>): NodeEvent<T> | undefined {
  const { path, zxid } = b;
  const old = a.old;
  const node = b.node;
  if (old === undefined) return node === undefined ? undefined : { type: 'added', path, zxid, node, old: undefined };
  if (node === undefined) return { type: 'removed', path, zxid, node: undefined, old };
  return { type: 'changed', path, zxid, node, old };
}

export class PendingQueue<T> {
  private list: CacheEvent<T>[] = [];
  private head = 0;
  private merged: Map<string | symbol, CacheEvent<T>> | null = null;
  private cursor: IterableIterator<CacheEvent<T>> | null = null;
  private readonly limit: number;
  /** Events folded into another one, over the consumer's life. */
  mergedCount = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  get length(): number {
    return this.merged === null ? this.list.length - this.head : this.merged.size;
  }

  push(event: CacheEvent<T>): void {
    if (this.merged !== null) {
      this.fold(this.merged, event);
      return;
    }
    this.list.push(event);
    if (this.list.length - this.head > this.limit) this.startMerging();
  }

  shift(): CacheEvent<T> | undefined {
    if (this.merged !== null) {
      const next = (this.cursor as IterableIterator<CacheEvent<T>>).next();
      if (next.done === true) {
        this.merged = null;
        this.cursor = null;
        return undefined;
      }
      this.merged.delete(keyOf(next.value));
      if (this.merged.size === 0) {
        this.merged = null;
        this.cursor = null;
      }
      return next.value;
    }
    if (this.head >= this.list.length) return undefined;
    const event = this.list[this.head] as CacheEvent<T>;
    this.list[this.head++] = undefined as unknown as CacheEvent<T>;
    if (this.head === this.list.length) {
      this.list = [];
      this.head = 0;
    }
    return event;
  }

  clear(): void {
    this.list = [];
    this.head = 0;
    this.merged = null;
    this.cursor = null;
  }

  private startMerging(): void {
    const map = new Map<string | symbol, CacheEvent<T>>();
    for (let i = this.head; i < this.list.length; i++) this.fold(map, this.list[i] as CacheEvent<T>);
    this.list = [];
    this.head = 0;
    this.merged = map;
    // A live iterator: it sees entries re-added at the end after it started.
    this.cursor = map.values();
  }

  private fold(map: Map<string | symbol, CacheEvent<T>>, event: CacheEvent<T>): void {
    const key = keyOf(event);
    const earlier = map.get(key);
    if (earlier === undefined) {
      map.set(key, event);
      return;
    }
    this.mergedCount++;
    map.delete(key);
    if (event.type === 'initialized' || event.type === 'resynced') {
      map.set(key, event);
      return;
    }
    const merged = mergeEvents(earlier as NodeEvent<T>, event);
    if (merged !== undefined) map.set(key, merged);
  }
}
