/**
 * The loop that keeps something of ours in place across reconnects and renewals (an election candidacy, a
 * persistent node, a persistent watch, a followed count, a selector's place in line). One pass looks at the
 * client's state and does one step; the loop goes round until the recipe closes or a pass says stop. Between
 * passes it waits on a kick (a state change, a requeue, close), and after an unexpected error it keeps the error
 * in `lastError` and pauses on the recipe's clock, so a failing server is not hammered and tests on a
 * ManualClock drive the pause by hand. A kick or close cuts the pause short; the timer then runs out on its own
 * (or at close) and leaves nothing behind.
 */
import { sleep, systemClock, type Clock } from '@zkts/protocol';

import { Pulse } from './pulse.js';

/** How long the loop pauses after an unexpected error before its next pass. */
export const RETRY_PAUSE_MS = 200;

/**
 * One pass. `kicked` settles on the next kick after the pass began: a pass that waits races its wait against
 * it. Returning 'stop' ends the loop (the client is over, or the recipe is done).
 */
export type Pass = (kicked: Promise<void>) => Promise<'stop' | void>;

/**
 * What to do after a pass threw (never called once closed): 'retry' goes round at once (the state checks of
 * the next pass decide), 'pause' records the error and pauses first, 'stop' ends the loop.
 */
export type Recover = (error: unknown, kicked: Promise<void>) => 'retry' | 'pause' | 'stop' | Promise<'retry' | 'pause' | 'stop'>;

export class KeepAlive {
  /** The last unexpected error of the loop (it retries after it). */
  lastError: unknown;
  private readonly clock: Clock;
  private readonly closing = new AbortController();
  private readonly kicks = new Pulse();
  private loop: Promise<void> | undefined;

  constructor(clock: Clock = systemClock) {
    this.clock = clock;
  }

  /** Aborted at close: waits of the recipe that must end with the loop listen to it. */
  get signal(): AbortSignal {
    return this.closing.signal;
  }

  get closed(): boolean {
    return this.closing.signal.aborted;
  }

  get started(): boolean {
    return this.loop !== undefined;
  }

  /** Ends the current wait of the loop (and a pause): the next pass looks at the state again. */
  kick(): void {
    this.kicks.fire();
  }

  /** Settles on the next kick: take it BEFORE looking at the state it reports on, so no change slips between. */
  nextKick(): Promise<void> {
    return this.kicks.next();
  }

  /** Starts the loop (once); the promise settles when it ends, never with an error. */
  start(pass: Pass, recover: Recover = () => 'pause'): Promise<void> {
    this.loop ??= this.run(pass, recover);
    return this.loop;
  }

  /** Stops the loop: aborts `signal` (with `reason`, if given), kicks, and waits for the pass in flight to end. */
  async close(reason?: unknown): Promise<void> {
    if (!this.closed) this.closing.abort(reason);
    this.kicks.fire();
    await this.loop;
  }

  /** The retry pause on the clock, cut short by a kick or close. */
  async pause(kicked: Promise<void>): Promise<void> {
    const pause = sleep(RETRY_PAUSE_MS, { signal: this.closing.signal }, this.clock).catch(() => undefined);
    await Promise.race([pause, kicked]);
  }

  private async run(pass: Pass, recover: Recover): Promise<void> {
    while (!this.closed) {
      const kicked = this.kicks.next();
      try {
        if ((await pass(kicked)) === 'stop') return;
      } catch (e) {
        if (this.closed) return;
        let error = e;
        let next: 'retry' | 'pause' | 'stop';
        try {
          next = await recover(e, kicked);
        } catch (failure) {
          // A recovery that fails itself counts as an unexpected error.
          error = failure;
          next = 'pause';
        }
        if (next === 'stop') return;
        if (next === 'pause') {
          this.lastError = error;
          await this.pause(kicked);
        }
      }
    }
  }
}
