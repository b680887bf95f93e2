// Leader election's waits on an injectable clock: awaitLeadership times out at the exact clock time, and its
// wait loop holds one listener on the caller's signal while it waits, none after.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';

import { ManualClock } from '@zkts/testkit';

import { LeaderElection, LeaderSelector } from '../../../src/index.js';
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
  it('LeaderElection.awaitLeadership times out on the clock', async () => {
    const zk = new FakeZk();
    const clock = new ManualClock();
    const leader = new LeaderElection(zk.client(), '/e');
    await leader.start();
    await leader.awaitLeadership();
    const follower = new LeaderElection(zk.client(), '/e', { clock });
    await follower.start();
    const waiting = track(follower.awaitLeadership({ timeout: 300 }));
    clock.advance(299);
    await tick();
    expect(waiting.state).toBe('pending');
    clock.advance(1);
    await tick();
    expect(waiting.state).toBe('TIMEOUT');
    await follower.close();
    await leader.close();
  });
});

describe('listeners', () => {
  it("awaitLeadership holds one listener on the caller's signal while it waits, none after", async () => {
    const zk = new FakeZk();
    const ac = new AbortController();
    const first = new LeaderElection(zk.client(), '/e');
    await first.start();
    await first.awaitLeadership();
    const second = new LeaderElection(zk.client(), '/e');
    await second.start();
    const waiting = second.awaitLeadership({ signal: ac.signal });
    await tick();
    expect(getEventListeners(ac.signal, 'abort')).toHaveLength(1);
    await first.close();
    await waiting;
    expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0);
    await second.close();
  });
});

describe('close() while our create is unanswered', () => {
  /** close() must not resolve before the node of the create it cut short is gone (the create lands late). */
  async function closesAfterRemoval(zk: FakeZk, c: ReturnType<FakeZk['client']>, close: () => Promise<void>): Promise<void> {
    const lag = c.lagCreate();
    const creates = (): number => c.calls.filter((call) => call === 'create').length;
    const before = creates();
    return (async () => {
      for (let i = 0; i < 100 && creates() === before; i++) await tick();
      expect(creates()).toBe(before + 1);
      const closing = track(close());
      await tick();
      expect(closing.state).toBe('pending');
      lag.fail(); // connection lost with the create in flight; the leader committed it
      for (let i = 0; i < 100 && closing.state === 'pending'; i++) await tick();
      expect(closing.state).toBe('resolved');
      expect(zk.children('/e')).toEqual([]);
    })();
  }

  it('LeaderSelector', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    await c.create('/e', '');
    const selector = new LeaderSelector(c, '/e', async () => undefined);
    const check = closesAfterRemoval(zk, c, () => selector.close());
    selector.start();
    await check;
  });

  it('LeaderElection', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    await c.create('/e', '');
    const election = new LeaderElection(c, '/e');
    const check = closesAfterRemoval(zk, c, () => election.close());
    void election.start().catch(() => undefined);
    await check;
  });
});
