// LeaderElection on the in-memory ZooKeeper.
import { describe, expect, it } from 'vitest';

import { LeaderElection } from '../../../src/index.js';
import { FakeZk } from '../../support/fake-zk.js';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

describe('LeaderElection (in-memory ZooKeeper)', () => {
  it('a first node not owned by our current session does not make us leader (CURATOR-696)', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const e = new LeaderElection(c, '/e', { id: 'me' });
    await e.start();
    const stale = e.node!;
    // Before the loop's ownership check runs, the node turns out to belong to another (older) session.
    zk.nodes.get(stale)!.stat.ephemeralOwner = 999n;
    await tick();
    expect(e.isLeader).toBe(false);
    expect(e.node).not.toBe(stale); // it re-entered with a node of its own session
    zk.delete(stale);
    await e.awaitLeadership({ timeout: 1000 });
    expect(zk.nodes.get(e.node!)?.stat.ephemeralOwner).toBe(c.sessionId);
    await e.close();
    expect(zk.children('/e')).toEqual([]);
  });
});
