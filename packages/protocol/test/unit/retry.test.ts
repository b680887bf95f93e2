import { describe, expect, it } from 'vitest';
import { ManualClock } from '@zkts/testkit';
import { ConnectionLossError, ServerError, SessionExpiredError, exponentialBackoff, isRetryable, noRetry } from '@zkts/protocol';
import { retrying } from '../../src/client/retry.js';

const loss = (): ConnectionLossError => new ConnectionLossError('cut', true);

describe('retry policies', () => {
  it('exponential backoff doubles from the base, caps, and stops after maxRetries or maxElapsed', () => {
    const policy = exponentialBackoff({ baseDelay: 100, maxDelay: 500, maxRetries: 5, jitter: false });
    expect([1, 2, 3, 4, 5, 6].map((n) => policy.delayBefore(n, 0, loss()))).toEqual([100, 200, 400, 500, 500, undefined]);
    const timed = exponentialBackoff({ baseDelay: 100, maxRetries: 10, maxElapsed: 1000, jitter: false });
    expect(timed.delayBefore(3, 599, loss())).toBe(400);
    expect(timed.delayBefore(3, 601, loss())).toBeUndefined();
    const jittered = exponentialBackoff({ baseDelay: 100, random: () => 0.5 });
    expect(jittered.delayBefore(3, 0, loss())).toBe(200);
    expect(noRetry.delayBefore(1, 0, loss())).toBeUndefined();
  });

  it('retries only what may not have reached the server', () => {
    expect(isRetryable(loss())).toBe(true);
    expect(isRetryable(new ServerError(-7))).toBe(true); // OPERATION_TIMEOUT
    expect(isRetryable(new ServerError(-118))).toBe(true); // SESSION_MOVED
    expect(isRetryable(new ServerError(-101))).toBe(false);
    expect(isRetryable(new SessionExpiredError())).toBe(false);
    expect(isRetryable(new Error('x'))).toBe(false);
  });

  it('waits exactly the policy’s delays on the clock, then gives up with the last error', async () => {
    const clock = new ManualClock(0);
    const tries: number[] = [];
    const errors = [loss(), loss(), loss()];
    const run = retrying(
      async () => {
        tries.push(clock.now());
        throw errors[tries.length - 1] ?? loss();
      },
      exponentialBackoff({ baseDelay: 100, maxRetries: 2, jitter: false }),
      clock,
    ).catch((e: unknown) => e);
    for (const step of [100, 200]) {
      await new Promise((r) => setImmediate(r));
      clock.advance(step);
    }
    expect(await run).toBe(errors[2]);
    expect(tries).toEqual([0, 100, 300]);
  });

  it('stops at once on an error that is not retryable, and on abort during a wait', async () => {
    const clock = new ManualClock(0);
    const noNode = new ServerError(-101);
    let n = 0;
    await expect(
      retrying(
        async () => {
          n++;
          throw noNode;
        },
        exponentialBackoff(),
        clock,
      ),
    ).rejects.toBe(noNode);
    expect(n).toBe(1);
    const controller = new AbortController();
    const aborted = retrying(() => Promise.reject(loss()), exponentialBackoff({ baseDelay: 1000, jitter: false }), clock, controller.signal);
    await new Promise((r) => setImmediate(r));
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: 'ABORTED' });
  });
});
