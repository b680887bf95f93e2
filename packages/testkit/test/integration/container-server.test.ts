// The standalone-server and TLS contracts (test/contract/) on the container backend, and what only it has:
// the image it runs, the labels the reaper goes by, and a container that is gone after dispose. Skipped, with
// the reason in the title, only where no Docker engine answers.
import { describe, expect, it } from 'vitest';

import { ContainerZooKeeperServer, listTaggedContainers, startZooKeeper } from '../../src/index.js';
import { containerBackend, titled } from '../contract/backends.js';
import { serverContract } from '../contract/server.js';
import { tlsContract } from '../contract/tls.js';
import { testRunId } from '../helpers.js';
import { openSession } from '../raw-zk.js';

const b = await containerBackend();

serverContract(b);
tlsContract(b);

describe.skipIf(b.unavailable !== undefined)(titled('container server', b), () => {
  it('runs the testkit zoo.cfg in a labelled container, which dispose removes', async () => {
    const server = await startZooKeeper({ backend: 'container', tickTime: 400, extendedTypesEnabled: true, minSessionTimeout: 1000 });
    try {
      expect(server).toBeInstanceOf(ContainerZooKeeperServer);
      const container = server as ContainerZooKeeperServer;
      console.info(`container backend: image ${container.image}`);
      expect(container.image).toMatch(/zookeeper/);
      // `conf` shows the configuration the server runs: ours, not the image's.
      const conf = await server.fourLetter('conf');
      expect(conf).toMatch(/^tickTime=400$/m);
      expect(conf).toMatch(/^dataDir=\/zkts\/data/m);
      expect(conf).toMatch(/^minSessionTimeout=1000$/m);
      const mine = (await listTaggedContainers()).filter((c) => c.id === container.containerId);
      expect(mine).toEqual([{ id: container.containerId, tag: container.tag, run: testRunId(), state: 'running' }]);
      await using session = await openSession(server.host, server.port);
      expect(await session.create('/ttl-capable', 'x')).toBe(0);
    } finally {
      await server[Symbol.asyncDispose]();
    }
    expect((await listTaggedContainers()).filter((c) => c.tag === (server as ContainerZooKeeperServer).tag)).toEqual([]);
  });
});
