// LeaderElection through a session expiry followed by the client's renewal, on the in-memory ZooKeeper
// (FakeZk.expire(session, { renew: true }) plays the real client's expired → connecting → connected with a new
// id). The real server is in test/integration/election/renewal.test.ts.
import { describe, expect, it } from 'vitest';

import { ManualClock } from '@zkts/testkit';

import { Candidacy, type Leadership } from '../../../src/election/candidacy.js';
import { LeaderElection } from '../../../src/index.js';
import { FakeZk } from '../../support/fake-zk.js';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

describe('LeaderElection across a renewal (in-memory ZooKeeper)', () => {
  it('the leader steps down at expiry and re-joins by itself at the back, in its new session', async () => {
    const zk = new FakeZk();
    const [c1, c2] = [zk.client(), zk.client()];
    const a = new LeaderElection(c1, '/e', { id: 'a' });
    const b = new LeaderElection(c2, '/e', { id: 'b' });
    await a.start();
    await b.start();
    const signal = await a.awaitLeadership();
    const seen: boolean[] = [];
    a.onChange((v) => seen.push(v));
    const first = a.leadership!;
    zk.expire(c1.sessionId, { renew: true });
    expect(signal.aborted).toBe(true); // at the expired state change, before anything else
    await b.awaitLeadership();
    await tick();
    expect(a.node).not.toBe(first.node);
    expect(zk.nodes.get(a.node!)?.stat.ephemeralOwner).toBe(c1.sessionId);
    expect((await a.participants()).map((p) => p.id)).toEqual(['b', 'a']);
    expect(a.stats).toMatchObject({ joins: 2, renewals: 1, terms: 1 });
    await b.close();
    await a.awaitLeadership();
    expect(a.leadership!.fencingToken > first.fencingToken).toBe(true);
    expect(seen).toEqual([false, true]);
    await a.close();
    expect(zk.children('/e')).toEqual([]);
  });

  it('reconnects do not pile up watches: the leader and a waiter keep one armed watch each', async () => {
    const zk = new FakeZk();
    const [c1, c2] = [zk.client(), zk.client()];
    const a = new LeaderElection(c1, '/e');
    const b = new LeaderElection(c2, '/e');
    await a.start();
    await b.start();
    await a.awaitLeadership();
    for (let i = 0; i < 5; i++) {
      for (const c of [c1, c2]) {
        c.setState('suspended');
        c.setState('connected');
      }
      await tick();
    }
    expect(a.isLeader).toBe(true);
    expect(zk.watchCount('data', a.node!)).toBe(2); // a's own watch as leader, b's on its predecessor
    await a.close();
    await b.awaitLeadership();
    await b.close();
  });

  it('a client whose expiry is final ends the election: no re-join', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const e = new LeaderElection(c, '/e');
    await e.start();
    await e.awaitLeadership();
    zk.expire(c.sessionId); // no renewal: the fake stays 'expired'
    await tick();
    expect(e.isLeader).toBe(false);
    expect(zk.children('/e')).toEqual([]);
    await expect(e.awaitLeadership({ timeout: 0 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    await e.close();
  });

  it('requeue() (the selector style): the leader goes to the back, the next leads, fencing tokens grow', async () => {
    const zk = new FakeZk();
    const clock = new ManualClock();
    const terms: (Leadership | undefined)[][] = [[], []];
    const cs = [0, 1].map(
      (i) => new Candidacy({ client: zk.client(), path: '/e', id: `p${i}`, lostOn: 'expired', clock, owner: {}, recipe: 'LeaderElection', onChange: (l) => terms[i]!.push(l) }),
    );
    for (const c of cs) await c.start();
    await tick();
    const t0 = cs[0]!.leadership!;
    cs[0]!.requeue();
    expect(t0.signal.aborted).toBe(true);
    await tick();
    const t1 = cs[1]!.leadership!;
    expect(t1.fencingToken > t0.fencingToken).toBe(true);
    expect(cs[0]!.node).not.toBe(t0.node);
    cs[1]!.requeue();
    await tick();
    expect(cs[0]!.leadership!.fencingToken > t1.fencingToken).toBe(true);
    expect(terms.map((t) => t.map((l) => (l === undefined ? 'end' : 'lead')))).toEqual([['lead', 'end', 'lead'], ['lead', 'end']]);
    for (const c of cs) await c.close();
    expect(zk.children('/e')).toEqual([]);
  });
});
