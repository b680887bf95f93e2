import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { listTaggedProcesses, parseMntr, probeJavaRuntime, ServerStartError, startZooKeeper } from '../../src/index.js';
import { openSession } from '../raw-zk.js';

import type { LocalZooKeeperServer, ZooKeeperServer } from '../../src/index.js';

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

describe('local backend', () => {
  it('finds java and the ZooKeeper jars on this machine', () => {
    const found = probeJavaRuntime();
    if (typeof found === 'string') throw new Error(found);
    expect(found.classpath).toMatch(/zookeeper/);
  });
});

describe('startZooKeeper', () => {
  let server: ZooKeeperServer;
  beforeAll(async () => {
    server = await startZooKeeper({ tickTime: 500 });
  });
  afterAll(async () => {
    await server?.[Symbol.asyncDispose]();
  });

  it('serves on a free loopback port with a temp data dir', async () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.connectString).toBe(`127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
    expect(await server.fourLetter('ruok')).toBe('imok');
    expect(await server.fourLetter('srvr')).toMatch(/^Mode: standalone$/m);
    expect(server.dataDir).toContain('zkts-zk-');
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

describe('start failures', () => {
  const mine = (): number => listTaggedProcesses().filter((p) => p.tag.startsWith(`${process.pid}-`)).length;

  it('surfaces the server log tail when the JVM exits, and leaves nothing behind', async () => {
    const before = mine();
    const error: unknown = await startZooKeeper({ config: { tickTime: 'not-a-number' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerStartError);
    expect(String(error)).toMatch(/exited before serving/);
    expect(String(error)).toMatch(/server\.log \(tail\)[\s\S]*(NumberFormatException|Invalid config)/);
    expect(mine()).toBe(before);
  });

  it('gives up at the start deadline', async () => {
    const before = mine();
    await expect(startZooKeeper({ startTimeout: 1 })).rejects.toThrow(/did not serve within 1 ms/);
    expect(mine()).toBe(before);
  });
});

describe('process hygiene', () => {
  it('leaves no tagged JVM and no temp dir after dispose', async () => {
    const server = (await startZooKeeper()) as LocalZooKeeperServer;
    const tag = server.tag;
    const pid = server.pid;
    expect(listTaggedProcesses().some((p) => p.tag === tag && p.pid === pid)).toBe(true);
    await server[Symbol.asyncDispose]();
    expect(listTaggedProcesses().filter((p) => p.tag === tag)).toEqual([]);
    const { existsSync } = await import('node:fs');
    expect(existsSync(server.root)).toBe(false);
  });
});
