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
