// close() between connections: the session is still open on the server, and so are its ephemeral nodes (a lock,
// a queue's receipt) that the caller closed to give up. close() makes one more connection to end it there, and
// says when no server answered in time (`lingering`). The client below never redials on its own within the test
// (its reconnect delay is 30 s), so whatever reaches the server after the cut is the close's doing.
import { createClient } from '@zkts/protocol';
import { startFaultProxy } from '@zkts/testkit';
import { describe, expect, it } from 'vitest';

import { hostPort, open, proxiedRoot, sharedServer, waitForState } from '../support/integration.js';

const NO_REDIAL = { sessionTimeout: 20_000, reconnectDelay: { min: 30_000, max: 30_000 } };

describe('close() between connections', () => {
  const fixture = proxiedRoot('close-between');

  it('ends the session on the server: its ephemeral node is gone when close() resolves', async () => {
    const zk = await fixture.viaProxy(NO_REDIAL);
    const path = `${fixture.root}/ended`;
    await zk.create(path, null, { mode: 'ephemeral' });
    fixture.proxy.cut();
    await waitForState(zk, 'suspended');
    const started = performance.now();
    const report = await zk.close();
    expect(await fixture.direct.exists(path)).toBeNull();
    expect(report.lingering).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('with no server reachable it gives up within its time limit, says so, and the node stays (the control)', async () => {
    const warnings: string[] = [];
    const zk = await fixture.viaProxy({ ...NO_REDIAL, logger: { warn: (message) => warnings.push(message) } });
    const path = `${fixture.root}/lingers`;
    await zk.create(path, null, { mode: 'ephemeral' });
    fixture.proxy.cut();
    await waitForState(zk, 'suspended');
    fixture.proxy.blackhole();
    const started = performance.now();
    const report = await zk.close();
    expect(performance.now() - started).toBeLessThan(4000);
    expect(report.lingering).toBe(true);
    expect(warnings.some((w) => w.includes('closed without reaching a server') && w.includes('20000 ms'))).toBe(true);
    expect((await fixture.direct.exists(path))?.ephemeralOwner).toBe(zk.sessionId);
    await fixture.direct.delete(path);
  });

  it('a frozen host first in the list does not take the time of the next one', async () => {
    await using frozen = await startFaultProxy(hostPort(sharedServer()));
    frozen.blackhole(); // accepts connections, never answers: a frozen server
    const zk = await open(`${frozen.connectString},${fixture.proxy.connectString}`, { ...NO_REDIAL, shuffle: false, connectTimeout: 500 });
    const path = `${fixture.root}/second-host`;
    await zk.create(path, null, { mode: 'ephemeral' });
    fixture.proxy.cut();
    await waitForState(zk, 'suspended');
    const report = await zk.close();
    expect(await fixture.direct.exists(path)).toBeNull();
    expect(report.lingering).toBe(false);
  });

  it('a session the server expired meanwhile counts as ended', async () => {
    const zk = await fixture.viaProxy(NO_REDIAL);
    fixture.proxy.cut();
    await waitForState(zk, 'suspended');
    // Another connection takes the session over and closes it: the server has ended it, the client has not heard.
    const thief = createClient(sharedServer(), { sessionTimeout: 4000, sessionId: zk.sessionId, sessionPassword: zk.sessionPassword });
    await thief.connect();
    await thief.close();
    expect(zk.state).toBe('suspended');
    expect((await zk.close()).lingering).toBe(false);
  });

  it('a connected session ends with closeSession as before, and is not lingering', async () => {
    const zk = await fixture.viaProxy(NO_REDIAL);
    const path = `${fixture.root}/connected`;
    await zk.create(path, null, { mode: 'ephemeral' });
    expect((await zk.close()).lingering).toBe(false);
    expect(await fixture.direct.exists(path)).toBeNull();
  });
});
