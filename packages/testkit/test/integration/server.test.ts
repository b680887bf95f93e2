// The standalone-server contract (test/contract/server.ts) on the local backend, and what only it has: the
// Java/jar probe, temp dirs and tagged JVMs.
import { describe, expect, it } from 'vitest';

import { listTaggedProcesses, probeJavaRuntime, startZooKeeper } from '../../src/index.js';
import { localBackend } from '../contract/backends.js';
import { serverContract } from '../contract/server.js';

import type { LocalZooKeeperServer } from '../../src/index.js';

describe('local backend', () => {
  it('finds java and the ZooKeeper jars on this machine', () => {
    const found = probeJavaRuntime();
    if (typeof found === 'string') throw new Error(found);
    expect(found.classpath).toMatch(/zookeeper/);
  });
});

serverContract(localBackend);

describe('process hygiene', () => {
  it('leaves no tagged JVM and no temp dir after dispose', async () => {
    const server = (await startZooKeeper()) as LocalZooKeeperServer;
    const tag = server.tag;
    const pid = server.pid;
    expect(server.dataDir).toContain('zkts-zk-');
    expect(listTaggedProcesses().some((p) => p.tag === tag && p.pid === pid)).toBe(true);
    await server[Symbol.asyncDispose]();
    expect(listTaggedProcesses().filter((p) => p.tag === tag)).toEqual([]);
    const { existsSync } = await import('node:fs');
    expect(existsSync(server.root)).toBe(false);
  });
});
