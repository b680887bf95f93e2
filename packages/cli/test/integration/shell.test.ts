import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { connect } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';
import { startFaultProxy } from '@zkts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { complete } from '../../src/completion.js';
import { collect, sharedServer, spawnZkts, uniqueRoot, waitForOutput, zkts } from '../support/cli.js';

const server = sharedServer();
const [host = '', port = ''] = server.split(':');
let client: ZkClient;

beforeAll(async () => {
  client = await connect(server);
});
afterAll(async () => {
  await client.close();
});

// Every test spawns the CLI (node + tsx) several times; on two shared cores that can take minutes.
describe('zkts shell', { timeout: 300_000 }, () => {
  it('runs piped commands in one session, survives errors, and exits with the last status', async () => {
    const root = uniqueRoot('shell');
    const history = join(mkdtempSync(join(tmpdir(), 'zkts-shell-')), 'history');
    const script = [
      `create ${root} "two words"`,
      '# a comment, then an empty line',
      '',
      `create -e ${root}/eph`,
      `get ${root}/missing`,
      `get ${root}`,
      `--json stat ${root}/eph`,
      `lock ${root}/l -- true`,
      `get "${root}`,
      `ls ${root}`,
      `set ${root} x -v 99`,
    ].join('\n');
    const result = await zkts(['--server', server, 'shell'], { input: `${script}\n`, env: { ZKTS_HISTORY: history } });
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(root);
    expect(lines[1]).toBe(`${root}/eph`);
    expect(lines[2]).toBe('two words');
    // The ephemeral node is owned by the shell's one session.
    expect(JSON.parse(lines[3] ?? '')).toMatchObject({ path: `${root}/eph`, stat: { ephemeralOwner: expect.stringMatching(/^[1-9]\d*$/) } });
    expect(lines.slice(4)).toEqual(['eph', '']);
    expect(result.stderr.split('\n')).toEqual([
      expect.stringMatching(/^zkts: get: no node .*\[NO_NODE\]$/),
      expect.stringMatching(/^zkts: lock is not available inside the shell: it runs CMD on the shell's own terminal and stdin .* run it from your system shell: zkts --server HOST:PORT lock PATH -- CMD$/),
      'zkts: unclosed double quote',
      expect.stringMatching(/^zkts: set: .*\[BAD_VERSION\]$/),
      '',
    ]);
    expect(result.code).toBe(4);
    expect(readFileSync(history, 'utf8')).toBe(`${script.split('\n').filter((l) => l !== '').join('\n')}\n`);
    // The session ended with the shell.
    expect(await client.exists(`${root}/eph`)).toBeNull();
  });

  it('stops at exit, and exits 0 when the last command succeeded', async () => {
    const root = uniqueRoot('shell');
    const result = await zkts(['--server', server, 'shell'], { input: `create ${root}\nexit\ncreate ${root}/never\n`, env: { ZKTS_HISTORY: '' } });
    expect(result).toMatchObject({ code: 0, stdout: `${root}\n`, stderr: '' });
    expect(await client.exists(`${root}/never`)).toBeNull();
  });

  it('completes command names and child paths', async () => {
    const root = uniqueRoot('shell');
    for (const p of [root, `${root}/alpha`, `${root}/alps`, `${root}/beta`, `${root}/alpha/x`]) await client.create(p);
    const names = ['ls', 'lock', 'get', 'set'];
    const open = (): Promise<ZkClient> => Promise.resolve(client);
    expect(await complete('l', names, open)).toEqual([['lock', 'ls'], 'l']);
    expect(await complete(`ls ${root}/al`, names, open)).toEqual([[`${root}/alpha`, `${root}/alps`], `${root}/al`]);
    expect(await complete(`get ${root}/`, names, open)).toEqual([[`${root}/alpha`, `${root}/alps`, `${root}/beta`], `${root}/`]);
    expect(await complete(`get ${root}/alpha/`, names, open)).toEqual([[`${root}/alpha/x`], `${root}/alpha/`]);
    expect(await complete(`get ${root}/nope/`, names, open)).toEqual([[], `${root}/nope/`]);
    expect(await complete('set x', names, open)).toEqual([[], 'x']);
    const rootChildren = (await complete('ls /', names, open))[0];
    expect(rootChildren).toContain(root);
  });

  it('keeps credentials out of the history file, which is private (0600)', async () => {
    const root = uniqueRoot('shell');
    const dir = mkdtempSync(join(tmpdir(), 'zkts-history-'));
    // An existing file from an older zkts: world-readable, with a password in it.
    const old = join(dir, 'old');
    writeFileSync(old, 'ls /\nauth digest:old:hunter2\n');
    chmodSync(old, 0o644);
    const fresh = join(dir, 'fresh');
    const script = [`create ${root}`, 'auth digest:user:s3cret', `ls ${root} --auth=digest:other:pw2`, '  "auth" digest:quoted:pw3', `get ${root}`].join('\n');
    const [withOld, withFresh] = await Promise.all([
      zkts(['--server', server, 'shell'], { input: `${script}\n`, env: { ZKTS_HISTORY: old } }),
      zkts(['--server', server, 'shell'], { input: `get ${root}\nauth digest:user:s3cret\n`, env: { ZKTS_HISTORY: fresh } }),
    ]);
    expect(withOld.code).toBe(0);
    expect(withOld.stdout).toMatch(/^digest user$/m);
    expect(readFileSync(old, 'utf8')).toBe(`ls /\ncreate ${root}\nget ${root}\n`);
    expect(statSync(old).mode & 0o777).toBe(0o600);
    expect(withFresh.code).toBe(0);
    expect(readFileSync(fresh, 'utf8')).toBe(`get ${root}\n`);
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
  });

  it('times out a request after --timeout with exit 75 while the session is alive', async () => {
    const proxy = await startFaultProxy({ host, port: Number(port) });
    try {
      const shell = spawnZkts(['--server', proxy.connectString, '--timeout', '1500', 'shell'], { keepStdin: true, env: { ZKTS_HISTORY: '' } });
      const output = collect(shell);
      shell.stdin?.write('ls /\n');
      await waitForOutput(output.stdout, /zookeeper/);
      proxy.blackhole();
      shell.stdin?.end('ls /\n');
      const result = await output.done;
      expect(result.code).toBe(75);
      expect(result.stderr).toMatch(/^zkts: ls: .*\[TIMEOUT\]\n$/);
    } finally {
      proxy.restore();
      await proxy.close();
    }
  });
});
