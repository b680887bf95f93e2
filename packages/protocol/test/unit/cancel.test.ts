import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@zkts/testkit';
import type { ZkError} from '@zkts/protocol';
import { AbortError, CancelScope, TimeoutError, cancelScope, raceCancel, sleep } from '@zkts/protocol';
import { abortWith } from '../../src/client/cancel.js';

describe('cancellation primitive', () => {
  it('needs nothing when there is nothing to cancel by', () => {
    expect(cancelScope(undefined, 'x')).toBeNull();
    expect(cancelScope({}, 'x')).toBeNull();
    expect(cancelScope({ timeout: 0 }, 'x')).toBeNull();
  });

  it('times out exactly at the limit on the injected clock, with a TimeoutError reason', () => {
    const clock = new ManualClock();
    const scope = new CancelScope({ timeout: 100 }, 'getData', clock);
    const seen: ZkError[] = [];
    scope.onCancel((e) => seen.push(e));
    clock.advance(99);
    expect(scope.cancelled).toBe(false);
    expect(scope.remaining()).toBe(1);
    clock.advance(1);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(TimeoutError);
    expect(seen[0]?.message).toBe('getData timed out after 100 ms');
    expect(scope.signal.reason).toBe(seen[0]);
    expect(clock.pending).toBe(0);
  });

  it('the earlier of timeout and deadline wins', () => {
    const clock = new ManualClock(0);
    const byDeadline = new CancelScope({ timeout: 500, deadline: 200 }, 'w', clock);
    const byTimeout = new CancelScope({ timeout: 100, deadline: 200 }, 'w', clock);
    clock.advance(100);
    expect([byDeadline.cancelled, byTimeout.cancelled]).toEqual([false, true]);
    clock.advance(100);
    expect(byDeadline.cancelled).toBe(true);
    expect(byDeadline.reason?.message).toBe('w passed its deadline');
  });

  it("passes a caller's ZkError reason on as it is, wraps anything else in an AbortError", () => {
    const clock = new ManualClock();
    const a = new AbortController();
    const own = new CancelScope({ signal: a.signal }, 'w', clock);
    const mine = new TimeoutError('mine');
    a.abort(mine);
    expect(own.reason).toBe(mine);
    const b = new AbortController();
    b.abort('because');
    const pre = new CancelScope({ signal: b.signal, timeout: 10 }, 'w', clock);
    expect(pre.reason).toBeInstanceOf(AbortError);
    expect((pre.reason as Error).cause).toBe('because');
    expect(clock.pending).toBe(0);
  });

  it('dispose removes the listener from a long-lived signal and clears the timer', () => {
    const clock = new ManualClock();
    const a = new AbortController();
    let added = 0;
    let removed = 0;
    const signal = a.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => {
      added++;
      add(...args);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      removed++;
      remove(...args);
    }) as typeof signal.removeEventListener;
    for (let i = 0; i < 1000; i++) new CancelScope({ signal, timeout: 50 }, 'w', clock).dispose();
    expect(added).toBe(1000);
    expect(removed).toBe(1000);
    expect(clock.pending).toBe(0);
  });

  it('race settles with the promise, or with the reason first', async () => {
    const clock = new ManualClock();
    await expect(raceCancel(Promise.resolve(7), { timeout: 10 }, 'w', clock)).resolves.toBe(7);
    expect(clock.pending).toBe(0);
    const never = new Promise<number>(() => undefined);
    const raced = raceCancel(never, { timeout: 10 }, 'w', clock);
    clock.advance(10);
    await expect(raced).rejects.toBeInstanceOf(TimeoutError);
    await expect(raceCancel(Promise.reject(new Error('x')), { timeout: 10 }, 'w', clock)).rejects.toThrow('x');
  });

  it('sleep resolves on the clock and rejects when cancelled', async () => {
    const clock = new ManualClock();
    const order: string[] = [];
    const s = sleep(30, {}, clock).then(() => order.push('slept'));
    clock.advance(29);
    await Promise.resolve();
    expect(order).toEqual([]);
    clock.advance(1);
    await s;
    expect(order).toEqual(['slept']);
    const a = new AbortController();
    const cut = sleep(30, { signal: a.signal }, clock);
    a.abort();
    await expect(cut).rejects.toBeInstanceOf(AbortError);
    expect(clock.pending).toBe(0);
  });
});

describe('abortWith', () => {
  it('aborts the child with the parent, with its reason, until unlinked', () => {
    const parent = new AbortController();
    const child = new AbortController();
    abortWith(parent.signal, child);
    parent.abort(new Error('stopped'));
    expect(child.signal.aborted).toBe(true);
    expect((child.signal.reason as Error).message).toBe('stopped');

    const later = new AbortController();
    const other = new AbortController();
    const unlink = abortWith(later.signal, other);
    unlink();
    later.abort();
    expect(other.signal.aborted).toBe(false);
  });

  it('a parent already aborted aborts the child at once', () => {
    const parent = new AbortController();
    parent.abort('gone');
    const child = new AbortController();
    abortWith(parent.signal, child)();
    expect(child.signal.reason).toBe('gone');
  });

  it('leaves no listener on a long-lived parent once unlinked', () => {
    const parent = new AbortController();
    for (let i = 0; i < 1000; i++) abortWith(parent.signal, new AbortController())();
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
    const unlink = abortWith(parent.signal, new AbortController());
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1);
    unlink();
  });
});
