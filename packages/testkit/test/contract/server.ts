// The standalone-server contract every backend meets: serves on a free port of the engine's host, keeps its
// port and data across restart / SIGKILL + start / stop + start, answers four-letter words, and fails to
// start with the server's own log in the error, leaving nothing behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { parseMntr, ServerStartError, startZooKeeper } from '../../src/index.js';
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

export function serverContract(b: BackendUnderTest): void {
  describe.skipIf(b.unavailable !== undefined)(titled('startZooKeeper', b), () => {
    let server: ZooKeeperServer;
    beforeAll(async () => {
      server = await startZooKeeper({ backend: b.backend, tickTime: 500 });
    });
    afterAll(async () => {
      await server?.[Symbol.asyncDispose]();
    });

    it('serves on a free loopback port and answers four-letter words', async () => {
      expect(server.host).toBe('127.0.0.1');
      expect(server.connectString).toBe(`127.0.0.1:${server.port}`);
      expect(server.port).toBeGreaterThan(0);
      expect(await server.fourLetter('ruok')).toBe('imok');
      expect(await server.fourLetter('srvr')).toMatch(/^Mode: standalone$/m);
      expect(parseMntr(await server.fourLetter('mntr')).get('zk_server_state')).toBe('standalone');
    });

    it('keeps data across restart() on the same port', async () => {
      const port = server.port;
      await write(server, '/restarted', 'one');
      await server.restart();
      expect(server.port).toBe(port);
      expect(await read(server, '/restarted')).toBe('one');
    });

    it('keeps data across SIGKILL then start()', async () => {
      await write(server, '/killed', 'two');
      const before = parseMntr(await server.fourLetter('mntr')).get('zk_znode_count');
      await server.kill();
      await expect(server.fourLetter('ruok')).rejects.toThrow();
      await server.start();
      expect(await read(server, '/killed')).toBe('two');
      expect(parseMntr(await server.fourLetter('mntr')).get('zk_znode_count')).toBe(before);
    });

    it('stop() then start() brings the same data back', async () => {
      await server.stop();
      await expect(server.fourLetter('ruok')).rejects.toThrow();
      await server.start();
      expect(await read(server, '/restarted')).toBe('one');
    });
  });

  describe.skipIf(b.unavailable !== undefined)(titled('start failures', b), () => {
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
