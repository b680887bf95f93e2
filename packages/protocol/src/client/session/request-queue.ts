/**
 * Requests on their way to a connection. While none is open (connecting, suspended) they wait here in an
 * insertion-ordered Set, so a caller's abort removes its request in O(1) and the rest leave in call order once
 * the session opens the next connection; while one is open, a request goes straight to `Connection.send`, which
 * numbers it and keeps it in flight until its reply (in-flight.ts).
 *
 * The session decides *whether* a request may go (by state) and says when a connection is ready (`open`, after
 * the handshake and the session's own requests) and when it is gone (`lost`).
 */
import { ConnectionLossError, type ZkError } from '../../errors/errors.js';
import type { RequestEntry } from '../request.js';
import type { Connection } from './connection.js';

export class RequestQueue {
  /** Made when a request first has to wait, dropped when the queue empties (most sessions seldom queue). */
  private queued: Set<RequestEntry> | null = null;
  private conn: Connection | null = null;
  private readonly maxQueued: number;

  constructor(maxQueued: number) {
    this.maxQueued = maxQueued;
  }

  /** Sends `entry` now when a connection is open; otherwise queues it (bounded by maxQueued). */
  submit(entry: RequestEntry): void {
    if (this.conn !== null) {
      this.conn.send(entry);
      return;
    }
    const queued = (this.queued ??= new Set());
    if (queued.size >= this.maxQueued) {
      entry.fail(new ConnectionLossError(`not connected and ${queued.size} requests already queued (maxQueued)`, false));
      return;
    }
    queued.add(entry);
  }

  /** A caller gave up on a request that never left: it is removed and will never be sent. */
  cancel(entry: RequestEntry): void {
    this.queued?.delete(entry);
  }

  /** The connection is ready: everything queued leaves, in call order, then new requests go straight out. */
  open(conn: Connection): void {
    this.conn = conn;
    const waiting = this.queued;
    this.queued = null;
    if (waiting !== null) for (const entry of waiting) conn.send(entry);
  }

  /** The connection is gone (it failed its own requests in flight); new requests wait for the next one. */
  lost(): void {
    this.conn = null;
  }

  /** Fails every queued request (session over, or `whileSuspended: 'fail'`). */
  failQueued(makeError: () => ZkError): void {
    const waiting = this.queued;
    this.queued = null;
    if (waiting !== null) for (const entry of waiting) entry.fail(makeError());
  }
}
