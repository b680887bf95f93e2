// zkCli habits that need a quorum: `config` on an ensemble's real configuration, and `-r` (read-only mode):
// a server cut off from its quorum serves a session that allows it, for reads, and no other.
import { startEnsemble } from '@zkts/testkit';
import type { Ensemble, ZooKeeperServer } from '@zkts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { COMMANDS } from '../../src/commands/index.js';
import { zkts } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

let ensemble: Ensemble;

beforeAll(async () => {
  ensemble = await startEnsemble({ size: 3, tickTime: 500, readOnlyMode: true });
});
afterAll(async () => {
  await ensemble[Symbol.asyncDispose]();
});

async function until(check: () => Promise<boolean>, timeout: number, what: string): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('zkCli habits on an ensemble', { timeout: 300_000 }, () => {
  it('config prints the members, -c the version and the client addresses', async () => {
    const s = ['--server', ensemble.connectString];
    const config = await runInProcess(COMMANDS, [...s, 'config']);
    expect(config.code).toBe(0);
    const lines = config.stdout.trim().split('\n');
    expect(lines.filter((l) => /^server\.\d=.*:participant;.*:\d+$/.test(l))).toHaveLength(3);
    const version = lines.find((l) => l.startsWith('version='))?.slice('version='.length) ?? '';
    expect(version).toMatch(/^[0-9a-f]+$/);
    const client = await runInProcess(COMMANDS, [...s, 'config', '-c']);
    const ports = ensemble.members.map((m) => m.connectString.slice(m.connectString.lastIndexOf(':') + 1));
    expect(client.stdout).toMatch(new RegExp(`^${version} \\S+:(${ports.join('|')}),\\S+:(${ports.join('|')}),\\S+:(${ports.join('|')})\\n$`));
  });

  it('-r (--allow-read-only) reads from a server without quorum; writes fail NOT_READ_ONLY; without it, no session', async () => {
    expect(await zkts(['-server', ensemble.connectString, 'create', '/ro', 'readable'])).toMatchObject({ code: 0 });
    const [a, b, survivor] = ensemble.members as [ZooKeeperServer, ZooKeeperServer, ZooKeeperServer];
    await Promise.all([a.kill(), b.kill()]);
    await until(async () => (await survivor.fourLetter('isro').catch(() => '')).trim() === 'ro', 60_000, 'the survivor in read-only mode');
    const read = await zkts(['-server', survivor.connectString, '-r', 'get', '/ro']);
    expect(read).toMatchObject({ code: 0, stdout: 'readable', stderr: '' });
    expect(await runInProcess(COMMANDS, ['--server', survivor.connectString, '--allow-read-only', 'get', '/ro'])).toMatchObject({ code: 0, stdout: 'readable' });
    const write = await runInProcess(COMMANDS, ['--server', survivor.connectString, '--allow-read-only', 'set', '/ro', 'nope']);
    expect(write.code).toBe(7);
    expect(write.stderr).toMatch(/\[NOT_READ_ONLY\]\n$/);
    const refused = await runInProcess(COMMANDS, ['--server', survivor.connectString, '--timeout', '3000', 'get', '/ro']);
    expect(refused.code).toBe(69);
  });
});
