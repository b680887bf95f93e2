/**
 * One request's life: queued (not on the wire) → sent (in its connection's in-flight FIFO) → done.
 *
 * - `decode` runs synchronously when the reply frame is read, in frame order, so side effects that must be
 *   ordered with notifications (registering a watch) happen at the right moment. The caller's promise is
 *   then settled through the dispatcher.
 * - Abort/timeout: a queued request is removed and never sent; a sent one cannot be unsent, so the caller's
 *   promise rejects and the reply, when it comes, is consumed in order and dropped.
 * - Observability: a Call counts its failures by code (stats.ts) and, when someone listened as it started,
 *   carries its zkts:request trace (request-trace.ts), whose outcome is published as the caller's promise settles.
 */
import type { JuteReader } from '../codec/jute/reader.js';
import type { JuteWriter } from '../codec/jute/writer.js';
import type { ReplyHeader } from '../codec/records/headers.js';
import type { ZkError } from '../errors/errors.js';
import { cancelScope, type CancelOptions, type CancelScope } from './cancel.js';
import type { Clock } from './clock.js';
import type { Dispatcher } from './dispatcher.js';
import type { TracedRequest } from './request-trace.js';
import type { RequestStats } from './stats.js';

export interface RequestSpec<T> {
  /** OpCode number. */
  op: number;
  /** Server path, for diagnostics. */
  path?: string | undefined;
  /** Writes the record after the RequestHeader (nothing for header-only requests). */
  write?: ((w: JuteWriter) => void) | undefined;
  /** multi and multiRead: the sub-operations (their wire names), for the request's trace. */
  ops?: readonly { op: string }[] | undefined;
  /** Turns the reply into a result (or throws a ZkError). The body is there only when `header.err === 0`. */
  decode(header: ReplyHeader, r: JuteReader): T;
}

export type RequestPhase = 'queued' | 'sent' | 'done';

/** What the session and connection layers see of a request. */
export interface RequestEntry {
  readonly op: number;
  readonly path: string | undefined;
  phase: RequestPhase;
  xid: number;
  /** Its zkts:request trace (null: not traced, as every request of the session's own). */
  readonly trace: TracedRequest | null;
  write(w: JuteWriter): void;
  /** The reply arrived (in order). */
  reply(header: ReplyHeader, r: JuteReader): void;
  /** It will never get a reply (connection loss, session end, queue bound…). */
  fail(error: ZkError): void;
}

/** What a Call needs of the session: taking back a request that never left. */
export interface Canceller {
  cancel(entry: RequestEntry): void;
}

/** What every Call of one client shares (one object per client, so a Call holds one reference to it). */
export interface CallEnv {
  readonly dispatcher: Dispatcher;
  readonly canceller: Canceller;
  readonly clock: Clock;
  /** Failures by code for stats(); null for the session's own calls. */
  readonly stats: RequestStats | null;
}

export class Call<T> implements RequestEntry {
  readonly op: number;
  readonly path: string | undefined;
  phase: RequestPhase = 'queued';
  xid = 0;
  readonly promise: Promise<T>;
  readonly trace: TracedRequest | null;
  private readonly spec: RequestSpec<T>;
  private readonly env: CallEnv;
  private resolveFn!: (value: T) => void;
  private rejectFn!: (error: unknown) => void;
  /** The caller already got an answer (abort/timeout) while the request stays in flight. */
  private abandoned = false;
  /** Only set when a signal or a time limit was given: the common call allocates no timer and no listener. */
  private scope: CancelScope | null;

  constructor(spec: RequestSpec<T>, env: CallEnv, cancel: CancelOptions | undefined, trace: TracedRequest | null = null) {
    this.spec = spec;
    this.op = spec.op;
    this.path = spec.path;
    this.env = env;
    this.trace = trace;
    this.promise = new Promise<T>((resolve, reject) => {
      this.resolveFn = resolve;
      this.rejectFn = reject;
    });
    // No limit and no signal (the common call): no scope, and none of the checks of making one.
    this.scope = cancel === undefined ? null : cancelScope(cancel, 'request', env.clock);
    this.scope?.onCancel((error) => this.cancel(error));
  }

  private release(): void {
    if (this.scope === null) return;
    this.scope.dispose();
    this.scope = null;
  }

  /** Abort or timeout from the caller's side. */
  private cancel(error: ZkError): void {
    if (this.phase === 'done' || this.abandoned) return;
    this.release();
    if (this.phase === 'queued') {
      this.phase = 'done';
      this.env.canceller.cancel(this);
    } else {
      // On the wire already: keep the entry so the reply is consumed in order, but answer the caller now.
      this.abandoned = true;
    }
    this.failed(error);
    this.rejectFn(error);
  }

  /** Counts a failure and ends the trace with it (before the caller's promise settles). */
  private failed(error: unknown): void {
    this.env.stats?.failed(error);
    this.trace?.failed(error);
  }

  write(w: JuteWriter): void {
    this.spec.write?.(w);
  }

  reply(header: ReplyHeader, r: JuteReader): void {
    if (this.phase === 'done') return;
    this.phase = 'done';
    if (this.abandoned) return;
    this.release();
    const trace = this.trace;
    trace?.replied(r.length + 4);
    let result: T;
    try {
      result = this.spec.decode(header, r);
    } catch (err) {
      this.failed(err);
      this.env.dispatcher.settle(this.rejectFn, err);
      return;
    }
    trace?.succeeded(result);
    this.env.dispatcher.settle(this.resolveFn as (value: unknown) => void, result);
  }

  fail(error: ZkError): void {
    if (this.phase === 'done') return;
    this.phase = 'done';
    if (this.abandoned) return;
    this.release();
    this.failed(error);
    this.env.dispatcher.settle(this.rejectFn, error);
  }
}

/**
 * A request the session makes for itself (SetWatches): nobody awaits it, so a failure is only reported
 * (debug log); an error reply does not end anything.
 */
export class SessionRequest implements RequestEntry {
  readonly op: number;
  readonly path: string | undefined;
  phase: RequestPhase = 'queued';
  xid = 0;
  readonly trace = null;
  private readonly spec: RequestSpec<void>;
  private readonly onError: (error: unknown) => void;

  constructor(spec: RequestSpec<void>, onError: (error: unknown) => void) {
    this.spec = spec;
    this.op = spec.op;
    this.path = spec.path;
    this.onError = onError;
  }

  write(w: JuteWriter): void {
    this.spec.write?.(w);
  }

  reply(header: ReplyHeader, r: JuteReader): void {
    this.phase = 'done';
    try {
      this.spec.decode(header, r);
    } catch (err) {
      this.onError(err);
    }
  }

  fail(): void {
    // Lost with its connection: the next connection replays the watches again.
    this.phase = 'done';
  }
}
