// The standalone-server and TLS contracts (test/contract/) on the container backend, and what only it has:
// the image it runs, the labels the reaper goes by, a container that is gone after dispose, and an image with
// the official images' layout. Skipped, with
// the reason in the title, only where no Docker engine answers.
import { afterAll, describe, expect, it } from 'vitest';

import { LOCAL_ZOOKEEPER_IMAGE, runtimeClient, testkitLabels, zookeeperImage } from '../../src/container-runtime.js';
import { ContainerZooKeeperServer, listTaggedContainers, startZooKeeper } from '../../src/index.js';
import { DEBIAN_REQUIRED } from '../../src/java.js';
import { containerBackend, titled } from '../contract/backends.js';
import { serverContract } from '../contract/server.js';
import { tlsContract } from '../contract/tls.js';
import { testRunId } from '../support/helpers.js';
import { openSession } from '../support/raw-zk.js';

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

// The official images cannot be pulled everywhere (not on this project's machines), so their layout is rebuilt
// from the local image: an Apache release under /apache-zookeeper-3.8.0-bin/lib with versioned jar names, and
// no zookeeper.jar left in /usr/share/java for the launcher to fall back on.
describe.skipIf(b.unavailable !== undefined)(titled('an image laid out like the official one', b), () => {
  const layoutImage = 'zkts-local/zookeeper-release-layout:3.8';
  let built = false;
  afterAll(async () => {
    if (built) await (await runtimeClient()).container.dockerode.getImage(layoutImage).remove({ force: true }).catch(() => undefined);
  });

  it('is driven the same way: the launcher finds the release jars', async () => {
    const client = await runtimeClient();
    const docker = client.container.dockerode;
    const base = await zookeeperImage(client, undefined);
    if (base !== LOCAL_ZOOKEEPER_IMAGE) {
      // The default image is an official one: every container test above already ran on that layout.
      console.info(`the default image is ${base}: the release layout is what the contract suites ran on`);
      return;
    }
    const lib = '/apache-zookeeper-3.8.0-bin/lib';
    const moves = DEBIAN_REQUIRED.map((jar) => `cp /usr/share/java/${jar} ${lib}/${jar.replace(/^(zookeeper(-jute)?)\.jar$/, '$1-3.8.0.jar')}`);
    const maker = await docker.createContainer({
      Image: base,
      Entrypoint: ['/bin/sh', '-c'],
      Cmd: [`set -e; mkdir -p ${lib}; ${moves.join('; ')}; cp /usr/share/java/slf4j-simple.jar ${lib}/; rm /usr/share/java/zookeeper.jar`],
      Labels: testkitLabels(`${process.pid}-layout`),
    });
    try {
      await maker.start();
      expect((await maker.wait()) as { StatusCode: number }).toMatchObject({ StatusCode: 0 });
      await maker.commit({ repo: 'zkts-local/zookeeper-release-layout', tag: '3.8' });
      built = true;
    } finally {
      await maker.remove({ force: true });
    }
    await using server = (await startZooKeeper({ backend: 'container', image: layoutImage })) as ContainerZooKeeperServer;
    expect(server.image).toBe(layoutImage);
    expect(await server.fourLetter('srvr')).toMatch(/^Mode: standalone$/m);
    await using session = await openSession(server.host, server.port);
    expect(await session.create('/from-release-layout', 'x')).toBe(0);
  });
});
