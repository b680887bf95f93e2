/**
 * The request pipeline: the one owner of every request between the caller and its reply.
 *
 *   queued     no connection can take it yet (connecting, suspended): an insertion-ordered Set, so a caller's
 *              abort removes its request in O(1) and the rest leave in call order on the next connection
 *   in flight  written to the open connection, waiting for its reply: a FIFO, because ZooKeeper answers one
 *              session's requests in order, so a reply must match the head (Java: "Xid out of order")
 *
 * The session decides *whether* a request may go (by state) and tells the pipeline when a connection opens
 * (`open`, after the handshake and the session's own priming) and when it is lost (`lost`). Xids are numbered
 * here, per session, so no two requests of one session ever share one.
 */
import { ConnectionLossError, ProtocolError, type ZkError } from '../../errors/errors.js';
import type { ReplyHeader } from '../../codec/records/headers.js';
import type { Connection } from './connection.js';
import { PendingQueue, XidCounter } from './pending-queue.js';
import type { RequestEntry } from '../request.js';

export class RequestPipeline {
  /** Made when a request first has to wait, dropped when the queue empties (most sessions seldom queue). */
  private queued: Set<RequestEntry> | null = null;
  private readonly inFlight = new PendingQueue();
  private readonly xids = new XidCounter();
  private conn: Connection | null = null;
  private readonly maxQueued: number;

  constructor(maxQueued: number) {
    this.maxQueued = maxQueued;
  }

  get queuedCount(): number {
    return this.queued?.size ?? 0;
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** True while a connection takes requests directly. */
  get isOpen(): boolean {
    return this.conn !== null;
  }

  /** Writes `entry` now when a connection is open; otherwise queues it (bounded by maxQueued). */
  submit(entry: RequestEntry): void {
    if (this.conn !== null) {
      this.write(this.conn, entry);
      return;
    }
    const queued = (this.queued ??= new Set());
    if (queued.size >= this.maxQueued) {
      entry.fail(new ConnectionLossError(`not connected and ${queued.size} requests already queued (maxQueued)`, false));
      return;
    }
    queued.add(entry);
  }

  /**
   * Writes `entry` on `conn` ahead of the queue, for the session's own priming (SetWatches) before `open`.
   * It is in flight like any request, so its reply is matched in order.
   */
  prime(conn: Connection, entry: RequestEntry): void {
    this.write(conn, entry);
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
    if (waiting !== null) for (const entry of waiting) this.write(conn, entry);
  }

  /** The connection is gone: every request in flight fails with an unknown outcome; queued ones wait on. */
  lost(cause: ZkError): void {
    this.conn = null;
    for (const entry of this.inFlight.drain()) {
      entry.fail(new ConnectionLossError(`connection lost with the request in flight: ${cause.message}`, true, { cause }));
    }
  }

  /** Fails every queued request (session over, or `whileSuspended: 'fail'`). */
  failQueued(makeError: () => ZkError): void {
    const waiting = this.queued;
    this.queued = null;
    if (waiting !== null) for (const entry of waiting) entry.fail(makeError());
  }

  /**
   * The request a reply answers: the oldest in flight, taken off the FIFO (the caller hands it the reply).
   * Anything else breaks the protocol; the ProtocolError thrown here closes the connection (the connection's
   * frame handler catches it).
   */
  take(header: ReplyHeader): RequestEntry {
    const entry = this.inFlight.peek();
    if (entry === undefined || entry.xid !== header.xid) {
      throw new ProtocolError(
        entry === undefined ? `reply with xid ${header.xid} but no request is pending` : `xid out of order: expected ${entry.xid}, got ${header.xid}`,
      );
    }
    this.inFlight.shift();
    return entry;
  }

  private write(conn: Connection, entry: RequestEntry): void {
    const xid = this.xids.take();
    if (!conn.writeRequest(xid, entry)) return;
    entry.xid = xid;
    entry.phase = 'sent';
    this.inFlight.push(entry);
  }
}
