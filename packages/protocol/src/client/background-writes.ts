/**
 * The client's background writes: work that must finish even when the caller stops waiting (Curator's
 * FailedDeleteManager and FindAndDeleteProtectedNodeInBackground). Each one is a step retried across
 * reconnects and session renewals until it reports done, fails with an error a retry cannot fix, or reaches
 * its bounds (attempts, time). While it runs it is listed by `pending`; every change is an event; `close()`
 * cancels what is left and gets the list back.
 *
 * The steps themselves (what to delete, how to recognise the node) live in idempotent.ts.
 */
import { ClientClosedError, TimeoutError, ZkError } from '../errors/errors.js';
import { sleep } from './cancel.js';
import type { Clock } from './clock.js';
import { logBackgroundWrites } from './logger.js';
import type { BackgroundWriteEvent, BackgroundWriteKind, BackgroundWriteOptions, CallOptions, ClientOptions, Logger, PendingWrite } from './types.js';

/** What a step may report: the node is gone, or the path now holds another node that is not ours to delete. */
export type StepResult = 'done' | 'replaced';

/** What the writes need of the client. */
export interface WriteHost {
  connected(options: CallOptions): Promise<void>;
}

/** What the writes read of the session. */
export interface WriteSession {
  /** No state will follow (closed, auth-failed, or expired without renewal). */
  readonly isOver: boolean;
}

export const DEFAULT_MAX_ATTEMPTS = 50;
export const DEFAULT_MAX_TIME = 10 * 60_000;
/** Pause after a failed try that did not already wait for a reconnect: doubling from 100 ms up to 5 s. */
const backoff = (attempt: number): number => Math.min(5_000, 100 * 2 ** Math.min(attempt - 1, 6));

/** Errors that say "the outcome is unknown, ask again later" rather than "this cannot be done". */
function retryable(error: unknown): boolean {
  return error instanceof ZkError && (error.code === 'CONNECTION_LOSS' || error.code === 'SESSION_EXPIRED' || error.code === 'TIMEOUT');
}

interface Job {
  readonly kind: BackgroundWriteKind;
  readonly path: string;
  readonly since: number;
  attempts: number;
  lastError: ZkError | undefined;
  gaveUp: boolean;
}

/** The client options the writes read. */
export interface WriteOptions {
  readonly backgroundWrites?: BackgroundWriteOptions | undefined;
  readonly logger?: Logger | undefined;
}

const NO_WRITE_OPTIONS: WriteOptions = Object.freeze({});

/** What a client keeps of its options for its background writes, made on first use: nothing of its own when neither is set. */
export function writeOptions(options: ClientOptions): WriteOptions {
  const { backgroundWrites, logger } = options;
  return backgroundWrites === undefined && logger === undefined ? NO_WRITE_OPTIONS : { backgroundWrites, logger };
}

const snapshot = (job: Job): PendingWrite => ({ kind: job.kind, path: job.path, attempts: job.attempts, since: job.since, lastError: job.lastError });

export class BackgroundWrites {
  // Made on first use: most clients never run a background write, and a pool of thousands keeps none of these.
  private jobs: Set<Job> | null = null;
  private listeners: Set<(event: BackgroundWriteEvent) => void> | null = null;
  private stopper: AbortController | null = null;
  /** cancelAll() was called: a stopper made later starts aborted. */
  private closed = false;
  private readonly host: WriteHost;
  private readonly session: WriteSession;
  private readonly clock: Clock;
  private readonly maxAttempts: number;
  private readonly maxTime: number;
  private readonly report: (error: unknown) => void;

  /**
   * `host` and `session`: the client and its session themselves (no adapter object or closures per client).
   * `options`: the client's (its `backgroundWrites` bounds, and its `logger`, told of writes that did not finish).
   * `closed`: made after the client's close(), so it refuses every write.
   */
  constructor(host: WriteHost, session: WriteSession, options: WriteOptions, clock: Clock, report: (error: unknown) => void, closed = false) {
    this.closed = closed;
    this.host = host;
    this.session = session;
    this.clock = clock;
    this.maxAttempts = options.backgroundWrites?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    this.maxTime = options.backgroundWrites?.maxTime ?? DEFAULT_MAX_TIME;
    this.report = report;
    logBackgroundWrites(this, options.logger);
  }

