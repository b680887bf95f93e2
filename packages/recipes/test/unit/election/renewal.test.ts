// The recipes' behaviour through a session expiry followed by the client's renewal, on the in-memory ZooKeeper
// (FakeZk.expire(session, { renew: true }) plays the real client's expired → connecting → connected with a new
// id). Time is a ManualClock wherever a recipe keeps time. The real server is in test/integration/renewal.test.ts.
import { describe, expect, it } from 'vitest';

import { ManualClock } from '@zkts/testkit';

import { Candidacy, type Leadership } from '../../../src/election/candidacy.js';
import { settleCleanups } from '../../../src/internal/cleanup.js';
import { LeaderElection, MultiLock, Mutex, PersistentNode, PersistentTtlNode } from '../../../src/index.js';
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
      (i) => new Candidacy({ client: zk.client(), path: '/e', id: `p${i}`, lostOn: 'expired', clock, owner: {}, onChange: (l) => terms[i]!.push(l) }),
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

describe('PersistentNode (in-memory ZooKeeper)', () => {
  it('protected ephemeral-sequential: made again after a delete and after a renewal, each time with a new path', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const node = new PersistentNode(c, '/svc/member-', { mode: 'ephemeral-sequential', data: 'me' });
    const paths: (string | undefined)[] = [];
    node.onChange((p) => paths.push(p));
    node.start();
    const p1 = await node.awaitCreated();
    expect(p1).toMatch(/^\/svc\/_c_[0-9a-f-]{36}-member-0000000000$/);
    zk.delete(p1);
    const p2 = await until(node, (p) => p !== p1);
    zk.expire(c.sessionId, { renew: true });
    expect(node.currentPath).toBeUndefined(); // at the expiry, not later
    const p3 = await until(node, (p) => p !== p2);
    expect(zk.nodes.get(p3)?.stat.ephemeralOwner).toBe(c.sessionId);
    expect(new TextDecoder().decode(zk.nodes.get(p3)!.data)).toBe('me');
    expect(paths).toEqual([p1, undefined, p2, undefined, p3]);
    expect(node.stats).toEqual({ creates: 3, losses: 2 });
    await node.close();
    expect(zk.children('/svc')).toEqual([]);
  });

  it("fixed-path ephemeral: another session's node is waited out, not adopted", async () => {
    const zk = new FakeZk();
    const squatter = zk.client();
    await squatter.create('/svc', null);
    await squatter.create('/svc/name', 'theirs', { mode: 'ephemeral' });
    const c = zk.client();
    const node = new PersistentNode(c, '/svc/name', { data: 'ours' });
    node.start();
    await tick();
    expect(node.currentPath).toBeUndefined();
    zk.expire(squatter.sessionId);
    expect(await node.awaitCreated()).toBe('/svc/name');
    expect(zk.nodes.get('/svc/name')?.stat.ephemeralOwner).toBe(c.sessionId);
    await node.close();
    expect(zk.children('/svc')).toEqual([]);
  });

  it('close() during a create resolves only once the node that create makes is removed', async () => {
    const zk = new FakeZk();
    await zk.client().create('/svc', null);
    const c = zk.client();
    let land!: () => void;
    const landed = new Promise<void>((resolve) => (land = resolve));
    const create = c.create.bind(c);
    c.create = async (...args: Parameters<typeof c.create>) => {
      await landed; // the reply is slow: close() comes first
      return create(...args);
    };
    const node = new PersistentNode(c, '/svc/name', { data: 'x' });
    node.start();
    await tick();
    let closed = false;
    const closing = node.close().then(() => (closed = true));
    await tick();
    expect(closed).toBe(false);
    land();
    await closing;
    expect(zk.nodes.has('/svc/name')).toBe(false);
  });

  it('a persistent node outlives the renewal and is kept; close deletes it', async () => {
    const zk = new FakeZk();
    const c = zk.client();
    const node = new PersistentNode(c, '/cfg', { mode: 'persistent', data: 'v1' });
    node.start();
    const p = await node.awaitCreated();
    zk.expire(c.sessionId, { renew: true });
    await tick();
    expect(node.currentPath).toBe(p);
    await node.setData('v2');
    expect(new TextDecoder().decode(zk.nodes.get(p)!.data)).toBe('v2');
    await node.close();
    expect(zk.nodes.has(p)).toBe(false);
  });
});

describe('PersistentTtlNode (in-memory ZooKeeper, manual clock)', () => {
  it('touches its TTL child at once and every ttl/2, re-creating it when deleted; close removes both', async () => {
    const zk = new FakeZk();
    const clock = new ManualClock();
    const c = zk.client();
    const node = new PersistentTtlNode(c, '/reg/me', 10_000, { clock, data: 'x' });
    node.start();
    await node.awaitCreated();
    await tick();
    expect(zk.nodes.get('/reg/me')?.stat.ephemeralOwner).toBe(0n);
    expect(zk.ttls.get('/reg/me/touch')).toBe(10_000);
    expect(node.touches).toBe(1);
    const calls = c.calls.length;
    clock.advance(4_999);
    await tick();
    expect(c.calls.length).toBe(calls);
    clock.advance(1);
    await tick();
    expect(node.touches).toBe(2);
    expect(c.calls.slice(calls)).toEqual(['setData']);
    zk.delete('/reg/me/touch');
    clock.advance(5_000);
    await tick();
    expect(node.touches).toBe(3);
    expect(zk.nodes.has('/reg/me/touch')).toBe(true);
    await node.close();
    expect(zk.nodes.has('/reg/me')).toBe(false);
  });
});

/** Waits (on the fake, so only a few ticks) for the node's path to satisfy `ok`. */
async function until(node: PersistentNode, ok: (p: string) => boolean): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const p = node.currentPath;
    if (p !== undefined && ok(p)) return p;
    await tick();
  }
  throw new Error('no such path');
}
