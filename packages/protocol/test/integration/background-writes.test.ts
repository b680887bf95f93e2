// Writes that finish, against a real server behind the fault proxy: a guaranteed delete goes on in the
// background across cuts, lost replies and a session renewal until the node is gone; a protected create whose
// outcome is unknown (timeout, abort, lost reply) never leaves its node behind; close() reports what was left.
// Every "gone" is checked from a second client straight to the server, polled with a deadline.
import { describe, expect, it } from 'vitest';
import { ClientClosedError, TimeoutError, type BackgroundWriteEvent, type ClientOptions, type ZkClient } from '@zkts/protocol';
import { expireBehindProxy, proxiedRoot, until } from '../support/integration.js';

describe('writes that finish', () => {
  const fixture = proxiedRoot('bgw');
  const { root } = fixture;
  const viaProxy = (options: ClientOptions = {}): Promise<ZkClient> => fixture.viaProxy({ sessionTimeout: 4000, ...options });
  const gone = (path: string, what: string): Promise<void> => until(async () => (await fixture.direct.exists(path)) === null, 20_000, what);
  const noProtectedChild = (parent: string, what: string): Promise<void> =>
    until(async () => (await fixture.direct.getChildren(parent)).children.every((c) => !c.startsWith('_c_')), 20_000, what);
  /** Every background-write event of `zk`, in order. */
  const record = (zk: ZkClient): BackgroundWriteEvent[] => {
    const events: BackgroundWriteEvent[] = [];
    zk.on('backgroundWrite', (e) => events.push(e));
    return events;
  };
  const finalOf = (events: BackgroundWriteEvent[], path: string): BackgroundWriteEvent | undefined => events.find((e) => e.path === path && e.status !== 'pending');

  it('a guaranteed delete of a persistent node goes on across an expiry and the new session', async () => {
    const zk = await viaProxy();
    const events = record(zk);
    const path = `${root}/persist`;
    await fixture.direct.create(path);
    const firstId = zk.sessionId;
    let deleting: Promise<unknown> | undefined;
    await expireBehindProxy(zk, fixture.proxy, async () => {
      await until(() => zk.state === 'suspended', 10_000, 'suspension');
      deleting = zk.delete(path, { guaranteed: true }).then(() => 'resolved', (e: unknown) => e);
      await until(() => zk.pendingWrites.some((w) => w.path === path), 5_000, 'the write listed');
    });
    expect(await deleting).toBe('resolved');
    expect(zk.sessionId).not.toBe(firstId);
    await gone(path, 'the persistent node deleted in the new session');
    expect(finalOf(events, path)).toMatchObject({ kind: 'guaranteed-delete', status: 'done' });
    expect(zk.pendingWrites).toEqual([]);
  });

  it('an ephemeral of an expired session is gone with it: the delete resolves and leaves a newer ephemeral alone', async () => {
    const zk = await viaProxy();
    const events = record(zk);
    const path = `${root}/eph`;
    await zk.create(path, null, { mode: 'ephemeral' });
    const firstId = zk.sessionId;
    let deleting: Promise<unknown> | undefined;
    await expireBehindProxy(zk, fixture.proxy, async () => {
      await until(() => zk.state === 'suspended', 10_000, 'suspension');
      // Someone else takes the path while our session is gone; the old ephemeral went with our session.
      await until(async () => (await fixture.direct.exists(path)) === null, 10_000, 'the old ephemeral gone');
      await fixture.direct.create(path, null, { mode: 'ephemeral' });
      deleting = zk.delete(path, { guaranteed: true }).then(() => 'resolved', (e: unknown) => e);
    });
    expect(await deleting).toBe('resolved');
    expect(zk.sessionId).not.toBe(firstId);
    expect(finalOf(events, path)).toMatchObject({ status: 'replaced' });
    expect((await fixture.direct.exists(path))?.ephemeralOwner).toBe(fixture.direct.sessionId);
    await fixture.direct.delete(path);
  });

  it('applied, reply lost during the background retry: the caller stopped waiting, the write still finishes', async () => {
    const zk = await viaProxy();
    const events = record(zk);
    const path = `${root}/lost`;
    await fixture.direct.create(path);
    fixture.proxy.blackhole();
    fixture.proxy.dropNextReply();
    await expect(zk.delete(path, { guaranteed: true, timeout: 300 })).rejects.toBeInstanceOf(TimeoutError);
    expect(zk.pendingWrites).toEqual([expect.objectContaining({ kind: 'guaranteed-delete', path, attempts: 1 })]);
    expect(await fixture.direct.exists(path)).not.toBeNull();
    // The held delete reaches the server, is applied, its reply is swallowed and the connection cut.
    fixture.proxy.restore();
    await gone(path, 'the node deleted');
    await until(() => finalOf(events, path) !== undefined, 20_000, 'the write reported');
    // The retry met NO_NODE: the lost try had been applied.
    expect(finalOf(events, path)).toMatchObject({ status: 'done', attempts: 2 });
    expect(zk.pendingWrites).toEqual([]);
  });

  it('a reply lost on the first try and again on the retry: the third try meets NO_NODE and the write is done', async () => {
    const zk = await viaProxy();
    const events = record(zk);
    const path = `${root}/twice`;
    await fixture.direct.create(path);
    fixture.proxy.blackhole();
    fixture.proxy.dropNextReply();
    await expect(zk.delete(path, { guaranteed: true, timeout: 300 })).rejects.toBeInstanceOf(TimeoutError);
    fixture.proxy.restore();
    // Armed again: the next request after the reconnect is the background retry; its reply is lost too.
    fixture.proxy.dropNextReply();
    await until(() => finalOf(events, path) !== undefined, 20_000, 'the write reported');
    expect(finalOf(events, path)).toMatchObject({ status: 'done', attempts: 3 });
    expect(await fixture.direct.exists(path)).toBeNull();
  });

  it('bounded: a write that cannot reach a server gives up at maxTime and says so', async () => {
    const zk = await viaProxy({ backgroundWrites: { maxTime: 1000 }, whileSuspended: 'fail' });
    const events = record(zk);
    const path = `${root}/bounded`;
    await fixture.direct.create(path);
    fixture.proxy.blackhole();
    // Suspended first, so no try is ever sent (a try held in the blackhole would be applied after restore()).
    await until(() => zk.state === 'suspended', 10_000, 'suspension');
    const error = await zk.delete(path, { guaranteed: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(/gave up after/);
    expect(finalOf(events, path)).toMatchObject({ status: 'gave-up', attempts: 0 });
    expect(zk.pendingWrites).toEqual([]);
    fixture.proxy.restore();
    expect(await fixture.direct.exists(path)).not.toBeNull();
  });

  it('bounded: tries that time out count, and the write gives up at maxAttempts with the last error as its cause', async () => {
    const warnings: string[] = [];
    const logger = { warn: (message: string) => warnings.push(message) };
    const zk = await viaProxy({ backgroundWrites: { maxAttempts: 2 }, requestTimeout: 200, logger });
    const events = record(zk);
    const path = `${root}/attempts`;
    await fixture.direct.create(path);
    // Replies arrive after the request timeout, so each try ends with TIMEOUT (its outcome unknown).
    fixture.proxy.delay(1000);
    const error = await zk.delete(path, { guaranteed: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).cause).toBeInstanceOf(TimeoutError);
    expect(finalOf(events, path)).toMatchObject({ status: 'gave-up', attempts: 2 });
    expect(warnings.some((w) => w.includes(path) && w.includes('gave-up'))).toBe(true);
    fixture.proxy.restore();
  });

  it('close() during pending work stops it and reports the paths left', async () => {
    const zk = await viaProxy();
    const events = record(zk);
    const path = `${root}/left`;
    await fixture.direct.create(path);
    fixture.proxy.blackhole();
    await until(() => zk.state === 'suspended', 10_000, 'suspension');
    const deleting = zk.delete(path, { guaranteed: true }).catch((e: unknown) => e);
    const created = zk.create(`${root}/prot`, null, { protected: true, timeout: 200 }).catch((e: unknown) => e);
    expect(await created).toBeInstanceOf(TimeoutError);
    const report = await zk.close();
    expect(report.unfinished.map((w) => `${w.kind} ${w.path}`).sort()).toEqual([`guaranteed-delete ${path}`, expect.stringMatching(new RegExp(`^protected-cleanup ${root}/_c_[0-9a-f-]{36}-prot$`))]);
    expect(await deleting).toBeInstanceOf(ClientClosedError);
    expect(events.filter((e) => e.status === 'cancelled')).toHaveLength(2);
    expect(await zk.close()).toBe(report);
    fixture.proxy.restore();
    expect(await fixture.direct.exists(path)).not.toBeNull();
  });

  it('a protected create that times out with its request held: the clean-up finds and deletes the node', async () => {
    const zk = await viaProxy();
    const events = record(zk);
    const parent = `${root}/held`;
    await fixture.direct.create(parent);
    fixture.proxy.blackhole();
    await expect(zk.create(`${parent}/job-`, 'x', { mode: 'persistent-sequential', protected: true, timeout: 300 })).rejects.toBeInstanceOf(TimeoutError);
    expect(zk.pendingWrites).toEqual([expect.objectContaining({ kind: 'protected-cleanup' })]);
    fixture.proxy.restore();
    await until(() => zk.pendingWrites.length === 0, 20_000, 'the clean-up finished');
    expect(events.at(-1)).toMatchObject({ kind: 'protected-cleanup', status: 'done' });
    // The create was applied (it was on the wire) and then removed: nothing with a protection prefix is left.
    expect((await fixture.direct.getChildren(parent)).children).toEqual([]);
    expect((await fixture.direct.exists(parent))?.cversion).toBe(2);
  });

  it('an ephemeral protected create that timed out is cleaned up in the same session', async () => {
    const zk = await viaProxy();
    const parent = `${root}/eph-held`;
    await fixture.direct.create(parent);
    fixture.proxy.blackhole();
    await expect(zk.create(`${parent}/e-`, null, { mode: 'ephemeral-sequential', protected: true, timeout: 300 })).rejects.toBeInstanceOf(TimeoutError);
    const firstId = zk.sessionId;
    fixture.proxy.restore();
    await until(async () => (await fixture.direct.exists(parent))?.cversion === 2, 20_000, 'create and clean-up applied');
    await noProtectedChild(parent, 'no orphan');
    expect(zk.sessionId).toBe(firstId);
  });

  it('applied, reply lost, then aborted: the orphan is found after the reconnect and deleted', async () => {
    const zk = await viaProxy();
    const parent = `${root}/aborted`;
    await fixture.direct.create(parent);
    fixture.proxy.blackhole();
    fixture.proxy.dropNextReply();
    const controller = new AbortController();
    const creating = zk.create(`${parent}/n`, null, { protected: true, signal: controller.signal }).catch((e: unknown) => e);
    // Time for the request to be written (an abort while it is still queued takes it back unsent); not the proof:
    // the cversion below shows whether the create was applied and then cleaned up.
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    expect(await creating).toMatchObject({ code: 'ABORTED' });
    fixture.proxy.restore();
    // cversion 2: one create and one delete happened, so the node existed and was cleaned up.
    await until(async () => (await fixture.direct.exists(parent))?.cversion === 2, 20_000, 'create and clean-up applied');
    await noProtectedChild(parent, 'no orphan');
    await until(() => zk.pendingWrites.length === 0, 20_000, 'the clean-up finished');
  });

  it('a protected create cut off by an expiry: the new session cleans up, no orphan either way', async () => {
    const zk = await viaProxy();
    const events = record(zk);
    const parent = `${root}/expiry`;
    await fixture.direct.create(parent);
    const firstId = zk.sessionId;
    await expireBehindProxy(zk, fixture.proxy, async () => {
      await expect(zk.create(`${parent}/n`, null, { protected: true, timeout: 300 })).rejects.toBeInstanceOf(TimeoutError);
      expect(zk.pendingWrites).toHaveLength(1);
    });
    await until(() => zk.pendingWrites.length === 0, 20_000, 'the clean-up finished');
    expect(zk.sessionId).not.toBe(firstId);
    expect(events.at(-1)).toMatchObject({ kind: 'protected-cleanup', status: 'done' });
    await noProtectedChild(parent, 'no orphan');
  });
});
