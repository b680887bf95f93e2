import { describe, expect, it } from 'vitest';

import { dockerUnavailableReason, startZooKeeper } from '../../src/index.js';
import { openSession } from '../raw-zk.js';

// The one allowed skip: the container backend needs a Docker engine, which this machine may not have.
const reason = await dockerUnavailableReason();
const dockerAvailable = reason === undefined;
const title = dockerAvailable
  ? 'runs zookeeper:3.8 in a Docker container that keeps its port and data across restart and SIGKILL'
  : `container backend (zookeeper:3.8) — SKIPPED: no Docker engine answers (${reason})`;

describe('backend: container', () => {
  it.skipIf(!dockerAvailable)(title, async () => {
    await using server = await startZooKeeper({ backend: 'container', extendedTypesEnabled: true, minSessionTimeout: 1000 });
    expect(await server.fourLetter('srvr')).toMatch(/^Mode: standalone$/m);
    {
      await using session = await openSession(server.host, server.port);
      expect(await session.create('/in-container', 'yes')).toBe(0);
    }
    const port = server.port;
    await server.restart();
    expect(server.port).toBe(port);
    await server.kill();
    await server.start();
    await using session = await openSession(server.host, server.port);
    expect(await session.getData('/in-container')).toEqual({ err: 0, data: 'yes' });
  }, 300_000);
});
