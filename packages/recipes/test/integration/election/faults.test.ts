// Leader election faults: expiry and close move leadership, the suspension policy, and no livelock when
// participants come and go.
import { type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';

import { LeaderElection } from '@zkts/recipes';
import type { FaultProxy } from '@zkts/testkit';

import { expireSession, Proxies, victimClient as victim, type Victim } from '../../support/expiry.js';
import { Clients, childrenOf, until, uniqueRoot } from '../../support/helpers.js';

const clients = new Clients();
const proxies = new Proxies();
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  await clients.closeAll();
  await proxies.closeAll();
});

const proxy = (): Promise<FaultProxy> => proxies.start();
const victimClient = (): Promise<Victim> => victim(clients, proxies);

describe('leader election faults', () => {
  it('leader election: at most one leader, ephemeralOwner is its session, leadership moves on close and on expiry', async () => {
    const dir = `${uniqueRoot()}/election`;
    const victim = await victimClient();
    const cs = [await clients.connect(), victim.client, await clients.connect()];
    const es = cs.map((c, i) => new LeaderElection(c, dir, { id: `node-${i}` }));
    let maxLeaders = 0;
    for (const e of es) e.onChange(() => (maxLeaders = Math.max(maxLeaders, es.filter((x) => x.isLeader).length)));
    for (const e of es) await e.start();
    const first = await es[0]!.awaitLeadership({ timeout: 5000 });
    expect(es.map((e) => e.isLeader)).toEqual([true, false, false]);
    const ps = await es[1]!.participants();
    expect(ps.map((p) => p.id)).toEqual(['node-0', 'node-1', 'node-2']);
    expect((await cs[0]!.exists(ps[0]!.node))!.ephemeralOwner).toBe(cs[0]!.sessionId);
    await es[0]!.close();
    expect(first.aborted).toBe(true);
    await es[1]!.awaitLeadership({ timeout: 5000 });
    // A handoff by close() is strict: the old leader steps down before its node goes.
    expect(maxLeaders).toBe(1);
    // Expiry of the leader's session, killed from the server side: the others take over as soon as its node is
    // gone, and the old leader steps down as soon as its client learns of the expiry (before that, only a
    // fencing token can tell it apart: the zombie window every ZooKeeper lock has).
    await expireSession(victim);
    expect(es[1]!.isLeader).toBe(false);
    await es[2]!.awaitLeadership({ timeout: 8000 });
    expect(es.filter((e) => e.isLeader)).toEqual([es[2]]);
    const changes: boolean[] = [];
    const it2 = es[2]!.changes();
    const collecting = (async () => {
      for await (const v of it2) changes.push(v);
    })();
    await es[2]!.close();
    await collecting;
    expect(changes).toEqual([false]);
    await es[1]!.close();
  });

  it("leader election with lostOn: 'suspended' steps down while cut off and leads again after the reconnect", async () => {
    const dir = `${uniqueRoot()}/election`;
    const p = await proxy();
    const c = await clients.connect(p.connectString, { sessionTimeout: 6000 });
    const e = new LeaderElection(c, dir, { lostOn: 'suspended' });
    await e.start();
    const leadership = await e.awaitLeadership({ timeout: 5000 });
    const seen: boolean[] = [];
    e.onChange((v) => seen.push(v));
    p.blackhole();
    p.cut();
    await until(() => leadership.aborted, 6000, 'stepped down');
    expect(e.isLeader).toBe(false);
    p.cut();
    p.restore();
    await e.awaitLeadership({ timeout: 6000 });
    expect(seen).toEqual([false, true]);
    await e.close();
  });

  it('leader election: participants starting and closing in a loop never livelock (CURATOR-645)', async () => {
    const dir = `${uniqueRoot()}/election`;
    const cs = await clients.many(2);
    const stable = new LeaderElection(cs[0]!, dir, { id: 'stable' });
    await stable.start();
    await stable.awaitLeadership({ timeout: 5000 });
    for (let i = 0; i < 15; i++) {
      const churn = new LeaderElection(cs[1]!, dir, { id: `churn-${i}` });
      await churn.start();
      expect(churn.isLeader).toBe(false);
      await churn.close();
    }
    expect(stable.isLeader).toBe(true);
    const next = new LeaderElection(cs[1]!, dir, { id: 'next' });
    await next.start();
    await stable.close();
    await next.awaitLeadership({ timeout: 5000 });
    expect((await next.participants()).map((p) => p.id)).toEqual(['next']);
    await next.close();
    expect(await childrenOf(cs[1]!, dir)).toEqual([]);
  });
});
