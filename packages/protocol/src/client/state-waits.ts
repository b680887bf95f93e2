/**
 * Waiting on the session's state from the outside: `connected()` (one promise) and `states()` (an async
 * iterable of every change, which goes on across a renewal). Both only listen; the session alone changes state.
 */
import { ConnectTimeoutError, TimeoutError, type ConnectAttempt, type ZkError } from '../errors/errors.js';
import { AsyncQueue } from './async-queue.js';
import { CancelScope } from './cancel.js';
import type { Clock, ClockTimer } from './clock.js';
import { isConnected, isTerminal } from './session/session-state.js';
import type { CallOptions, SessionState, StateChange } from './types.js';

/** What these read of the session. */
export interface ObservableSession {
  readonly state: SessionState;
  /** No state will follow (closed, auth-failed, or expired without renewal). */
  readonly isOver: boolean;
  /** `expired` is followed by a new session. */
  readonly renews: boolean;
  terminalError(): ZkError;
  connectFailures(): ConnectAttempt[];
  onStateChange(listener: (change: StateChange) => void): () => void;
}

export function waitConnected(session: ObservableSession, options: CallOptions, clock: Clock): Promise<void> {
  if (isConnected(session.state)) return Promise.resolve();
  if (session.isOver) return Promise.reject(session.terminalError());
  if (options.signal === undefined) return waitTimed(session, options.timeout ?? 0, clock);
  const scope = new CancelScope(options, 'connect', clock);
  const reached = new Promise<void>((resolve, reject) => {
    const unsubscribe = session.onStateChange((change) => {
      if (isConnected(change.state)) resolve();
      // An expiry ends the wait even when a new session follows: what the caller waited for is gone.
      else if (isTerminal(change.state)) reject(change.error ?? session.terminalError());
      else return;
      unsubscribe();
    });
    // A caller that gives up stops listening too (the scope's rejection reaches the caller instead).
    scope.onCancel(() => unsubscribe());
  });
  return scope
    .race(reached)
    .catch((error: unknown) => {
      // Our own time limit (not the caller's signal, which ends the wait with an AbortError): say what each
      // host answered meanwhile.
      if (error === scope.reason && error instanceof TimeoutError && options.timeout !== undefined) {
        throw new ConnectTimeoutError(options.timeout, session.connectFailures());
      }
      throw error;
    })
    .finally(() => scope.dispose());
}

/**
 * A wait bounded by time alone (every connect() without a signal): one promise, one state listener and one
 * clock timer. A pool opening a thousand sessions then makes no AbortController, abort listener or chained
 * promises per session; the outcome is the scope's: connected, the terminal error, or ConnectTimeoutError.
 * `also` may end the wait early with an error of its own (it returns how to stop listening).
 */
export function waitTimed(session: ObservableSession, timeout: number, clock: Clock, also?: (fail: (error: ZkError) => void) => () => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let timer: ClockTimer | undefined;
    let offAlso: (() => void) | null = null;
    const settle = (error: ZkError | null): void => {
      offState();
      offAlso?.();
      if (timer !== undefined) clock.clearTimeout(timer);
      if (error === null) resolve();
      else reject(error);
    };
    const offState = session.onStateChange((change) => {
      if (isConnected(change.state)) settle(null);
      // An expiry ends the wait even when a new session follows: what the caller waited for is gone.
      else if (isTerminal(change.state)) settle(change.error ?? session.terminalError());
    });
    if (also !== undefined) offAlso = also(settle);
    if (timeout > 0) {
      timer = clock.setTimeout(() => {
        timer = undefined;
        // Say what each host answered meanwhile.
        settle(new ConnectTimeoutError(timeout, session.connectFailures()));
      }, timeout);
    }
  });
}

export function stateStream(session: ObservableSession, options: { signal?: AbortSignal }, clock: Clock): AsyncIterable<StateChange> {
  const scope = options.signal === undefined ? null : new CancelScope({ signal: options.signal }, 'states', clock);
  const detach = (): void => {
    unsubscribe();
    scope?.dispose();
  };
  const queue = new AsyncQueue<StateChange>(detach);
  const unsubscribe = session.onStateChange((change) => {
    queue.push(change);
    if (isTerminal(change.state) && !(change.state === 'expired' && session.renews)) {
      detach();
      queue.end();
    }
  });
  scope?.onCancel(() => {
    detach();
    queue.end();
  });
  return queue;
}
