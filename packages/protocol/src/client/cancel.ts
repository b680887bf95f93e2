/**
 * The one cancellation primitive of zkts: a caller's `{ signal, timeout, deadline }` becomes one CancelScope
 * whose `signal` fires with a ZkError reason (AbortError for the caller's signal, TimeoutError for the time
 * limit). Everything that waits (requests, connect(), auth, the recipes' waits) goes through it, so there is
 * one place where a listener is added and, just as important, removed: a long-lived signal shared by
 * thousands of waits holds no listener once each wait is over.
 *
 * The timer comes from a Clock (see clock.ts), so tests drive deadlines by hand. `AbortSignal.timeout` is not
 * used: it cannot be cleared, so a request answered in a millisecond would keep its timer for the whole limit.
 */
import { TimeoutError, abortErrorFrom, type ZkError } from '../errors/errors.js';
import { InvalidArgumentError } from '../errors/errors.js';
import { describeValue } from '../errors/option-keys.js';
import { CLOCK_METHODS, checkObjectWith, checkSignal, checkTimeout } from './validation.js';
import { systemClock, type Clock, type ClockTimer } from './clock.js';
import type { CallOptions } from './types.js';

/** How a wait may end early: an AbortSignal, a timeout in ms, or an absolute deadline on the clock. */
export interface CancelOptions {
  /** Give up when this fires. A ZkError reason is passed on as it is; anything else becomes an AbortError. */
  signal?: AbortSignal | undefined;
  /** Give up after this many ms (0 or absent: no limit). */
  timeout?: number | undefined;
  /** Give up at this time (the clock's `now()`; absent: no limit). The earlier of timeout and deadline wins. */
  deadline?: number | undefined;
}

/**
 * The checks shared by CancelScope, cancelScope, raceCancel and sleep (options, the `what` label, the clock).
 * Their options are usually a richer caller's options handed down whole (an operation's, a recipe's), so keys
 * beyond signal/timeout/deadline are expected here and not reported.
 */
function checkCancelArguments(options: unknown, what: unknown, clock: unknown, where: string): void {
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) {
    throw new InvalidArgumentError('options', `${where} options must be an object, got ${describeValue(options)}`);
  }
  if (typeof what !== 'string' || what === '') throw new InvalidArgumentError('what', `${where} needs a non-empty label, got ${describeValue(what)}`);
  checkObjectWith(clock, 'clock', CLOCK_METHODS, true);
  if (options === undefined) return;
  const o = options as CancelOptions;
  checkSignal(o.signal);
  checkTimeout(o.timeout);
  const deadline: unknown = o.deadline;
  if (deadline !== undefined && (typeof deadline !== 'number' || !Number.isFinite(deadline))) {
    throw new InvalidArgumentError('deadline', `deadline must be a finite clock time in ms, got ${describeValue(deadline)}`);
  }
}

/** The one cancellation primitive of the client: combines a signal, a timeout and a deadline into one `signal`, and cleans up its timer when disposed. */
export class CancelScope implements Disposable {
  /** Absolute time limit (clock time), if any. */
  readonly deadline: number | undefined;
  private readonly controller = new AbortController();
  private readonly clock: Clock;
  private readonly source: AbortSignal | undefined;
  private timer: ClockTimer | undefined;
  private readonly onSourceAbort = (): void => this.cancel(abortErrorFrom(this.source as AbortSignal));

  constructor(options: CancelOptions, what: string, clock: Clock = systemClock) {
    checkCancelArguments(options, what, clock, 'CancelScope');
    this.clock = clock;
    this.source = options.signal;
    const now = clock.now();
    let deadline = options.deadline;
    const timeout = options.timeout;
    if (timeout !== undefined && timeout > 0 && (deadline === undefined || now + timeout < deadline)) deadline = now + timeout;
    this.deadline = deadline;
    if (this.source?.aborted === true) {
      this.cancel(abortErrorFrom(this.source));
      return;
    }
    if (deadline !== undefined) {
      const limit = deadline - now;
      const message = timeout !== undefined && timeout > 0 && deadline === now + timeout ? `${what} timed out after ${timeout} ms` : `${what} passed its deadline`;
      if (limit <= 0) {
        this.cancel(new TimeoutError(message));
        return;
      }
      this.timer = clock.setTimeout(() => {
        this.timer = undefined;
        this.cancel(new TimeoutError(message));
      }, limit);
    }
    this.source?.addEventListener('abort', this.onSourceAbort, { once: true });
  }

  /** Fires (once) with the ZkError that explains why; `signal.reason` is that error. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether the scope has ended (signal fired or time passed). */
  get cancelled(): boolean {
    return this.controller.signal.aborted;
  }

  /** The reason, once cancelled. */
  get reason(): ZkError | undefined {
    return this.cancelled ? (this.controller.signal.reason as ZkError) : undefined;
  }

