/**
 * What a connection keeps per request between writing it and reading its reply: the FIFO of requests on the
 * wire (ZooKeeper answers one connection in order, so a reply must match the oldest). The xids they carry are
 * the session's (identity.ts), since they must not repeat across its connections.
 */
import { ProtocolError } from '../../errors/errors.js';
import type { ReplyHeader } from '../../codec/records/headers.js';
import type { RequestEntry } from '../request.js';

/**
 * The list of a connection that has written no request yet, shared and never written to (push replaces it): an
 * idle session in a pool of thousands sends pings only, which are not kept in flight.
 */
const NONE: (RequestEntry | undefined)[] = [];

/** The requests of one connection on the wire, oldest first, waiting for their replies. */
export class InFlight {
  private items = NONE;
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(entry: RequestEntry): void {
    if (this.items === NONE) this.items = [entry];
    else this.items.push(entry);
  }

  /**
   * The request `header` answers, taken off the FIFO: the oldest, with the same xid. Anything else throws a
   * ProtocolError (the connection's frame handler closes the connection with it).
   */
  take(header: ReplyHeader): RequestEntry {
    const entry = this.items[this.head];
    if (entry === undefined || entry.xid !== header.xid) {
      throw new ProtocolError(
        entry === undefined ? `reply with xid ${header.xid} but no request is pending` : `xid out of order: expected ${entry.xid}, got ${header.xid}`,
      );
    }
    this.items[this.head] = undefined;
    this.head++;
    // Compact once the dead prefix dominates, so a long-lived connection does not grow without bound.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return entry;
  }

  /** Empties the FIFO, returning what was in it (oldest first). */
  drain(): RequestEntry[] {
    const out = this.items.slice(this.head).filter((e): e is RequestEntry => e !== undefined);
    this.items = NONE;
    this.head = 0;
    return out;
  }
}
