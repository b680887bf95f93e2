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

/** Read once: the origin of sessionClock's times. */
const ORIGIN = Date.now();

/**
 * systemClock with its times counted from this module's load instead of 1970. A session keeps several times
 * in its objects (the last frame heard and sent, when the connection and its last ping started); below 2^31 ms
 * (24 days) such a time is a small integer V8 stores in the object itself, where a Date.now() value takes a
 * 16-byte heap number of its own for every field. Only differences of these times are ever used.
 */
const originClock: Clock = Object.freeze({
  // Math.floor changes no value (both are whole ms) but hands back a small integer, where the difference is
  // a heap number that would make V8 keep every such field as one.
  now: () => Math.floor(Date.now() - ORIGIN),
  setTimeout: systemClock.setTimeout,
  clearTimeout: systemClock.clearTimeout,
});

/** The clock a session counts its own times with: `clock` itself, or systemClock from a nearer origin. */
export function sessionClock(clock: Clock): Clock {
  return clock === systemClock ? originClock : clock;
}
