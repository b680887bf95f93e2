// Locks through a session expiry followed by the client's renewal, on the in-memory ZooKeeper: a waiting
// acquire starts over (or rejects, by option); a MultiLock whose earlier lock was lost gives everything back. The
// real server is in test/integration/locks/renewal.test.ts.
import { describe, expect, it } from 'vitest';

import { settleCleanups } from '../../../src/internal/cleanup.js';
import { MultiLock, Mutex } from '../../../src/index.js';
import { FakeZk } from '../../support/fake-zk.js';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

describe('a waiting acquire across a renewal (in-memory ZooKeeper)', () => {
  it("restarts at the back of the queue by default; rejects with onExpiry: 'reject'", async () => {
    const zk = new FakeZk();
    const hc = zk.client();
    const holder = await new Mutex(hc, '/l').acquire();
    const victim = zk.client();
    const restarting = new Mutex(victim, '/l');
    const waiting = restarting.acquire();
    const rejecting = new Mutex(victim, '/l', { onExpiry: 'reject' }).acquire().then(
      () => 'granted',
      (e: unknown) => (e as { code: string }).code,
    );
    await tick();
    const other = zk.client();
    zk.expire(victim.sessionId, { renew: true });
    const third = new Mutex(other, '/l').acquire();
    // The fake deletes the session's nodes before its client hears `expired` (as the server does), so the loss of
    // the watched node may be seen first.
    expect(await rejecting).toMatch(/^(SESSION_EXPIRED|LOCK_LOST)$/);
    await tick();
    expect(restarting.stats.restarts).toBe(1);
    const queue = await restarting.participants();
    expect(queue.map((p) => p.ephemeralOwner)).toEqual([hc.sessionId, other.sessionId, victim.sessionId]);
    await holder.release();
    await (await third).release();
    const lease = await waiting;
    expect(zk.nodes.get(lease.node)?.stat.ephemeralOwner).toBe(victim.sessionId);
    await lease.release();
    await settleCleanups(victim);
    expect(zk.children('/l')).toEqual([]);
  });
});

describe('MultiLock across a renewal (in-memory ZooKeeper)', () => {
  it('a lease taken before the expiry is lost: the acquire gives everything back and starts over', async () => {
    const zk = new FakeZk();
    const holder = await new Mutex(zk.client(), '/b').acquire();
    const c = zk.client();
    const multi = new MultiLock([new Mutex(c, '/a'), new Mutex(c, '/b')]);
    const acquiring = multi.acquire();
    await tick();
    expect(zk.children('/a')).toHaveLength(1); // /a taken, waiting for /b
    zk.expire(c.sessionId, { renew: true });
    await tick();
    await holder.release();
    const lease = await acquiring;
    expect(multi.restarts).toBe(1);
    expect(lease.lost.aborted).toBe(false);
    for (const l of lease.leases) expect(zk.nodes.get(l.node)?.stat.ephemeralOwner).toBe(c.sessionId);
    await lease.release();
    expect([...zk.children('/a'), ...zk.children('/b')]).toEqual([]);
  });
});
