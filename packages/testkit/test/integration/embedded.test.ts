// The standalone-server and fault-proxy contracts (test/contract/) on the embedded backend (@zkts/server in this
// process), and what only it has: options refused by name, a ManualClock as the server's clock, no ensembles.
import { describe, expect, it } from 'vitest';

import { EmbeddedZooKeeperServer, ManualClock, startEnsemble, startZooKeeper, UnsupportedOptionError } from '../../src/index.js';
import { embeddedBackend } from '../contract/backends.js';
import { faultProxyContract } from '../contract/fault-proxy.js';
import { serverContract } from '../contract/server.js';
import { openSession } from '../support/raw-zk.js';

serverContract(await embeddedBackend());

// The server's clock is a ManualClock: "the session has expired" is a step of the test, not a wait.
faultProxyContract('an embedded server', async () => {
  const clock = new ManualClock();
  const server = await startZooKeeper({ backend: 'embedded', clock, tickTime: 500, minSessionTimeout: 1000 });
  return {
    address: { host: server.host, port: server.port },
    fourLetterWords: false,
    dropped: () => clock.advanceAsync(3000),
    close: () => server.stop(),
  };
});

describe('embedded backend', () => {
  it('is an EmbeddedZooKeeperServer, in memory unless given a dataDir', async () => {
    await using server = await startZooKeeper({ backend: 'embedded' });
    expect(server).toBeInstanceOf(EmbeddedZooKeeperServer);
    expect(server.dataDir).toBe('');
    expect((server as EmbeddedZooKeeperServer).running).toBe(true);
    await server.stop();
    expect((server as EmbeddedZooKeeperServer).running).toBe(false);
  });

  it('runs on the ManualClock it is given: sessions expire when the test moves time', async () => {
    const clock = new ManualClock();
    await using server = await startZooKeeper({ backend: 'embedded', clock, tickTime: 500 });
    const session = await openSession(server.host, server.port);
    // The 30 s asked for is clamped to 20 ticks (10 s); nothing pings, so the session lasts until the clock
    // passes that, rounded up to its tick bucket.
    await clock.advanceAsync(9_000);
    expect(session.socket.destroyed).toBe(false);
    await clock.advanceAsync(2_000);
    await session.closed;
    expect(session.socket.destroyed).toBe(true);
  });

  it('refuses ensembles, naming the option', async () => {
    const error: unknown = await startEnsemble({ backend: 'embedded', size: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedOptionError);
    expect(error).toMatchObject({ option: 'backend', code: 'ZKTS_TESTKIT_UNSUPPORTED_OPTION' });
  });

  it('keeps clock and dataDir to itself: the other backends refuse them', async () => {
    for (const backend of ['local', 'container'] as const) {
      await expect(startZooKeeper({ backend, clock: new ManualClock() })).rejects.toMatchObject({ option: 'clock' });
      await expect(startZooKeeper({ backend, dataDir: '/tmp/x' })).rejects.toMatchObject({ option: 'dataDir' });
    }
  });

  it('can be chosen by the environment', async () => {
    const before = process.env['ZKTS_TESTKIT_BACKEND'];
    process.env['ZKTS_TESTKIT_BACKEND'] = 'embedded';
    try {
      await using server = await startZooKeeper();
      expect(server).toBeInstanceOf(EmbeddedZooKeeperServer);
    } finally {
      if (before === undefined) delete process.env['ZKTS_TESTKIT_BACKEND'];
      else process.env['ZKTS_TESTKIT_BACKEND'] = before;
    }
  });
});
