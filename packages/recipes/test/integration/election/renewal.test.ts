// LeaderElection through a session expiry and the client's renewal (a new session on the same client), against
// the real server: the election re-joins with a new node and someone leads again.
import { describe, expect, it } from 'vitest';

import { LeaderElection } from '@zkts/recipes';

import { expireSession, victimClient } from '../../support/expiry.js';
import { childrenOf, until, uniqueRoot } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients, proxies } = perTestResources();

describe('renewal: leader election', () => {
  it('the leader expires: its signal fires, the other leads, it re-joins with a new node and leads again later', async () => {
    const dir = `${uniqueRoot()}/election`;
    const victim = await victimClient(clients, proxies);
    const other = await clients.connect();
    const a = new LeaderElection(victim.client, dir, { id: 'a' });
    const b = new LeaderElection(other, dir, { id: 'b' });
    await a.start();
    await b.start();
    const aSignal = await a.awaitLeadership({ timeout: 5000 });
    const aTerm = a.leadership!;
    const oldNode = a.node!;
    const oldSession = victim.client.sessionId;

    await expireSession(victim, { renewed: true });
    expect(aSignal.aborted).toBe(true);
    expect((aSignal.reason as Error).name).toBe('LockLostError');
    const bSignal = await b.awaitLeadership({ timeout: 8000 });
    expect(b.leadership!.fencingToken > aTerm.fencingToken).toBe(true);

    // a is back in the election by itself: a new node, owned by its new session, behind b.
    await until(() => a.node !== undefined && a.node !== oldNode, 5000, 'a re-joined');
    expect(a.stats.renewals).toBe(1);
    expect(a.isLeader).toBe(false);
    const owner = (await other.exists(a.node!))!.ephemeralOwner;
    expect(owner).toBe(victim.client.sessionId);
    expect(owner).not.toBe(oldSession);
    expect((await a.participants()).map((p) => p.id)).toEqual(['b', 'a']);

    // Someone leads again after b leaves: a, in its new session, with a larger token than b's.
    await b.close();
    expect(bSignal.aborted).toBe(true);
    await a.awaitLeadership({ timeout: 5000 });
    expect(a.leadership!.node).toBe(a.node);
    expect(a.leadership!.fencingToken > aTerm.fencingToken).toBe(true);
    await a.close();
    expect(await childrenOf(other, dir)).toEqual([]);
  });

  it("a waiting participant expires: it re-joins at the back; with lostOn: 'suspended' the leader never overlaps", async () => {
    const dir = `${uniqueRoot()}/election`;
    const victim = await victimClient(clients, proxies);
    const [c1, c2] = await clients.many(2);
    const leader = new LeaderElection(c1!, dir, { id: 'leader', lostOn: 'suspended' });
    const waiter = new LeaderElection(victim.client, dir, { id: 'waiter', lostOn: 'suspended' });
    const third = new LeaderElection(c2!, dir, { id: 'third', lostOn: 'suspended' });
    for (const e of [leader, waiter, third]) await e.start();
    await leader.awaitLeadership({ timeout: 5000 });
    await expireSession(victim, { renewed: true });
    await until(async () => (await leader.participants()).map((p) => p.id).join() === 'leader,third,waiter', 5000, 'waiter re-queued');
    await leader.close();
    await third.awaitLeadership({ timeout: 5000 });
    expect(waiter.isLeader).toBe(false);
    await third.close();
    await waiter.awaitLeadership({ timeout: 5000 });
    await waiter.close();
  });
});
