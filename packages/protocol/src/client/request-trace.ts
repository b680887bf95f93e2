/**
 * One request's `zkts:request` trace (the channel and RequestTrace are in diagnostics.ts): the context made when
 * the request starts, filled in when it is written and answered, and the order of its events. Only requests the
 * API sends are traced, never the session's own (pings, SetWatches, credentials, SASL, closeSession), and only
 * when someone subscribes as the request starts: OpContext tests `hasSubscribers` before it makes a
 * TracedRequest, so an untraced request allocates nothing for this.
 *
 * The order is TracingChannel.tracePromise's: `start` in the caller's context around the submit (stores bound
 * to it are active while the request is handed on), `end` once the call returns, then, when the caller's
 * promise settles, `error` (failures only), `asyncStart`, `asyncEnd`. A request that settles inside the submit
 * (refused at once, an already aborted signal) has its outcome published after `end`, so the order never varies.
 *
 * No credential reaches a trace: the session's auth and SASL requests are not traced, and getACL's result (ACL
 * ids, which may be digest hashes) is left out of `result`.
 */
import { OpCode, opName } from '../codec/records/constants.js';
import { requestChannel, type RequestTrace } from './diagnostics.js';

/**
 * Wire names the client sends for an operation of another name: create2 is `create` (the create that answers a
 * Stat), getChildren2 is `getChildren`. createContainer and createTTL keep their names: other operations on the
 * server, as in ZooKeeper's OpCode.
 */
const OPERATION_OF: Readonly<Record<string, string>> = { create2: 'create', getChildren2: 'getChildren' };

/** The client operation a wire operation is sent for. */
export function operationName(wireName: string): string {
  return OPERATION_OF[wireName] ?? wireName;
}

/**
 * The attempt number idempotent.ts puts in the options of the public call it repeats (guaranteed delete,
 * protected create). A symbol of this module: no caller can set it, and option checks (own string keys) skip it.
 */
export const ATTEMPT: unique symbol = Symbol('zkts.attempt');
export interface AttemptOption {
  [ATTEMPT]?: number;
}

/** The attempt number in `options` (1 when absent). */
export function attemptIn(options: object | undefined): number {
  const attempt = (options as AttemptOption | undefined)?.[ATTEMPT];
  return typeof attempt === 'number' ? attempt : 1;
}

const STARTING = 0;
const STARTED = 1;
const EARLY_SUCCESS = 2;
const EARLY_FAILURE = 3;
const DONE = 4;
type Stage = typeof STARTING | typeof STARTED | typeof EARLY_SUCCESS | typeof EARLY_FAILURE | typeof DONE;

export class TracedRequest {
  readonly context: RequestTrace;
  private stage: Stage = STARTING;
  private readonly keepsResult: boolean;
  /** The outcome of a request settled inside its submit, published once `end` is. */
  private early: unknown = undefined;

  constructor(op: number, path: string | undefined, subOps: readonly { op: string }[] | undefined, sessionId: bigint, attempt: number) {
    this.keepsResult = op !== OpCode.getACL;
    this.context = {
      op: operationName(opName(op)),
      path,
      sessionId,
      xid: -1,
      server: undefined,
      bytesOut: 0,
      bytesIn: 0,
      attempt,
      retried: attempt > 1,
      ops: subOps?.map((o) => operationName(o.op)),
      errorCode: undefined,
    };
  }

  /** Runs `submit` inside `start` (the caller's context, with the start channel's stores), then publishes `end`. */
  run<R>(submit: () => R): R {
    try {
      return requestChannel.start.runStores(this.context, submit);
    } finally {
      requestChannel.end.publish(this.context);
      const early = this.stage;
      this.stage = STARTED;
      if (early === EARLY_SUCCESS || early === EARLY_FAILURE) this.publishOutcome(early === EARLY_FAILURE, this.early);
    }
  }

  /** Put on the wire by a connection of session `sessionId`. */
  written(sessionId: bigint, xid: number, server: string, bytes: number): void {
    const c = this.context;
    c.sessionId = sessionId;
    c.xid = xid;
    c.server = server;
    c.bytesOut = bytes;
  }

  /** The reply's size, before its outcome. */
  replied(bytes: number): void {
    if (this.stage !== DONE) this.context.bytesIn = bytes;
  }

  succeeded(result: unknown): void {
    this.settle(false, result);
  }

  failed(error: unknown): void {
    this.settle(true, error);
  }

  /** Publishes the outcome now, or keeps it for `run` to publish after `end` when the submit is still running. */
  private settle(failed: boolean, value: unknown): void {
    if (this.stage === STARTING) {
      this.stage = failed ? EARLY_FAILURE : EARLY_SUCCESS;
      this.early = value;
    } else if (this.stage === STARTED) {
      this.publishOutcome(failed, value);
    }
  }

  private publishOutcome(failed: boolean, value: unknown): void {
    this.stage = DONE;
    const c = this.context;
    if (failed) {
      c.error = value;
      const code = (value as { code?: unknown } | null)?.code;
      c.errorCode = typeof code === 'string' ? code : undefined;
      requestChannel.error.publish(c);
    } else if (this.keepsResult) {
      c.result = value;
    }
    requestChannel.asyncStart.publish(c);
    requestChannel.asyncEnd.publish(c);
  }
}
