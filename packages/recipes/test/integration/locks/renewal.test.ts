// Locks through a session expiry and the client's renewal (a new session on the same client), against the real
// server: a waiting acquire starts over in the new session (or rejects, by option) while a granted lock stays
// lost; a held lock is never carried over.
import { describe, expect, it } from 'vitest';

import { ExclusiveLock, Mutex, Semaphore } from '@zkts/recipes';

import { settleCleanups } from '../../../src/internal/cleanup.js';
import { expireSession, victimClient } from '../../support/expiry.js';
import { childrenOf, until, uniqueRoot } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients, proxies } = perTestResources();

describe('renewal: leases', () => {
  it('a waiting acquire starts over in the new session, at the back of the queue (default onExpiry: restart)', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const direct = await clients.connect();
    const victim = await victimClient(clients, proxies);
    const held = await new Mutex(direct, dir).acquire();
    const mutex = new Mutex(victim.client, dir);
    const waiting = mutex.acquire({ timeout: 20_000 });
    await until(async () => (await childrenOf(direct, dir)).length === 2, 5000, 'enqueued');
    // A second waiter queues behind the victim's node before the expiry: the restart's new node must go behind it.
    // (Queued after the expiry instead, it would race the restart's create, which the client sends as soon as
    // the renewed session is up: the two creates reached the server one zxid apart.)
    const second = new Mutex(direct, dir).acquire({ timeout: 20_000 });
    await until(async () => (await childrenOf(direct, dir)).length === 3, 5000, 'second enqueued');
    const before = await mutex.participants();
    const [heldNode, victimNode, secondNode] = before.map((p) => p.node);
    expect(heldNode).toBe(held.node);
    expect(before[1]!.ephemeralOwner).toBe(victim.client.sessionId);
    await expireSession(victim, { renewed: true });
    const renewedSession = victim.client.sessionId;
    await until(async () => (await mutex.participants()).some((p) => p.ephemeralOwner === renewedSession), 5000, 'restarted');
    const participants = await mutex.participants();
    const restarted = participants.find((p) => p.ephemeralOwner === renewedSession)!.node;
    // The old node went with its session; the new one is last, behind the waiter that was behind it.
    expect(participants.map((p) => p.node)).toEqual([heldNode, secondNode, restarted]);
    expect(restarted).not.toBe(victimNode);
    expect(mutex.stats.restarts).toBe(1);
    await held.release();
    const l2 = await second;
    expect(l2.node).toBe(secondNode);
    await l2.release();
    const lease = await waiting;
    expect(lease.node).toBe(restarted);
    expect(lease.fencingToken > l2.fencingToken).toBe(true);
    await lease.release();
    expect(await childrenOf(direct, dir)).toEqual([]);
  });

  it('a held lease is lost for good at expiry; the same instance acquires again in the new session', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const victim = await victimClient(clients, proxies);
    const mutex = new Mutex(victim.client, dir);
    const lease = await mutex.acquire();
    const lost = lease.lost;
    await expireSession(victim, { renewed: true });
    expect(lost.aborted).toBe(true);
    expect(mutex.isHeld).toBe(false);
    const again = await mutex.acquire({ timeout: 5000 });
    expect(again.node).not.toBe(lease.node);
    expect(again.lost.aborted).toBe(false);
    expect(again.fencingToken > lease.fencingToken).toBe(true);
    await lease.release(); // a stale handle's release does not touch the new hold
    expect(mutex.isHeld).toBe(true);
    await again.release();
    await settleCleanups(victim.client);
  });

  it('semaphore and exclusive lock: a waiting acquire restarts, or rejects with onExpiry: reject', async () => {
    const root = uniqueRoot();
    const direct = await clients.connect();
    const victim = await victimClient(clients, proxies);
    const semHeld = await new Semaphore(direct, `${root}/sem`, 1).acquire();
    const exHeld = await new ExclusiveLock(direct, `${root}/ex`).acquire();
    const semWait = new Semaphore(victim.client, `${root}/sem`, 1).acquire(1, { timeout: 20_000 });
    const exWait = new ExclusiveLock(victim.client, `${root}/ex`).acquire({ timeout: 20_000 });
    const rejecting = new ExclusiveLock(victim.client, `${root}/ex`, { onExpiry: 'reject' }).acquire({ timeout: 20_000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    await until(async () => (await childrenOf(direct, `${root}/sem/leases`)).length === 2, 5000, 'semaphore lease waiting');
    await expireSession(victim, { renewed: true });
    expect(await rejecting).toMatchObject({ code: 'SESSION_EXPIRED' });
    // Both restarted in the new session: the semaphore's lease node and the exclusive lock's wait are back.
    await until(async () => {
      const leases = await childrenOf(direct, `${root}/sem/leases`);
      const owners = await Promise.all(leases.map(async (l) => (await direct.exists(`${root}/sem/leases/${l}`))?.ephemeralOwner));
      return owners.includes(victim.client.sessionId);
    }, 5000, 'semaphore restarted');
    await semHeld.release();
    const sem = await semWait;
    expect(sem.lost.aborted).toBe(false);
    await exHeld.release();
    const ex = await exWait;
    expect((await direct.exists(ex.node))!.ephemeralOwner).toBe(victim.client.sessionId);
    await sem.release();
    await ex.release();
  });

  it("semaphore with kazoo's layout: an acquire waiting for room under the gate restarts in the new session", async () => {
    const sem = `${uniqueRoot()}/sem`;
    const direct = await clients.connect();
    const victim = await victimClient(clients, proxies);
    const held = await new Semaphore(direct, sem, 1, { layout: 'kazoo' }).acquire();
    const waiting = new Semaphore(victim.client, sem, 1, { layout: 'kazoo' }).acquire(1, { timeout: 20_000 });
    // kazoo's layout: the waiter holds the gate lock (`<path>-__lock__`) while it waits for room.
    const gateOwner = async (): Promise<bigint | undefined> => {
      const [node] = await childrenOf(direct, `${sem}-__lock__`);
      return node === undefined ? undefined : (await direct.exists(`${sem}-__lock__/${node}`))?.ephemeralOwner;
    };
    await until(async () => (await gateOwner()) === victim.client.sessionId, 5000, 'waiter holds the gate');
    await expireSession(victim, { renewed: true });
    await until(async () => (await gateOwner()) === victim.client.sessionId, 5000, 'waiter holds the gate again in the new session');
    await held.release();
    const lease = await waiting;
    expect(lease.lost.aborted).toBe(false);
    expect((await direct.exists(lease.nodes[0]!))!.ephemeralOwner).toBe(victim.client.sessionId);
    await lease.release();
    expect(await childrenOf(direct, sem)).toEqual([]);
  });
});
