// What the CLI prints at its edges: a reader that goes away (EPIPE), get -s, --version, errors under --json,
// a subtree with an unreadable node, and watch events (which carry no zxid from the server).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { Acls, connect, digestId, Perms } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { COMMANDS } from '../../src/commands/index.js';
import { collect, jsonLines, sharedServer, spawnZkts, uniqueRoot, waitForOutput, zkts } from '../support/cli.js';
import { runInProcess } from '../support/run-in-process.js';

const server = sharedServer();
const s = ['--server', server];
const STACK = /\n\s+at |node:internal|EPIPE/;
let client: ZkClient;

beforeAll(async () => {
  client = await connect(server);
});
afterAll(async () => {
  await client.close();
});

/** Runs zkts with its stdout closed by the reader: after the first chunk, or before anything was written. */
async function withClosedStdout(args: string[], after: 'first-chunk' | 'start'): Promise<{ code: number | null; stderr: string; first: string }> {
  const child = spawnZkts(args);
  const output = collect(child);
  let first = '';
  if (after === 'start') child.stdout?.destroy();
  else {
    first = await new Promise<string>((resolve) => child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
    child.stdout?.destroy();
  }
  const result = await output.done;
  return { code: result.code, stderr: result.stderr, first };
}

describe('output at the edges', { timeout: 300_000 }, () => {
  it('stops quietly with exit 0 when the reader of stdout goes away (EPIPE)', async () => {
    const root = uniqueRoot('epipe');
    await client.create(root);
    await Promise.all(Array.from({ length: 300 }, (_, i) => client.create(`${root}/n${String(i).padStart(3, '0')}`, 'x'.repeat(200))));
    const big = `${root}/big`;
    await client.create(big, new Uint8Array(512 * 1024).fill(0x61));
    const transcript = fileURLToPath(new URL('../fixtures/java-client-session.json', import.meta.url));
    const [lsR, lsJson, tree, get, decode] = await Promise.all([
      withClosedStdout([...s, 'ls', '-R', root], 'first-chunk'),
      withClosedStdout([...s, '--json', 'ls', '-R', root], 'first-chunk'),
      withClosedStdout([...s, 'tree', root], 'start'),
      withClosedStdout([...s, 'get', big], 'start'),
      withClosedStdout(['decode', transcript], 'start'),
    ]);
    expect(lsR.first.startsWith(`${root}\n`)).toBe(true);
    // decode formats the whole file in one go and still prints its summary (a note, not an error).
    expect(decode.code).toBe(0);
    expect(decode.stderr).toMatch(/^1 connection\(s\): 70 frames, .*\n$/);
    expect(decode.stderr).not.toMatch(STACK);
    for (const [name, result] of Object.entries({ lsR, lsJson, tree, get })) {
      expect({ name, code: result.code, stderr: result.stderr }).toEqual({ name, code: 0, stderr: '' });
      expect(result.stderr).not.toMatch(STACK);
    }
  });

  it('get -s puts the data on its own line before the stat block; JSON keeps them as fields', async () => {
    const root = uniqueRoot('gets');
    await client.create(root, 'hello');
    await client.create(`${root}/empty`);
    await client.create(`${root}/line`, 'line\n');
    const [plain, empty, line, json] = await Promise.all([
      zkts([...s, 'get', '-s', root]),
      zkts([...s, 'get', '--stat', `${root}/empty`]),
      zkts([...s, 'get', '-s', `${root}/line`]),
      zkts([...s, '--json', 'get', '-s', root]),
    ]);
    expect(plain.stdout).toMatch(/^hello\nczxid = 0x[0-9a-f]+\n(.*\n)*numChildren = 2\n$/);
    expect(empty.stdout).toMatch(/^\nczxid = /);
    expect(line.stdout).toMatch(/^line\nczxid = /);
    expect(JSON.parse(json.stdout)).toMatchObject({ path: root, data: 'hello', encoding: 'utf8', stat: { dataLength: 5, numChildren: 2 } });
    // Without -s nothing changes: the data byte for byte.
    expect((await zkts([...s, 'get', root])).stdout).toBe('hello');
  });

  it('--version prints the version of the package', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await runInProcess(COMMANDS, ['--version'])).toEqual({ code: 0, stdout: `zkts ${version}\n`, stderr: '' });
    expect(await runInProcess(COMMANDS, ['--json', '--version'])).toEqual({ code: 0, stdout: `{"name":"zkts","version":"${version}"}\n`, stderr: '' });
    expect(await zkts(['--version'])).toMatchObject({ code: 0, stdout: `zkts ${version}\n` });
    expect((await runInProcess(COMMANDS, ['--help'])).stdout).toMatch(/--version/);
  });

  it('with --json, every error is one JSON object on stderr with its code and exit code', async () => {
    const [missing, usage, unknown, parse, connect] = await Promise.all([
      zkts([...s, '--json', 'get', '/definitely/not/here']),
      runInProcess(COMMANDS, ['--json', 'ls', '--bogus']),
      runInProcess(COMMANDS, ['--json', 'frobnicate']),
      runInProcess(COMMANDS, ['ls', '--timeout', 'soon', '--json']),
      runInProcess(COMMANDS, ['--json', '--server', 'zk://x', 'ls']),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr.endsWith('\n')).toBe(true);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(missing.stderr)).toEqual({ error: { code: 'NO_NODE', message: 'no node (/definitely/not/here)', exitCode: 2, command: 'get' } });
    expect(JSON.parse(usage.stderr)).toEqual({ error: { code: 'USAGE', message: 'unknown option --bogus', exitCode: 64, command: 'ls', usage: 'usage: zkts ls [-R] [-s] [-w] [PATH]' } });
    expect(JSON.parse(unknown.stderr)).toMatchObject({ error: { code: 'USAGE', exitCode: 64, message: "unknown command 'frobnicate' (see zkts --help)" } });
    expect(JSON.parse(parse.stderr)).toMatchObject({ error: { code: 'USAGE', exitCode: 64, message: "--timeout must be an integer, got 'soon'" } });
    expect(JSON.parse(connect.stderr)).toMatchObject({ error: { code: 'USAGE', exitCode: 64, message: expect.stringMatching(/no scheme/) } });
  });

  it('ls -R and tree report an unreadable node, keep walking, and exit 8 (partial)', async () => {
    const root = uniqueRoot('partial');
    for (const p of [root, `${root}/a`, `${root}/a/x`, `${root}/secret`, `${root}/secret/hidden`, `${root}/z`]) await client.create(p);
    // Not readable by this session; ADMIN for anyone so the test can open it again afterwards.
    await client.setACL(`${root}/secret`, [
      { perms: Perms.ALL, id: { scheme: 'digest', id: digestId('alice', 'pw') } },
      { perms: Perms.ADMIN, id: { scheme: 'world', id: 'anyone' } },
    ]);
    const [text, json, tree, treeJson, allowed] = await Promise.all([
      zkts([...s, 'ls', '-R', root]),
      zkts([...s, '--json', 'ls', '-R', root]),
      zkts([...s, 'tree', root]),
      zkts([...s, '--json', 'tree', root]),
      zkts([...s, '--auth', 'digest:alice:pw', 'ls', '-R', root]),
    ]);
    expect(text.code).toBe(8);
    expect(text.stdout).toBe([root, `${root}/a`, `${root}/a/x`, `${root}/secret`, `${root}/z`, ''].join('\n'));
    expect(text.stderr).toMatch(new RegExp(`^zkts: ls: cannot list the children of ${root}/secret: .*\\[NO_AUTH\\]\\nzkts: ls: partial listing: 1 node could not be read`));
    expect(json.code).toBe(8);
    expect(jsonLines(json.stdout)).toEqual([
      { path: root },
      { path: `${root}/a` },
      { path: `${root}/a/x` },
      { path: `${root}/secret`, error: { code: 'NO_AUTH', message: expect.any(String) } },
      { path: `${root}/z` },
    ]);
    expect(jsonLines(json.stderr)).toEqual([
      { error: expect.objectContaining({ code: 'NO_AUTH', path: `${root}/secret`, command: 'ls' }) },
      { error: expect.objectContaining({ code: 'PARTIAL', exitCode: 8, command: 'ls' }) },
    ]);
    expect(tree.code).toBe(8);
    expect(tree.stdout).toBe(`${root}\n├── a\n│   └── x\n├── secret  [children unreadable: NO_AUTH]\n└── z\n`);
    expect(tree.stderr).toMatch(/cannot list the children of .*\/secret: .*\[NO_AUTH\]\n.*partial tree/);
    expect(JSON.parse(treeJson.stdout)).toMatchObject({ children: [{ name: 'a' }, { name: 'secret', error: { code: 'NO_AUTH' } }, { name: 'z' }] });
    expect(allowed).toMatchObject({ code: 0, stderr: '' });
    expect(allowed.stdout).toContain(`${root}/secret/hidden\n`);
    // The root itself unreadable is a plain NO_AUTH, as for ls without -R.
    expect((await zkts([...s, 'ls', '-R', `${root}/secret`])).code).toBe(5);
    await client.setACL(`${root}/secret`, Acls.openUnsafe());
  });

  it('watch events show no zxid (the server sends -1 for none)', async () => {
    const root = uniqueRoot('watchzxid');
    await client.create(root);
    const child = spawnZkts([...s, '--json', 'watch', root]);
    const output = collect(child);
    await waitForOutput(output.stderr, /watching/);
    await client.setData(root, 'changed');
    await waitForOutput(output.stdout, /dataChanged/);
    child.kill('SIGINT');
    const result = await output.done;
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)).toEqual([{ type: 'dataChanged', path: root }]);
  });
});
