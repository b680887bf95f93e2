// The one keep-alive loop the election, persistent node, persistent watcher, shared count and leader selector
// run on: passes, kicks, the retry pause on the injected clock, and close.
import { describe, expect, it, vi } from 'vitest';

import { ManualClock } from '@zkts/testkit';

import { KeepAlive, RETRY_PAUSE_MS } from '../../../src/internal/index.js';

describe('KeepAlive', () => {
  it('after an unexpected error: lastError, then a pause on the injected clock, then the next pass', async () => {
    const clock = new ManualClock();
    const alive = new KeepAlive(clock);
    const failure = new Error('boom');
    let passes = 0;
    const loop = alive.start(async (kicked) => {
      passes++;
      if (passes === 1) throw failure;
      await kicked;
    });
    await vi.waitFor(() => expect(clock.pending).toBe(1));
    expect(alive.lastError).toBe(failure);
    expect(clock.nextDue()).toBe(clock.now() + RETRY_PAUSE_MS);
    await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS + 50)); // real time does not end the pause
    expect(passes).toBe(1);
    clock.advance(RETRY_PAUSE_MS);
    await vi.waitFor(() => expect(passes).toBe(2));
    await alive.close();
    await loop;
    expect(alive.closed).toBe(true);
  });

  it('a kick cuts the pause short; close ends a waiting pass and leaves no timer running', async () => {
    const clock = new ManualClock();
    const alive = new KeepAlive(clock);
    let passes = 0;
    void alive.start(async (kicked) => {
      passes++;
      if (passes === 1) throw new Error('once');
      await kicked;
    });
    await vi.waitFor(() => expect(clock.pending).toBe(1));
    alive.kick();
    await vi.waitFor(() => expect(passes).toBe(2));
    await alive.close();
    expect(clock.pending).toBe(0); // the pause's timer was cleared by the close signal
  });

  it("recover decides: 'retry' goes round at once without lastError, 'stop' ends the loop", async () => {
    const clock = new ManualClock();
    const alive = new KeepAlive(clock);
    let passes = 0;
    await alive.start(
      async () => {
        passes++;
        throw new Error(`pass ${passes}`);
      },
      (e) => ((e as Error).message === 'pass 3' ? 'stop' : 'retry'),
    );
    expect(passes).toBe(3);
    expect(alive.lastError).toBeUndefined();
    expect(clock.pending).toBe(0);
  });

  it("a pass returning 'stop' ends the loop; start() runs one loop only", async () => {
    const alive = new KeepAlive(new ManualClock());
    let passes = 0;
    const pass = async (): Promise<'stop'> => {
      passes++;
      return 'stop';
    };
    const first = alive.start(pass);
    expect(alive.start(pass)).toBe(first);
    await first;
    expect(passes).toBe(1);
    expect(alive.started).toBe(true);
  });
});
