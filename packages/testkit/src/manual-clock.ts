/**
 * A clock that moves only when a test says so, with the shape of @zkts/protocol's `Clock` (the testkit does not
 * depend on the protocol package; the interfaces match structurally). Timers run in due order, ties in the
 * order they were set, and a timer set by a running timer runs in the same `advance` if it is due.
 */
import { checkNumber, refuse } from './option-checks.js';

interface ManualTimer {
  readonly id: number;
  due: number;
  readonly callback: () => void;
}

/** A Clock for tests: time moves only when the test says so (advance), and timers fire exactly when due. */
export class ManualClock {
  private time: number;
  private nextId = 1;
  private timers: ManualTimer[] = [];

  constructor(start = 1_000_000) {
    checkNumber('new ManualClock', 'start', start, -Infinity, false);
    this.time = start;
  }

  /** The current time of this clock, in ms. */
  now(): number {
    return this.time;
  }

  /** Schedules `callback` `ms` from now on this clock. */
  setTimeout(callback: () => void, ms: number): object {
    if (typeof callback !== 'function') refuse('clock.setTimeout', 'callback', 'a function', callback);
    // Negative delays are allowed and mean "now", as Node's setTimeout has them.
    checkNumber('clock.setTimeout', 'ms', ms, -Infinity, false);
    const timer: ManualTimer = { id: this.nextId++, due: this.time + Math.max(0, ms), callback };
    this.timers.push(timer);
    return timer;
  }

  /** Cancels a timer. */
  clearTimeout(timer: object): void {
    const i = this.timers.indexOf(timer as ManualTimer);
    if (i >= 0) this.timers.splice(i, 1);
  }

  /** Timers not yet run. */
  get pending(): number {
    return this.timers.length;
  }

  /** When the next timer is due, or undefined. */
  nextDue(): number | undefined {
    const next = this.earliest();
    return next?.due;
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way, in order. */
  advance(ms: number): void {
    checkNumber('clock.advance', 'ms', ms, 0, false);
    const until = this.time + Math.max(0, ms);
    while (this.runNext(until));
    this.time = until;
  }

  /**
   * Like `advance`, but yields to the event loop after each timer so that socket I/O and promise callbacks it
   * caused (a ping written, a reply read) happen before the next timer runs.
   */
  async advanceAsync(ms: number, settle: () => Promise<void> = () => new Promise((r) => setImmediate(r))): Promise<void> {
    checkNumber('clock.advanceAsync', 'ms', ms, 0, false);
    if (typeof settle !== 'function') refuse('clock.advanceAsync', 'settle', 'a function', settle);
    const until = this.time + Math.max(0, ms);
    do await settle();
    while (this.runNext(until));
    this.time = until;
    await settle();
  }

  /** Runs the earliest timer due by `until`; false when there is none. */
  private runNext(until: number): boolean {
    const next = this.earliest();
    if (next === undefined || next.due > until) return false;
    this.timers.splice(this.timers.indexOf(next), 1);
    this.time = Math.max(this.time, next.due);
    next.callback();
    return true;
  }

  private earliest(): ManualTimer | undefined {
    let best: ManualTimer | undefined;
    for (const t of this.timers) if (best === undefined || t.due < best.due || (t.due === best.due && t.id < best.id)) best = t;
    return best;
  }
}
