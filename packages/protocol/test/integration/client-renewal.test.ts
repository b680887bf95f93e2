// Session renewal against a real server: the session is expired deterministically (the client is cut off
// behind a fault proxy while another connection takes its session over and closes it), then the same client
// opens a new one. Nothing of the old session may leak into the new one.
import { describe, expect, it } from 'vitest';
import { ConnectionLossError, SessionExpiredError, type ClientOptions, type StateChange, type WatchEvent, type ZkClient } from '@zkts/protocol';
import { expireBehindProxy, proxiedRoot, until } from '../support/integration.js';

describe('session renewal', () => {
  const fixture = proxiedRoot('renew');
  const { root } = fixture;
  const expire = (zk: ZkClient, whileCut?: () => Promise<void>): Promise<void> => expireBehindProxy(zk, fixture.proxy, whileCut);

  it('a new session with a new id and generation; old requests reject and are never applied; persistent watches resync', async () => {
    const zk = await fixture.viaProxy({ sessionTimeout: 4000 });
    const firstId = zk.sessionId;
    await zk.create(`${root}/eph`, 'x', { mode: 'ephemeral' });
    const changes: StateChange[] = [];
    zk.onStateChange((c) => changes.push(c));
    const iterator = (await zk.addWatch(root, 'persistent-recursive'))[Symbol.asyncIterator]();
    const oneShot = (await zk.exists(`${root}/never`, { watch: true })).watch;

    let inFlightRead: Promise<unknown> | undefined;
    let pendingRead: Promise<unknown> | undefined;
    let queuedWrite: Promise<unknown> | undefined;
    await expire(zk, async () => {
      // Sent into the blackhole (in flight when the connection goes), then two queued while suspended.
      inFlightRead = zk.getData(root).catch((e: unknown) => e);
      await until(() => zk.state === 'suspended', 10_000, 'suspension');
      pendingRead = zk.getData(root).catch((e: unknown) => e);
      queuedWrite = zk.create(`${root}/written-in-old-session`).catch((e: unknown) => e);
    });
    await until(() => zk.state === 'connected' && zk.sessionId !== firstId, 15_000, 'a new session');

    expect(changes.map((c) => `${c.state}:${c.generation}`)).toEqual(['suspended:1', 'expired:1', 'connecting:2', 'connected:2']);
    expect(changes[1]?.sessionId).toBe(firstId);
    expect(changes[1]?.error).toBeInstanceOf(SessionExpiredError);
    expect(changes[3]?.sessionId).toBe(zk.sessionId);
    // In flight when the connection went: its outcome is unknown. Queued: the session they were made in is gone.
    const lost = await inFlightRead;
    expect(lost).toBeInstanceOf(ConnectionLossError);
    expect((lost as ConnectionLossError).outcomeUnknown).toBe(true);
    expect(await pendingRead).toBeInstanceOf(SessionExpiredError);
    expect(await queuedWrite).toBeInstanceOf(SessionExpiredError);
    await expect(oneShot).rejects.toBeInstanceOf(SessionExpiredError);
    // The queued write was never sent in the new session; the old ephemeral went with the old session.
    expect(await fixture.direct.exists(`${root}/written-in-old-session`)).toBeNull();
    expect(await fixture.direct.exists(`${root}/eph`)).toBeNull();

    // The persistent watch hears resync first, then changes made in the new session.
    const first = (await iterator.next()).value as WatchEvent;
    expect(first).toMatchObject({ type: 'resync', path: root });
    await fixture.direct.create(`${root}/after`, 'y');
    let next = (await iterator.next()).value as WatchEvent;
    // An event of the old session's deletion of /eph may precede it, depending on what the server replays.
    while (next.path !== `${root}/after`) next = (await iterator.next()).value as WatchEvent;
    expect(next).toMatchObject({ type: 'created', path: `${root}/after` });
    // The renewed session works.
    await zk.create(`${root}/eph2`, 'z', { mode: 'ephemeral' });
    expect((await fixture.direct.exists(`${root}/eph2`))?.ephemeralOwner).toBe(zk.sessionId);
  });

  it('states() goes on across the renewal; renewSession: false keeps expiry final', async () => {
    const zk = await fixture.viaProxy({ sessionTimeout: 4000 });
    const seen: string[] = [];
    const controller = new AbortController();
    const done = (async () => {
      for await (const change of zk.states({ signal: controller.signal })) {
        seen.push(change.state);
        if (change.state === 'connected' && change.generation === 2) controller.abort();
      }
    })();
    await expire(zk);
    await done;
    expect(seen).toEqual(['suspended', 'expired', 'connecting', 'connected']);

    const final = await fixture.viaProxy({ sessionTimeout: 4000, renewSession: false });
    await expire(final);
    await until(() => final.state === 'expired', 15_000, 'expiry');
    await expect(final.getData(root)).rejects.toBeInstanceOf(SessionExpiredError);
    await new Promise((r) => setTimeout(r, 300));
    expect(final.state).toBe('expired');
  });
});