  /** ms left before the deadline (never negative), or undefined for no limit. */
  remaining(): number | undefined {
    return this.deadline === undefined ? undefined : Math.max(0, this.deadline - this.clock.now());
  }

  /** Throws the scope's error (AbortError or TimeoutError) if it has ended. */
  throwIfCancelled(): void {
    if (this.cancelled) throw this.controller.signal.reason;
  }

  /** Runs `listener` on cancellation (at once if already cancelled); returns a remover. */
  onCancel(listener: (error: ZkError) => void): () => void {
    const signal = this.controller.signal;
    if (signal.aborted) {
      listener(signal.reason as ZkError);
      return () => undefined;
    }
    const handler = (): void => listener(signal.reason as ZkError);
    signal.addEventListener('abort', handler, { once: true });
    return () => signal.removeEventListener('abort', handler);
  }

  /**
   * Waits for `promise`, or rejects with the cancellation reason. The promise's work goes on either way (its
   * rejection is marked handled so giving up never leaves an unhandled one).
   */
  race<T>(promise: Promise<T>): Promise<T> {
    promise.catch(() => undefined);
    if (this.cancelled) return Promise.reject(this.controller.signal.reason as ZkError);
    return new Promise<T>((resolve, reject) => {
      const off = this.onCancel(reject);
      promise.then(
        (value) => {
          off();
          resolve(value);
        },
        (error: unknown) => {
          off();
          reject(error);
        },
      );
    });
  }

  /** Cancels now with `error` (no-op once cancelled). */
  cancel(error: ZkError): void {
    if (this.controller.signal.aborted) return;
    this.release();
    this.controller.abort(error);
  }

  /** Stops watching the caller's signal and the clock. Idempotent; call when the guarded work is over. */
  dispose(): void {
    this.release();
  }

  /** Stops the scope's timer and listeners; `using scope = cancelScope(…)` does it at the end of the block. */
  [Symbol.dispose](): void {
    this.dispose();
  }

  private release(): void {
    if (this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.source?.removeEventListener('abort', this.onSourceAbort);
  }
}

/** A scope, or null when there is nothing to cancel by (the hot path then allocates nothing). */
export function cancelScope(options: CancelOptions | undefined, what: string, clock: Clock = systemClock): CancelScope | null {
  checkCancelArguments(options, what, clock, 'cancelScope');
  if (options === undefined) return null;
  const { signal, timeout, deadline } = options;
  if (signal === undefined && deadline === undefined && (timeout === undefined || timeout <= 0)) return null;
  return new CancelScope(options, what, clock);
}

/**
 * Waits for `promise` unless cancelled first (then rejects with the reason; the work itself goes on).
 *
 * @internal Exported for the other zkts packages, not part of the documented API.
 */
export function raceCancel<T>(promise: Promise<T>, options: CancelOptions | undefined, what: string, clock: Clock = systemClock): Promise<T> {
  try {
    if (typeof (promise as { then?: unknown } | null)?.then !== 'function') throw new InvalidArgumentError('promise', `raceCancel needs a promise, got ${describeValue(promise)}`);
    checkCancelArguments(options, what, clock, 'raceCancel');
  } catch (err) {
    return Promise.reject(err);
  }
  const scope = cancelScope(options, what, clock);
  if (scope === null) return promise;
  return scope.race(promise).finally(() => scope.dispose());
}

/**
 * Aborts `child` when `parent` aborts, until the returned function unlinks them: for a wait shorter than the
 * parent's life. Not `AbortSignal.any([parent, …])`: on Node 20 each call leaves about 50 bytes on the parent
 * until the parent itself aborts, which a session's stop signal may never do.
 */
export function abortWith(parent: AbortSignal, child: AbortController): () => void {
  if (parent.aborted) {
    child.abort(parent.reason);
    return () => undefined;
  }
  const onAbort = (): void => child.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return () => parent.removeEventListener('abort', onAbort);
}

/** A cancellable pause: resolves after `ms`, rejects with the cancellation reason if cancelled first. */
export function sleep(ms: number, options: CancelOptions = {}, clock: Clock = systemClock): Promise<void> {
  try {
    checkTimeout(ms, 'ms');
    checkCancelArguments(options, 'sleep', clock, 'sleep');
  } catch (err) {
    return Promise.reject(err);
  }
  const scope = cancelScope(options, 'sleep', clock);
  if (scope?.cancelled === true) return Promise.reject(scope.reason as ZkError);
  return new Promise<void>((resolve, reject) => {
    const timer = clock.setTimeout(() => {
      scope?.dispose();
      resolve();
    }, Math.max(0, ms));
    scope?.onCancel((error) => {
      clock.clearTimeout(timer);
      scope.dispose();
      reject(error);
    });
  });
}

/** Only the signal/timeout of a richer options object. */
export function pickCallOptions(options: CallOptions): CallOptions {
  const out: CallOptions = {};
  if (options.signal !== undefined) out.signal = options.signal;
  if (options.timeout !== undefined) out.timeout = options.timeout;
  return out;
}