  private get stop(): AbortController {
    if (this.stopper === null) {
      this.stopper = new AbortController();
      if (this.closed) this.stopper.abort(closedBeforeFinished());
    }
    return this.stopper;
  }

  /** The writes not finished yet, oldest first. */
  get pending(): PendingWrite[] {
    return this.jobs === null ? [] : [...this.jobs].map(snapshot);
  }

  /** Calls `listener` on every event of every background write; returns the remover. */
  onEvent(listener: (event: BackgroundWriteEvent) => void): () => void {
    const listeners = (this.listeners ??= new Set());
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /**
   * Runs `step` until it reports done (resolves with what it said), or rejects with the error that ended it:
   * one a retry cannot fix, a TimeoutError at the bounds (its cause the last error), ClientClosedError on
   * close(), or the session's end when no session follows.
   */
  run(kind: BackgroundWriteKind, path: string, step: (attempt: number) => Promise<StepResult>): Promise<StepResult> {
    const job: Job = { kind, path, since: this.clock.now(), attempts: 0, lastError: undefined, gaveUp: false };
    if (this.stop.signal.aborted) return Promise.reject(new ClientClosedError(`the client is closed: ${kind} of ${path} not started`));
    (this.jobs ??= new Set()).add(job);
    this.emit({ ...snapshot(job), status: 'pending' });
    const done = this.loop(job, step).then(
      (result) => {
        this.finish(job, result);
        return result;
      },
      (error: unknown) => {
        this.finish(job, this.stop.signal.aborted || this.session.isOver ? 'cancelled' : job.gaveUp ? 'gave-up' : 'failed', error);
        throw error;
      },
    );
    // A caller who stopped waiting must not see an unhandled rejection; the event tells the outcome.
    done.catch(() => undefined);
    return done;
  }

  /** Stops every write (close()) and returns what was left unfinished. */
  cancelAll(): PendingWrite[] {
    const left = this.pending;
    this.closed = true;
    // Only a write that ran made the stopper: without one there is nothing to stop (and no error to make, whose
    // stack trace is most of what closing an idle client costs).
    this.stopper?.abort(closedBeforeFinished());
    return left;
  }

  private async loop(job: Job, step: (attempt: number) => Promise<StepResult>): Promise<StepResult> {
    const signal = this.stop.signal;
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const elapsed = this.clock.now() - job.since;
      if (job.attempts >= this.maxAttempts || elapsed >= this.maxTime) {
        job.gaveUp = true;
        throw new TimeoutError(`${job.kind} of ${job.path} gave up after ${job.attempts} attempts in ${elapsed} ms`, { cause: job.lastError });
      }
      try {
        await this.host.connected({ signal, timeout: this.maxTime - elapsed });
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (this.session.isOver) throw error;
        if (error instanceof ZkError) job.lastError = error;
        continue; // an expiry with a new session to follow, or our own time limit: the checks above decide
      }
      job.attempts++;
      try {
        return await step(job.attempts);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (!retryable(error) || this.session.isOver) throw error;
        job.lastError = error as ZkError;
      }
      await sleep(backoff(job.attempts), { signal }, this.clock).catch(() => undefined);
    }
  }

  private finish(job: Job, status: BackgroundWriteEvent['status'], error?: unknown): void {
    this.jobs?.delete(job);
    const event: BackgroundWriteEvent = { ...snapshot(job), status };
    if (error instanceof ZkError) event.error = error;
    this.emit(event);
  }

  private emit(event: BackgroundWriteEvent): void {
    if (this.listeners === null) return;
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.report(error);
      }
    }
  }
}

function closedBeforeFinished(): ClientClosedError {
  return new ClientClosedError('the client was closed before the background write finished');
}
