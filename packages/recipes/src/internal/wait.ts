/**
 * How recipe waits are cancelled: through @zkts/protocol's one primitive, CancelScope. A recipe call opens ONE
 * scope from the caller's `{ signal, timeout }` and every step of the call waits inside it, so several steps
 * (MultiLock's locks, a semaphore's inner mutex and lease wait) share one budget, and each race adds a listener
 * only while it waits. The scope's timer runs on an injectable Clock, so unit tests drive timeouts by hand.
 */
import { CancelScope, systemClock, type Clock } from '@zkts/protocol';

/** How long a recipe may wait: `timeout` in ms and/or an AbortSignal. */
export interface WaitOptions {
  /** Abandon the wait when this fires; the recipe then cleans up without it. */
  signal?: AbortSignal;
  /** ms from the call; absent = no limit; 0 = do not wait at all. */
  timeout?: number;
}

/** The scope of one recipe call, or null when nothing can cancel it (then waiting costs no listener at all). */
export type Scope = CancelScope | null;

export function openScope(options: WaitOptions, what: string, clock: Clock = systemClock): Scope {
  const { signal, timeout } = options;
  if (signal === undefined && timeout === undefined) return null;
  // Protocol reads a timeout of 0 as "no limit"; for a recipe it means "now", so it becomes a deadline.
  const limit = timeout === undefined ? {} : timeout > 0 ? { timeout } : { deadline: clock.now() };
  return new CancelScope({ signal, ...limit }, what, clock);
}

/** Waits for `promise` unless the scope is cancelled first; the promise's work goes on either way. */
export function within<T>(scope: Scope, promise: Promise<T>): Promise<T> {
  return scope === null ? promise : scope.race(promise);
}

/** Throws the scope's reason (TimeoutError / AbortError) if it was cancelled. */
export function checkpoint(scope: Scope): void {
  scope?.throwIfCancelled();
}

/** Options that hand this scope on to a nested recipe call (it then shares our deadline and signal). */
export function nested(scope: Scope): WaitOptions {
  return scope === null ? {} : { signal: scope.signal };
}
