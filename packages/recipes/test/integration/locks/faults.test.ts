// Lock faults: a holder process killed, session expiry while holding and while waiting, a lost create reply,
// release during a disconnect, suspension policy.
import { afterEach, describe, expect, it } from 'vitest';

import { Mutex } from '@zkts/recipes';
import type { FaultProxy } from '@zkts/testkit';

import { settleCleanups } from '../../../src/internal/cleanup.js';
import { expireSession, Proxies, victimClient as victim, type Victim } from '../../support/expiry.js';
import { killAll, zktsProcess } from '../../support/foreign.js';
import { Clients, childrenOf, sharedServer, sleep, until, uniqueRoot } from '../../support/helpers.js';

const clients = new Clients();
const proxies = new Proxies();
afterEach(async () => {
  killAll();
  await clients.closeAll();
  await proxies.closeAll();
});

const proxy = (): Promise<FaultProxy> => proxies.start();
const victimClient = (): Promise<Victim> => victim(clients, proxies);

describe('lock faults', () => {
  it('holder process SIGKILLed → the next waiter holds within the session timeout', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const child = zktsProcess('hold-lock.ts', sharedServer(), dir, '2000');
    const held = (await child.line(/HELD (\S+)/))[1]!;
    const c = await clients.connect();
    const waiter = new Mutex(c, dir).acquire({ timeout: 20_000 });
    await until(async () => (await childrenOf(c, dir)).length === 2, 5000, 'waiter enqueued');
    const killedAt = Date.now();
    child.proc.kill('SIGKILL');
    const lease = await waiter;
    const took = Date.now() - killedAt;
    expect(lease.node).not.toBe(held);
    // Negotiated timeout 2 s (tickTime 500 ⇒ sessions are checked every tick): expiry + deletion lag.
    expect(took).toBeLessThan(2000 + 2500);
    await lease.release();
  });

  it('session expired while holding → lost fires; a new holder gets a greater fencing token; release does not wedge', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const victim = await victimClient();
    const c1 = victim.client;
    const c2 = await clients.connect();
    const lease = await new Mutex(c1, dir).acquire();
    const lost = lease.lost;
    const next = new Mutex(c2, dir).acquire({ timeout: 10_000 });
    await expireSession(victim);
    await until(() => lost.aborted, 2000, 'lost');
    expect((lost.reason as Error).name).toBe('LockLostError');
    const l2 = await next;
    expect(l2.fencingToken > lease.fencingToken).toBe(true);
    await lease.release();
    await l2.release();
  });

  it("session expired while waiting, onExpiry: 'reject' → acquire fails cleanly, leaving no node", async () => {
    const dir = `${uniqueRoot()}/lock`;
    const c1 = await clients.connect();
    const victim = await victimClient();
    const held = await new Mutex(c1, dir).acquire();
    // Settled into a value right away: the rejection lands while we are still expiring the session.
    const waiting = new Mutex(victim.client, dir, { onExpiry: 'reject' }).acquire({ timeout: 10_000 }).then(() => undefined, (e: unknown) => e);
    await until(async () => (await childrenOf(c1, dir)).length === 2, 5000, 'enqueued');
    await expireSession(victim);
    expect(await waiting).toMatchObject({ code: expect.stringMatching(/SESSION_EXPIRED|LOCK_LOST/) as unknown as string });
    await until(async () => (await childrenOf(c1, dir)).length === 1, 5000, 'ephemeral gone');
    await held.release();
  });

  it('lost create reply → exactly one node, adopted', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const p = await proxy();
    const direct = await clients.connect();
    await direct.mkdirp(dir);
    const c = await clients.connect(p.connectString);
    p.dropNextReply();
    const lease = await new Mutex(c, dir).acquire({ timeout: 10_000 });
    const kids = await childrenOf(direct, dir);
    expect(kids).toEqual([lease.node.slice(dir.length + 1)]);
    expect((await direct.exists(lease.node))!.ephemeralOwner).toBe(c.sessionId);
    await lease.release();
    expect(await childrenOf(direct, dir)).toEqual([]);
  });

  it('lost create reply while the caller gives up → the node is removed, not orphaned', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const p = await proxy();
    const direct = await clients.connect();
    const blocker = await new Mutex(direct, dir).acquire();
    const c = await clients.connect(p.connectString);
    p.dropNextReply();
    const ac = new AbortController();
    const attempt = new Mutex(c, dir).acquire({ signal: ac.signal });
    await until(async () => (await childrenOf(direct, dir)).length === 2, 5000, 'create applied');
    ac.abort();
    await expect(attempt).rejects.toMatchObject({ code: 'ABORTED' });
    await settleCleanups(c);
    await until(async () => (await childrenOf(direct, dir)).length === 1, 5000, 'orphan removed');
    await blocker.release();
  });

  it('release during a disconnect completes after the reconnect; the next waiter then holds', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const p = await proxy();
    const direct = await clients.connect();
    const c = await clients.connect(p.connectString, { sessionTimeout: 6000 });
    const lease = await new Mutex(c, dir).acquire();
    const next = new Mutex(direct, dir).acquire({ timeout: 15_000 });
    await until(async () => (await childrenOf(direct, dir)).length === 2, 5000, 'waiter enqueued');
    // Cut off: the connection drops and reconnect attempts hang in the blackhole, well within the session timeout.
    p.blackhole();
    p.cut();
    await until(() => c.state === 'suspended', 6000, 'suspended');
    const released = lease.release();
    await sleep(300);
    expect(await childrenOf(direct, dir)).toHaveLength(2); // not yet: we are cut off
    p.cut();
    p.restore();
    await released;
    expect(c.state).toBe('connected');
    const l2 = await next;
    expect(await childrenOf(direct, dir)).toEqual([l2.node.slice(dir.length + 1)]);
    await l2.release();
  });

  it("lostOn: 'suspended' fires on suspension; the default waits for expiry", async () => {
    const dir = `${uniqueRoot()}/lock`;
    const p = await proxy();
    const c = await clients.connect(p.connectString, { sessionTimeout: 6000 });
    const strict = await new Mutex(c, `${dir}/a`, { lostOn: 'suspended' }).acquire();
    const relaxed = await new Mutex(c, `${dir}/b`).acquire();
    const strictLost = strict.lost;
    const relaxedLost = relaxed.lost;
    p.blackhole();
    p.cut();
    await until(() => strictLost.aborted, 6000, 'strict lost');
    expect(relaxedLost.aborted).toBe(false);
    p.cut();
    p.restore();
    await c.connected();
    expect(relaxedLost.aborted).toBe(false);
    await relaxed.release();
    await strict.release();
  });
});
