// Clients that are not zkts against startServer: ZooKeeper's own Java client (Debian's jars, through the
// testkit's Java runtime) and kazoo (Debian's python3-kazoo), each running a small script of operations.
import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { javaRuntime } from '@zkts/testkit';
import { startServer } from '@zkts/server';

const here = (name: string): string => fileURLToPath(new URL(`./foreign/${name}`, import.meta.url));

/** Runs a foreign client asynchronously (the server under test shares this event loop); resolves with its lines. */
function run(command: string, args: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 90_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout.trim().split('\n')),
    );
  });
}

describe('foreign clients', () => {
  it('the ZooKeeper Java client', async () => {
    await using server = await startServer();
    const { java, classpath } = javaRuntime();
    const lines = await run(java, ['-cp', classpath, here('JavaClient.java'), server.connectString]);
    expect(lines).toEqual([
      'connected true',
      'create /java',
      'children []',
      'sequential /java/e-0000000000',
      'event NodeChildrenChanged /java',
      'setData version 1',
      'badVersion BADVERSION',
      'multi 3',
      "acl [31,s{'world,'anyone}]",
      'ephemeralOwner true',
      'closed',
    ]);
  });

  it('kazoo', async () => {
    await using server = await startServer();
    const probe = spawnSync('/usr/bin/python3', ['-c', 'import kazoo'], { encoding: 'utf8' });
    expect(probe.status, 'python3-kazoo is needed (scripts/setup.sh)').toBe(0);
    const lines = await run('/usr/bin/python3', [here('kazoo_client.py'), server.connectString]);
    expect(lines).toEqual([
      'connected True',
      'exists True',
      'locked True',
      "children ['a', 'lock']",
      'transaction /kazoo/t 1 1',
      'get y 1',
      'stopped',
    ]);
  });
});
