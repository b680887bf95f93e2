// ZooKeeper's Java client against startServer, in its own JVM: watches of every kind and the calls
// foreign-clients.test.ts does not make. The same program runs against ZooKeeper first, so the expected lines
// are ZooKeeper's.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { javaRuntime } from '@zkts/testkit';
import { startServer } from '@zkts/server';

function run(command: string, args: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 90_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout.trim().split('\n'))));
  });
}

const EXPECTED = [
  'exists null',
  'event NodeCreated /w',
  'event NodeDataChanged /w',
  'recursive NodeCreated /w/a',
  'recursive NodeCreated /w/a/b',
  'recursive NodeDataChanged /w/a',
  'recursive NodeDeleted /w/a/b',
  'removed PersistentWatchRemoved /w',
  'ephemerals [/w/e]',
  'allChildren 2',
  'sync 0',
  'async 0 1 1',
  'recursive after remove null',
  'closed',
];

const program = fileURLToPath(new URL('./JavaWatches.java', import.meta.url));

describe('the ZooKeeper Java client on @zkts/server', () => {
  it('exists, data, persistent-recursive watches; removeWatches, getEphemerals, getAllChildrenNumber, sync, async', async () => {
    const { java, classpath } = javaRuntime();
    const root = `/interop-${randomBytes(6).toString('hex')}`;
    expect(await run(java, ['-cp', classpath, program, inject('zkConnectString'), root]), 'on ZooKeeper').toEqual(EXPECTED);
    await using server = await startServer();
    expect(await run(java, ['-cp', classpath, program, server.connectString]), 'on @zkts/server').toEqual(EXPECTED);
  }, 120_000);
});
