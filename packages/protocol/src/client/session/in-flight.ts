/**
 * What a connection keeps per request between writing it and reading its reply: the FIFO of requests on the
 * wire (ZooKeeper answers one connection in order, so a reply must match the oldest). The xids they carry are
 * the session's (identity.ts), since they must not repeat across its connections.
 */
import { ProtocolError } from '../../errors/errors.js';
import type { ReplyHeader } from '../../codec/records/headers.js';
import type { RequestEntry } from '../request.js';

/**
 * The ring of a connection that has written no request yet, shared and never written to (push replaces it): an
 * idle session in a pool of thousands sends pings only, which are not kept in flight.
 */
const NONE: (RequestEntry | undefined)[] = [];

/**
 * The requests of one connection on the wire, oldest first, waiting for their replies: a ring whose size is a
 * power of two, so a deep pipeline neither shifts nor compacts an array while it runs.
 */
export class InFlight {
  private ring = NONE;
  /** Index of the oldest entry, and how many there are. */
  private head = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(entry: RequestEntry): void {
    if (this.count === this.ring.length) this.grow();
    this.ring[(this.head + this.count) & (this.ring.length - 1)] = entry;
    this.count++;
  }

  /**
   * The request `header` answers, taken off the FIFO: the oldest, with the same xid. Anything else throws a
   * ProtocolError (the connection's frame handler closes the connection with it).
   */
  take(header: ReplyHeader): RequestEntry {
    const entry = this.count === 0 ? undefined : this.ring[this.head];
    if (entry === undefined || entry.xid !== header.xid) {
      throw new ProtocolError(
        entry === undefined ? `reply with xid ${header.xid} but no request is pending` : `xid out of order: expected ${entry.xid}, got ${header.xid}`,
      );
    }
    this.ring[this.head] = undefined;
    this.head = (this.head + 1) & (this.ring.length - 1);
    this.count--;
    return entry;
  }

  /** Empties the FIFO, returning what was in it (oldest first). */
  drain(): RequestEntry[] {
    const out = this.inOrder(this.count);
    this.ring = NONE;
    this.head = 0;
    this.count = 0;
    return out as RequestEntry[];
  }

  /** Twice the room (4 at first), the entries moved to the front in order. */
  private grow(): void {
    const ring = this.inOrder(Math.max(4, this.ring.length * 2));
    this.ring = ring;
    this.head = 0;
  }

  /** The entries oldest first, in an array of `length` (the rest undefined). */
  private inOrder(length: number): (RequestEntry | undefined)[] {
    const out = new Array<RequestEntry | undefined>(length).fill(undefined);
    const mask = this.ring.length - 1;
    for (let i = 0; i < this.count; i++) out[i] = this.ring[(this.head + i) & mask];
    return out;
  }
}
