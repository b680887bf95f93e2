/**
 * One request's life: queued (not on the wire) → sent (in its connection's in-flight FIFO) → done.
 *
 * - `decode` runs synchronously when the reply frame is read, in frame order, so side effects that must be
 *   ordered with notifications (registering a watch) happen at the right moment. The caller's promise is
 *   then settled through the dispatcher.
 * - Abort/timeout: a queued request is removed and never sent; a sent one cannot be unsent, so the caller's
 *   promise rejects and the reply, when it comes, is consumed in order and dropped.
 */
import type { JuteReader } from '../codec/jute/reader.js';
import type { JuteWriter } from '../codec/jute/writer.js';
import type { ReplyHeader } from '../codec/records/headers.js';
import type { ZkError } from '../errors/errors.js';
import { cancelScope, type CancelOptions, type CancelScope } from './cancel.js';
import type { Clock } from './clock.js';
import type { Dispatcher } from './dispatcher.js';

export interface RequestSpec<T> {
  /** OpCode number. */
  op: number;
  /** Server path, for diagnostics. */
  path?: string | undefined;
  /** Writes the record after the RequestHeader (nothing for header-only requests). */
  write?: ((w: JuteWriter) => void) | undefined;
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

export class Call<T> implements RequestEntry {
  readonly op: number;
  readonly path: string | undefined;
  phase: RequestPhase = 'queued';
  xid = 0;
  readonly promise: Promise<T>;
  private readonly spec: RequestSpec<T>;
  private readonly dispatcher: Dispatcher;
  private resolveFn!: (value: T) => void;
  private rejectFn!: (error: unknown) => void;
  /** The caller already got an answer (abort/timeout) while the request stays in flight. */
  private abandoned = false;
  /** Only set when a signal or a time limit was given: the common call allocates no timer and no listener. */
  private scope: CancelScope | null;
  private readonly canceller: Canceller;

  constructor(spec: RequestSpec<T>, dispatcher: Dispatcher, cancel: CancelOptions | undefined, canceller: Canceller, clock: Clock) {
    this.spec = spec;
    this.op = spec.op;
    this.path = spec.path;
    this.dispatcher = dispatcher;
    this.canceller = canceller;
    this.promise = new Promise<T>((resolve, reject) => {
      this.resolveFn = resolve;
      this.rejectFn = reject;
    });
    this.scope = cancelScope(cancel, 'request', clock);
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
      this.canceller.cancel(this);
    } else {
      // On the wire already: keep the entry so the reply is consumed in order, but answer the caller now.
      this.abandoned = true;
    }
    this.rejectFn(error);
  }

  write(w: JuteWriter): void {
    this.spec.write?.(w);
  }

  reply(header: ReplyHeader, r: JuteReader): void {
    if (this.phase === 'done') return;
    this.phase = 'done';
    if (this.abandoned) return;
    this.release();
    let result: T;
    try {
      result = this.spec.decode(header, r);
    } catch (err) {
      this.dispatcher.settle(this.rejectFn, err);
      return;
    }
    this.dispatcher.settle(this.resolveFn as (value: unknown) => void, result);
  }

  fail(error: ZkError): void {
    if (this.phase === 'done') return;
    this.phase = 'done';
    if (this.abandoned) return;
    this.release();
    this.dispatcher.settle(this.rejectFn, error);
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
