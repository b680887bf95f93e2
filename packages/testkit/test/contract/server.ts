// The standalone-server contract every backend meets: serves on a free port of the engine's host, keeps its
// port across restart / SIGKILL + start / stop + start, and its data too when durable (an in-memory server
// comes back empty instead), answers four-letter words where the server has them, and fails to start with the
// server's own log in the error, leaving nothing behind (a JVM), or refuses what it cannot do by name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { parseMntr, ServerStartError, startZooKeeper, UnsupportedOptionError } from '../../src/index.js';
import { openSession } from '../support/raw-zk.js';
import { titled } from './backends.js';

import type { ZooKeeperServer } from '../../src/index.js';
import type { BackendUnderTest } from './backends.js';

async function write(server: ZooKeeperServer, path: string, data: string): Promise<void> {
  await using session = await openSession(server.host, server.port);
  expect(await session.create(path, data)).toBe(0);
}

async function read(server: ZooKeeperServer, path: string): Promise<string> {
  await using session = await openSession(server.host, server.port);
  const { err, data } = await session.getData(path);
  expect(err).toBe(0);
  return data;
}

const NO_NODE = -101;

/** A durable server has `path` with `data` again; an in-memory one came back empty. */
async function cameBack(b: BackendUnderTest, server: ZooKeeperServer, path: string, data: string): Promise<void> {
  if (b.traits.durable) {
    expect(await read(server, path)).toBe(data);
    return;
  }
  await using session = await openSession(server.host, server.port);
  expect((await session.getData(path)).err).toBe(NO_NODE);
}

export function serverContract(b: BackendUnderTest): void {
  describe.skipIf(b.unavailable !== undefined)(titled('startZooKeeper', b), () => {
    let server: ZooKeeperServer;
    beforeAll(async () => {
      server = await startZooKeeper({ backend: b.backend, tickTime: 500 });
    });
    afterAll(async () => {
      await server?.[Symbol.asyncDispose]();
    });

    it('serves on a free loopback port', async () => {
      expect(server.host).toBe('127.0.0.1');
      expect(server.connectString).toBe(`127.0.0.1:${server.port}`);
      expect(server.port).toBeGreaterThan(0);
      await using session = await openSession(server.host, server.port);
      expect(session.sessionId).not.toBe(0n);
    });

    it.runIf(b.traits.fourLetterWords)('answers four-letter words', async () => {
      expect(await server.fourLetter('ruok')).toBe('imok');
      expect(await server.fourLetter('srvr')).toMatch(/^Mode: standalone$/m);
      expect(parseMntr(await server.fourLetter('mntr')).get('zk_server_state')).toBe('standalone');
    });

    it(`restart() keeps the port${b.traits.durable ? ' and the data' : '; in memory, the data goes'}`, async () => {
      const port = server.port;
      await write(server, '/restarted', 'one');
      await server.restart();
      expect(server.port).toBe(port);
      await cameBack(b, server, '/restarted', 'one');
    });

    it(`SIGKILL then start()${b.traits.durable ? ' keeps the data' : ': the server comes back empty'}`, async () => {
      await write(server, '/killed', 'two');
      const before = b.traits.fourLetterWords ? parseMntr(await server.fourLetter('mntr')).get('zk_znode_count') : undefined;
      await server.kill();
      await expect(server.fourLetter('ruok')).rejects.toThrow();
      await expect(openSession(server.host, server.port)).rejects.toThrow();
      await server.start();
      await cameBack(b, server, '/killed', 'two');
      if (b.traits.fourLetterWords && b.traits.durable) expect(parseMntr(await server.fourLetter('mntr')).get('zk_znode_count')).toBe(before);
    });

    it(`stop() then start() on the same port${b.traits.durable ? ' brings the same data back' : ''}`, async () => {
      await write(server, '/stopped', 'three');
      await server.stop();
      await expect(server.fourLetter('ruok')).rejects.toThrow();
      await server.start();
      await cameBack(b, server, '/stopped', 'three');
    });
  });

  // Suites that concern one kind of backend only are not declared for the others (rather than skipped there).
  if (!b.traits.jvm) describe.skipIf(b.unavailable !== undefined)(titled('options it cannot honour', b), () => {
    it('are refused by name, before anything starts', async () => {
      for (const options of [{ config: { tickTime: 'not-a-number' } }, { jvmArgs: ['-Xss1m'] }, { tls: true }, { sasl: {} }]) {
        const error: unknown = await startZooKeeper({ backend: b.backend, ...options }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(UnsupportedOptionError);
        expect((error as UnsupportedOptionError).option).toBe(Object.keys(options)[0]);
        expect(String(error)).toMatch(new RegExp(`\`${Object.keys(options)[0]}\``));
      }
    });
  });

  if (b.traits.jvm) describe.skipIf(b.unavailable !== undefined)(titled('start failures', b), () => {
    it('surfaces the server log tail when the JVM exits, and leaves nothing behind', async () => {
      const before = await b.owned();
      const error: unknown = await startZooKeeper({ backend: b.backend, config: { tickTime: 'not-a-number' } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerStartError);
      expect(String(error)).toMatch(/exited before serving/);
      expect(String(error)).toMatch(/\(tail\) ---[\s\S]*(NumberFormatException|Invalid config)/);
      expect(await b.owned()).toBe(before);
    });

    it('gives up at the start deadline', async () => {
      const before = await b.owned();
      await expect(startZooKeeper({ backend: b.backend, startTimeout: 1 })).rejects.toThrow(/did not serve within 1 ms/);
      expect(await b.owned()).toBe(before);
    });
  });
}
