/**
 * Time, as the client sees it. Every timer of the session layer, the requests and the cancellation
 * helper goes through a Clock, so tests can inject a manual one and assert exact sequences instead of
 * wall-clock windows. Production code uses `systemClock`.
 */

/** An opaque timer handle, only ever passed back to the clock that made it. */
export type ClockTimer = { readonly __clockTimer?: never } | object;

/** Options of one timer. */
export interface ClockTimerOptions {
  /** Do not keep the process alive for this timer alone (Node's `unref()`). */
  unref?: boolean;
}

/** A time source: the system's by default, a ManualClock (from @zkts/testkit) in tests, so that every timer of a client can be driven exactly. */
export interface Clock {
  /** Milliseconds; only differences matter. */
  now(): number;
  /** Calls `callback` once, `ms` from now on this clock. */
  setTimeout(callback: () => void, ms: number, options?: ClockTimerOptions): ClockTimer;
  /** Cancels a timer made by this clock's setTimeout. */
  clearTimeout(timer: ClockTimer): void;
}

/** Date.now and Node's timers. */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  setTimeout(callback: () => void, ms: number, options?: ClockTimerOptions): ClockTimer {
    const timer = setTimeout(callback, ms);
    if (options?.unref === true) timer.unref();
    return timer;
  },
  clearTimeout(timer: ClockTimer): void {
    clearTimeout(timer as ReturnType<typeof setTimeout>);
  },
});

/**
 * systemClock with its times read from the monotonic clock (ms since the process started) instead of the wall
 * clock. A wall clock stepped back (NTP, a VM resumed, an operator) would otherwise hold back every ping by the
 * step, long enough for the server to expire the session, and one stepped forward would look like silence and
 * drop a healthy connection; ZooKeeper's Java client counts these times with System.nanoTime for the same
 * reason. Whole ms below 2^31 (24 days of the process's life) are also small integers V8 keeps in the object itself,
 * where a Date.now() value takes a 16-byte heap number of its own for every field that holds one.
 */
const monotonicClock: Clock = Object.freeze({
  // Math.floor: whole ms, so each field holding one stays a small integer rather than a heap number.
  now: () => Math.floor(performance.now()),
  setTimeout: systemClock.setTimeout,
  clearTimeout: systemClock.clearTimeout,
});

/** The clock a session counts its own times with: `clock` itself, or for systemClock its monotonic twin. */
export function sessionClock(clock: Clock): Clock {
  return clock === systemClock ? monotonicClock : clock;
}