describe('writes made safe to repeat', () => {
  const fixture = proxiedRoot('idem');
  const { root } = fixture;
  const viaProxy = (options: ClientOptions = {}): Promise<ZkClient> => fixture.viaProxy({ sessionTimeout: 3000, ...options });

  it('a guaranteed delete issued while disconnected completes after the reconnect; a lost reply counts as done', async () => {
    const zk = await viaProxy({ whileSuspended: 'fail' });
    await fixture.direct.create(`${root}/a`);
    await fixture.direct.create(`${root}/b`);
    fixture.proxy.blackhole();
    await until(() => zk.state === 'suspended', 10_000, 'suspension');
    await expect(zk.delete(`${root}/a`)).rejects.toBeInstanceOf(ConnectionLossError);
    const deleting = zk.delete(`${root}/a`, { guaranteed: true });
    await new Promise((r) => setTimeout(r, 200));
    fixture.proxy.restore();
    await deleting;
    expect(await fixture.direct.exists(`${root}/a`)).toBeNull();
    // Applied, reply lost, connection cut: the retry finds NO_NODE and that is success.
    await until(() => zk.state === 'connected', 10_000, 'reconnect');
    fixture.proxy.dropNextReply();
    await zk.delete(`${root}/b`, { guaranteed: true });
    expect(await fixture.direct.exists(`${root}/b`)).toBeNull();
    // A node that was never there is still an error on the first try.
    await expect(zk.delete(`${root}/never`, { guaranteed: true })).rejects.toMatchObject({ code: 'NO_NODE' });
  });

  it('across an expiry a guaranteed delete of an ephemeral resolves: the node went with its session', async () => {
    const zk = await viaProxy({ whileSuspended: 'fail' });
    await zk.create(`${root}/eph`, null, { mode: 'ephemeral' });
    const firstId = zk.sessionId;
    let deleting: Promise<unknown> | undefined;
    await expireBehindProxy(zk, fixture.proxy, async () => {
      await until(() => zk.state === 'suspended', 10_000, 'suspension');
      deleting = zk.delete(`${root}/eph`, { guaranteed: true }).then(() => 'resolved', (e: unknown) => e);
    });
    expect(await deleting).toBe('resolved');
    expect(zk.sessionId).not.toBe(firstId);
    expect(await fixture.direct.exists(`${root}/eph`)).toBeNull();
  });

  it('a protected create whose reply is lost is found by its uuid, not made twice', async () => {
    const zk = await viaProxy();
    fixture.proxy.dropNextReply();
    const made = await zk.create(`${root}/job-`, 'x', { mode: 'ephemeral-sequential', protected: true });
    expect(made.path).toMatch(new RegExp(`^${root}/_c_[0-9a-f-]{36}-job-\\d{10}$`));
    expect(made.stat.ephemeralOwner).toBe(zk.sessionId);
    const uuid = made.path.slice(root.length + 4, root.length + 40);
    const { children } = await fixture.direct.getChildren(root);
    expect(children.filter((c) => c.includes(uuid))).toHaveLength(1);
    // Without a lost reply it is one plain create with the prefix.
    const plain = await zk.create(`${root}/p`, null, { protected: true });
    expect(plain.path).toMatch(new RegExp(`^${root}/_c_[0-9a-f-]{36}-p$`));
  });
});
