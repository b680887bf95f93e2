/**
 * The requests that wait for a connection: while none takes requests (connecting, suspended, the handshake and
 * the session's own requests not yet out) they wait here in an insertion-ordered Set, so a caller's abort
 * removes its request in O(1) and the rest leave in call order when the session opens the next connection.
 * The session decides whether a request may wait (by state) and when they leave.
 */
import { ConnectionLossError, type ZkError } from '../../errors/errors.js';
import type { RequestEntry } from '../request.js';

export class RequestQueue {
  /** Made when a request first has to wait, dropped when the queue empties (most sessions seldom queue). */
  private queued: Set<RequestEntry> | null = null;
  private readonly maxQueued: number;

  constructor(maxQueued: number) {
    this.maxQueued = maxQueued;
  }

  get size(): number {
    return this.queued?.size ?? 0;
  }

  /** Queues `entry`, or fails it when maxQueued requests already wait. */
  add(entry: RequestEntry): void {
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

  /** Everything queued, in call order, and the queue empty. */
  takeAll(): Iterable<RequestEntry> {
    const waiting = this.queued;
    this.queued = null;
    return waiting ?? [];
  }

  /** Fails every queued request (session over, or `whileSuspended: 'fail'`). */
  failQueued(makeError: () => ZkError): void {
    for (const entry of this.takeAll()) entry.fail(makeError());
  }
}
