// A server restart: the session re-attaches, its ephemerals survive, watches set before the restart fire,
// requests in flight fail with connection loss and requests made meanwhile go out after the reconnect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startZooKeeper, type ZooKeeperServer } from '@zkts/testkit';
import { ConnectionLossError, ServerError, type StateChange, type ZkClient } from '@zkts/protocol';
import { open, waitForState } from '../support/integration.js';

describe('server restart', () => {
  let server: ZooKeeperServer;

  beforeAll(async () => {
    server = await startZooKeeper({ tickTime: 500, maxSessionTimeout: 20_000 });
  });
  afterAll(async () => {
    await server[Symbol.asyncDispose]();
  });

  it('TTL creates are UNIMPLEMENTED without extendedTypesEnabled', async () => {
    const zk = await open(server.connectString);
    try {
      const err = await zk.create('/ttl', null, { mode: 'persistent-ttl', ttl: 1000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServerError);
      expect((err as ServerError).code).toBe('UNIMPLEMENTED');
      expect(await zk.exists('/ttl')).toBeNull();
    } finally {
      await zk.close();
    }
  });

  it('re-attaches the session with its ephemerals and watches; in-flight requests fail with connection loss', async () => {
    const zk: ZkClient = await open(server.connectString, { sessionTimeout: 15_000 });
    const changes: StateChange[] = [];
    zk.onStateChange((c) => changes.push(c));
    const id = zk.sessionId;
    await zk.create('/restart', 'v0');
    await zk.create('/restart/eph', null, { mode: 'ephemeral' });
    const data = await zk.getData('/restart', { watch: true });
    const kids = await zk.getChildren('/restart', { watch: true });
    // Many reads in flight when the server goes: those without a reply fail with an unknown outcome.
    const inFlight = Array.from({ length: 200 }, () => zk.getData('/restart').then(() => 'ok', (e: unknown) => e));
    const stopping = server.stop();
    const outcomes = await Promise.all(inFlight);
    await stopping;
    for (const o of outcomes) {
      if (o !== 'ok') {
        expect(o).toBeInstanceOf(ConnectionLossError);
        expect((o as ConnectionLossError).outcomeUnknown).toBe(true);
      }
    }
    await waitForState(zk, 'suspended', 5000);
    // Made while suspended: queued, sent after the reconnect.
    const queued = zk.setData('/restart', 'while away');
    await server.start();
    await waitForState(zk, 'connected', 15_000);
    expect(zk.sessionId).toBe(id);
    await queued;
    expect(await data.watch).toMatchObject({ type: 'dataChanged', path: '/restart' });
    expect(await zk.exists('/restart/eph')).not.toBeNull();
    const other = await open(server.connectString);
    await other.create('/restart/new');
    expect(await kids.watch).toMatchObject({ type: 'childrenChanged', path: '/restart' });
    expect((await other.exists('/restart/eph'))?.ephemeralOwner).toBe(id);
    await other.close();
    expect(changes.map((c) => c.state)).toEqual(['suspended', 'connected']);
    await zk.close();
    expect(zk.state).toBe('closed');
  });
});
