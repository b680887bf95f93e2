// client.stats() against the real server: the counts after a known sequence of operations, what is in flight,
// the watches armed by kind, then a forced reconnect (the fault proxy cuts the connection) and an expiry with
// its renewal (the proxy holds everything for longer than the session timeout).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '@zkts/testkit';
import type { ZkClient } from '@zkts/protocol';
import { hostPort, open, sharedServer, uniqueRoot, until, waitForState } from '../support/integration.js';

const hex = (id: bigint): string => `0x${id.toString(16)}`;

describe('client.stats()', () => {
  let proxy: FaultProxy;
  let zk: ZkClient | undefined;
  const root = uniqueRoot('stats');

  beforeAll(async () => {
    proxy = await startFaultProxy(hostPort(sharedServer()));
  });
  afterEach(async () => {
    proxy.restore();
    await zk?.close();
  });
  afterAll(async () => {
    const direct = await open(sharedServer());
    await direct.removeRecursive(root);
    await direct.close();
    await proxy.close();
  });

  it('counts requests by operation and failures by code, shows what is in flight and the watches armed; JSON as it is', async () => {
    zk = await open(proxy.connectString, { sessionTimeout: 4000 });
    expect(zk.stats()).toEqual({
      state: 'connected',
      sessionId: hex(zk.sessionId),
      lastServer: proxy.connectString,
      negotiatedTimeout: 4000,
      requests: {},
      errors: {},
      inFlight: 0,
      queued: 0,
      watches: { data: 0, exist: 0, child: 0, persistent: 0, persistentRecursive: 0 },
      dials: 1,
      dialFailures: 0,
      connectionsLost: 0,
      reconnects: 0,
      expiries: 0,
      renewals: 0,
    });
    await zk.create(root, 'r');
    await zk.create(`${root}/a`, 'a', { mode: 'ephemeral' });
    await zk.getData(root);
    await zk.getData(`${root}/a`, { watch: true });
    await zk.exists(`${root}/missing`, { watch: true });
    await zk.getChildren(root, { watch: true });
    await zk.setData(`${root}/a`, 'b');
    await expect(zk.delete(`${root}/missing`)).rejects.toMatchObject({ code: 'NO_NODE' });
    await expect(zk.create(`${root}/a`)).rejects.toMatchObject({ code: 'NODE_EXISTS' });
    await expect(zk.getData(`${root}/missing`)).rejects.toMatchObject({ code: 'NO_NODE' });
    await zk.multi([{ op: 'check', path: root }]);
    const persistent = await zk.addWatch(root, 'persistent');
    const stats = zk.stats();
    expect(stats).toMatchObject({
      requests: { create: 3, getData: 3, exists: 1, getChildren: 1, setData: 1, delete: 1, multi: 1, addWatch: 1 },
      errors: { NO_NODE: 2, NODE_EXISTS: 1 },
      // setData fired the data watch on /a; the exist and child watches and the persistent one are armed.
      watches: { data: 0, exist: 1, child: 1, persistent: 1, persistentRecursive: 0 },
      inFlight: 0,
    });
    expect(JSON.parse(JSON.stringify(stats))).toEqual(stats);
    // Written synchronously: fifty gets are on the wire the moment they are asked for.
    const gets = Array.from({ length: 50 }, () => zk?.getData(root));
    expect(zk.stats().inFlight).toBe(50);
    await Promise.all(gets);
    expect(zk.stats()).toMatchObject({ inFlight: 0, requests: { getData: 53 } });
    await persistent.remove();
  });

  it('a forced reconnect, then an expiry and its renewal', async () => {
    zk = await open(proxy.connectString, { sessionTimeout: 2000, reconnectDelay: { min: 10, max: 20 } });
    const first = zk.sessionId;
    await zk.exists(`${root}-x`, { watch: true });
    proxy.cut();
    await waitForState(zk, 'suspended', 2000).catch(() => undefined);
    await waitForState(zk, 'connected', 10_000);
    expect(zk.stats()).toMatchObject({ sessionId: hex(first), dials: 2, connectionsLost: 1, reconnects: 1, expiries: 0, renewals: 0, watches: { exist: 1 } });
    proxy.blackhole();
    await waitForState(zk, 'expired', 8000);
    proxy.restore();
    await until(() => zk?.state === 'connected' && zk.sessionId !== first, 15_000, 'the renewed session');
    const after = zk.stats();
    expect(after).toMatchObject({
      state: 'connected',
      sessionId: hex(zk.sessionId),
      lastServer: proxy.connectString,
      expiries: 1,
      renewals: 1,
      // The one-shot watch went with the expired session.
      watches: { exist: 0 },
    });
    // Lost once by the cut, once when the hold made the read time out; the dials the hold refused failed.
    expect(after.connectionsLost).toBe(2);
    expect(after.reconnects).toBe(1);
    expect(after.dialFailures).toBeGreaterThan(0);
    expect(after.dials).toBe(2 + after.dialFailures + 1);
  });
});
