/**
 * The FIFO of requests on the wire for one connection. ZooKeeper answers in request order, so a reply must
 * match the head; anything else is a protocol error (Java: "Xid out of order").
 */
import type { RequestEntry } from '../request.js';

export class PendingQueue {
  private items: (RequestEntry | undefined)[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(entry: RequestEntry): void {
    this.items.push(entry);
  }

  peek(): RequestEntry | undefined {
    return this.items[this.head];
  }

  shift(): RequestEntry | undefined {
    if (this.head >= this.items.length) return undefined;
    const entry = this.items[this.head];
    this.items[this.head] = undefined;
    this.head++;
    // Compact once the dead prefix dominates, so a long-lived connection does not grow without bound.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return entry;
  }

  /** Empties the queue, returning what was in it (oldest first). */
  drain(): RequestEntry[] {
    const out = this.items.slice(this.head).filter((e): e is RequestEntry => e !== undefined);
    this.items = [];
    this.head = 0;
    return out;
  }
}

/** Normal xids: 1..2^31-1, wrapping to 1 (never 0 or negative: those are special or break server accounting). */
export class XidCounter {
  private next = 1;

  take(): number {
    const xid = this.next;
    this.next = xid >= 0x7fffffff ? 1 : xid + 1;
    return xid;
  }
}
