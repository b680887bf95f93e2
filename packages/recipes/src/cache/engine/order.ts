/**
 * Puts the cache's events in zxid order before anyone sees them.
 *
 * The cache learns facts in wire order (replies and notifications of one connection arrive in the server's
 * order, and the client's dispatcher keeps it), but a fact's zxid comes from the Stat it read, and a read that
 * went out later can report an older zxid than one that went out earlier (node X changed at 90 is read after node
 * Y changed at 100 when X's notification came first but X changed again). So events wait here, sorted, until no
 * read still on the wire can produce an earlier one:
 *
 * - a read made for a notification carries a bound: the highest zxid seen in any reply when the notification
 *   arrived (`maxSeen`). ZooKeeper sends a watcher its event before any reply showing the change, so the change
 *   it announces is newer than that bound, and so is every event the read (and the reads it leads to) produces;
 * - events are released up to the lowest bound still open, all of them when none is;
 * - during a full (re-)read nothing is released: it may find anything.
 */
import type { NodeEvent } from '../types.js';
import { mergeEvents } from './pending.js';

/** Ties within one zxid: removals deepest first, then everything else parents first. */
function before<T>(a: Keyed<T>, b: Keyed<T>): number {
  if (a.event.zxid !== b.event.zxid) return a.event.zxid < b.event.zxid ? -1 : 1;
  const ar = a.event.type === 'removed';
  const br = b.event.type === 'removed';
  if (ar !== br) return ar ? -1 : 1;
  return ar ? b.depth - a.depth : a.depth - b.depth;
}

interface Keyed<T> {
  event: NodeEvent<T>;
  depth: number;
}

/** Open bounds, with the lowest found in O(log n): a binary heap with lazy deletion of closed ones. */
export class Bounds {
  private readonly open = new Map<number, bigint>();
  private heap: [bigint, number][] = [];
  private next = 1;

  get size(): number {
    return this.open.size;
  }

  add(bound: bigint): number {
    const id = this.next++;
    this.open.set(id, bound);
    const heap = this.heap;
    heap.push([bound, id]);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if ((heap[p] as [bigint, number])[0] <= bound) break;
      heap[i] = heap[p] as [bigint, number];
      i = p;
    }
    heap[i] = [bound, id];
    return id;
  }

  close(id: number): void {
    this.open.delete(id);
    if (this.open.size === 0) this.heap = [];
  }

  /** The lowest open bound, or undefined when none is open. */
  lowest(): bigint | undefined {
    const heap = this.heap;
    while (heap.length > 0 && !this.open.has((heap[0] as [bigint, number])[1])) this.pop();
    return heap.length === 0 ? undefined : (heap[0] as [bigint, number])[0];
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop() as [bigint, number];
    if (heap.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= heap.length) break;
      const r = l + 1;
      const c = r < heap.length && (heap[r] as [bigint, number])[0] < (heap[l] as [bigint, number])[0] ? r : l;
      if ((heap[c] as [bigint, number])[0] >= last[0]) break;
      heap[i] = heap[c] as [bigint, number];
      i = c;
    }
    heap[i] = last;
  }
}

export class OrderBuffer<T> {
  private items: Keyed<T>[] = [];
  private sorted = true;
  private last: bigint = -1n;
  /** How many events may wait before those of one node are merged (see `merge`). */
  private readonly limit: () => number;
  /** Events released with a zxid below one already released: 0 unless the reasoning above is wrong. */
  outOfOrder = 0;

  constructor(limit: () => number = () => Infinity) {
    this.limit = limit;
  }

  get length(): number {
    return this.items.length;
  }

  push(event: NodeEvent<T>, depth: number): void {
    const items = this.items;
    const keyed = { event, depth };
    if (this.sorted && items.length > 0 && before(items[items.length - 1] as Keyed<T>, keyed) > 0) this.sorted = false;
    items.push(keyed);
    if (items.length > this.limit()) this.merge();
  }

  /**
   * Held events of one node become one (its first old state, its last new state and zxid: pending.ts), so while
   * events are held (a full read that keeps being cut short) they stay bounded by the nodes concerned. Events are
   * pushed in the order the facts were learnt, which for one node is its version order.
   */
  private merge(): void {
    const byPath = new Map<string, Keyed<T>>();
    for (const k of this.items) {
      const earlier = byPath.get(k.event.path);
      if (earlier === undefined) {
        byPath.set(k.event.path, k);
        continue;
      }
      byPath.delete(k.event.path);
      const merged = mergeEvents(earlier.event, k.event);
      if (merged !== undefined) byPath.set(k.event.path, { event: merged, depth: k.depth });
    }
    this.items = [...byPath.values()];
    this.sorted = false;
  }

  /** Takes, in order, every event with a zxid ≤ `upTo` (all of them when `upTo` is undefined). */
  release(upTo: bigint | undefined): NodeEvent<T>[] {
    const items = this.items;
    if (items.length === 0) return [];
    if (!this.sorted) {
      items.sort(before);
      this.sorted = true;
    }
    let n = items.length;
    if (upTo !== undefined) {
      n = 0;
      while (n < items.length && (items[n] as Keyed<T>).event.zxid <= upTo) n++;
    }
    if (n === 0) return [];
    const out: NodeEvent<T>[] = new Array<NodeEvent<T>>(n);
    for (let i = 0; i < n; i++) {
      const event = (items[i] as Keyed<T>).event;
      if (event.zxid < this.last) this.outOfOrder++;
      else this.last = event.zxid;
      out[i] = event;
    }
    this.items = n === items.length ? [] : items.slice(n);
    return out;
  }
}
