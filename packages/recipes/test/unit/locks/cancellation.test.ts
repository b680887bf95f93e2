// Lock waits go through protocol's CancelScope on an injectable clock: timeouts land at exact clock times, and
// a long-lived signal shared by many waits holds no listener once they are over.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';

import { ManualClock } from '@zkts/testkit';

import { settleCleanups } from '../../../src/internal/cleanup.js';
import { MultiLock, Mutex } from '../../../src/index.js';
import { FakeZk } from '../../support/fake-zk.js';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

/** Settles into 'pending' | 'resolved' | the rejection's code, without waiting. */
function track(p: Promise<unknown>): { readonly state: string } {
  const t = { state: 'pending' };
  p.then(
    () => (t.state = 'resolved'),
    (e: unknown) => (t.state = String((e as { code?: unknown }).code)),
  );
  return t;
}

describe('timeouts on a manual clock', () => {
  it('a waiting acquire times out exactly at its deadline, and its node is removed', async () => {
    const zk = new FakeZk();
    const clock = new ManualClock();
    const held = await new Mutex(zk.client(), '/l').acquire();
    const c = zk.client();
    const waiting = track(new Mutex(c, '/l', { clock }).acquire({ timeout: 1000 }));
    await tick();
    expect(zk.children('/l')).toHaveLength(2);
    clock.advance(999);
    await tick();
    expect(waiting.state).toBe('pending');
    clock.advance(1);
    await tick();
    expect(waiting.state).toBe('TIMEOUT');
    await settleCleanups(c);
    expect(zk.children('/l')).toEqual([held.node.slice(3)]);
    expect(clock.pending).toBe(0); // the scope cleared its timer
  });

  it('timeout 0 means "now": it rejects at once when the lock is taken, without waiting for the clock', async () => {
    const zk = new FakeZk();
    const clock = new ManualClock();
    await new Mutex(zk.client(), '/l').acquire();
    await expect(new Mutex(zk.client(), '/l', { clock }).acquire({ timeout: 0 })).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('MultiLock: one deadline for all locks; the second lock gets only what the first left', async () => {
    const zk = new FakeZk();
    const clock = new ManualClock();
    const blocker = await new Mutex(zk.client(), '/b').acquire();
    const c = zk.client();
    const multi = new MultiLock([new Mutex(c, '/a'), new Mutex(c, '/b')], { clock });
    const waiting = track(multi.acquire({ timeout: 500 }));
    await tick();
    expect(zk.children('/a')).toHaveLength(1); // the first lock is taken, the second waits
    clock.advance(499);
    await tick();
    expect(waiting.state).toBe('pending');
    clock.advance(1);
    await tick();
    expect(waiting.state).toBe('TIMEOUT');
    await settleCleanups(c);
    expect(zk.children('/a')).toEqual([]); // released in reverse on failure
    expect(zk.children('/b')).toEqual([blocker.node.slice(3)]);
  });
});

describe('listeners', () => {
  it('a signal shared by many contended acquires holds no listener once they are over', async () => {
    const zk = new FakeZk();
    const ac = new AbortController();
    const mutexes = [0, 1, 2].map(() => new Mutex(zk.client(), '/l'));
    await Promise.all(
      mutexes.map(async (m) => {
        for (let i = 0; i < 20; i++) {
          const lease = await m.acquire({ signal: ac.signal, timeout: 60_000 });
          await tick();
          await lease.release();
        }
      }),
    );
    expect(mutexes.reduce((s, m) => s + m.stats.wakeups, 0)).toBeGreaterThan(10); // they really waited
    expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0);
  });
});

describe('a wait that ends while its create is in flight', () => {
  it('removes the node even when the member it lists on applies that create only after a sync', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    await c.create('/l', '');
    const lag = c.lagCreate();
    const ac = new AbortController();
    const waiting = track(new Mutex(c, '/l').acquire({ signal: ac.signal }));
    await tick();
    expect(c.calls).toContain('create');
    ac.abort();
    await tick();
    expect(waiting.state).toBe('ABORTED');
    lag.fail(); // the create's outcome: connection lost, but the leader committed it
    await settleCleanups(c);
    await c.sync();
    expect(zk.children('/l')).toEqual([]);
  });
});
