// The shell as a zkCli user meets it: its own help, errors that speak of the shell, the commands it does not
// run and why, session options refused per line, zkCli's names (addauth, getEphemerals, removewatches) in
// its one session, the events of -w watches printed when they come, and a prompt with server and state.
import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';

import { connect } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';
import { startFaultProxy } from '@zkts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { COMMANDS } from '../../src/commands/index.js';
import { dispatch } from '../../src/dispatch.js';
import { collect, sharedServer, spawnZkts, uniqueRoot, waitForOutput, zkts } from '../support/cli.js';

const server = sharedServer();
let client: ZkClient;

beforeAll(async () => {
  client = await connect(server);
});
afterAll(async () => {
  await client.close();
});

const env = { ZKTS_HISTORY: '' };
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('zkts shell for zkCli users', { timeout: 300_000 }, () => {
  it("help is the shell's own; errors point to it; lock, shell and session options are refused with reasons", async () => {
    const root = uniqueRoot('shell');
    await client.create(root, 'x');
    const lines = ['help', 'help get', 'getacl /', 'lock /l -- true', 'shell', `ls --auth digest:a:b ${root}`, `-server ${server} ls /`, 'ls -R -s /', `get ${root}`];
    const result = await zkts(['--server', server, 'shell'], { input: `${lines.join('\n')}\n`, env });
    expect(result.code).toBe(0);
    const [help = '', getHelp = ''] = result.stdout.split(/(?=^usage: get )/m);
    expect(help).toMatch(/^Commands, as on the command line without `zkts`, all in this shell's one session on /);
    expect(help).toMatch(/^ {2}exit, quit +leave the shell/m);
    expect(help).not.toMatch(/Exit codes|Options \(every command\)|--tls-ca/);
    expect(getHelp).toMatch(/^usage: get PATH \[--stat\] \[-w\] \[-b\|-x\]\n/);
    expect(getHelp).toMatch(/Any line may add --json \(JSON output\)\. The connection options were set when the shell started\.\nx\n$/);
    expect(result.stderr.split('\n')).toEqual([
      "zkts: unknown command 'getacl': did you mean 'getAcl' (acl get)? (`help` lists the commands)",
      expect.stringMatching(/^zkts: lock is not available inside the shell: it runs CMD on the shell's own terminal/),
      "zkts: shell is not available inside the shell: this is the shell already; `exit` leaves it, and `zkts --server HOST:PORT shell` in your system shell opens another",
      "zkts: ls: --auth: the shell's session was set up when it started (zkts --auth … shell); `auth SCHEME:CREDENTIALS` adds credentials to this session",
      'usage: ls [-R] [-s] [-w] [PATH]',
      "zkts: ls: --server: the shell's session was set up when it started (zkts --server … shell)",
      'usage: ls [-R] [-s] [-w] [PATH]',
      expect.stringMatching(/^zkts: ls: -s cannot be combined with -R/),
      'usage: ls [-R] [-s] [-w] [PATH]',
      '',
    ]);
    expect(result.stderr).not.toContain('zkts --help');
  });

  it("runs zkCli's addauth, getEphemerals and removewatches in its session", async () => {
    const root = uniqueRoot('shell');
    await client.create(root, 'v0');
    const lines = ['addauth digest zkcli:secret', 'whoami', `create -e ${root}/e1`, `create -e ${root}/e2`, `getEphemerals ${root}`, `get -w ${root}`, `removewatches ${root} -d`, 'removewatches / -c'];
    const result = await zkts(['--server', server, 'shell'], { input: `${lines.join('\n')}\n`, env });
    expect(result.code).toBe(7);
    const out = result.stdout.split('\n');
    expect(out).toContain('digest zkcli');
    const at = out.indexOf(`${root}/e2`);
    expect(out.slice(at + 1, at + 3)).toEqual([`${root}/e1`, `${root}/e2`]);
    expect(out).toContain('v0');
    // Removed watches report it, as zkCli's do (DataWatchRemoved).
    expect(out).toContain(`watch: dataWatchRemoved ${root}`);
    expect(result.stderr).toMatch(/^zkts: removewatches: .*\[NO_WATCHER\]\n$/);
  });

  it('prints the event of a -w watch when it fires, while the shell goes on', async () => {
    const root = uniqueRoot('shell');
    await client.create(root, 'v0');
    // A child already there, so the listing prints a line: the node changes only once both watches are set (on a
    // busy machine the shell may still be reading the second line when the first one's output appears).
    await client.create(`${root}/first`);
    const shell = spawnZkts(['--server', server, 'shell'], { keepStdin: true, env });
    const output = collect(shell);
    shell.stdin?.write(`get -w ${root}\nls -w ${root}\n`);
    await waitForOutput(output.stdout, /^v0\nfirst\n/);
    await client.setData(root, 'v1');
    await client.create(`${root}/child`);
    await waitForOutput(output.stdout, new RegExp(`^watch: dataChanged ${root}\\n(.*\\n)*watch: childrenChanged ${root}\\n`, 'm'));
    shell.stdin?.write(`get ${root}\n`);
    await waitForOutput(output.stdout, /^v1\n/m);
    shell.stdin?.end('exit\n');
    expect(await output.done).toMatchObject({ code: 0, stderr: '' });
  });

  it('on a terminal, connects at once and prompts with the server and the state of its session, as it changes', async () => {
    const [host = '', port = ''] = server.split(':');
    const proxy = await startFaultProxy({ host, port: Number(port) });
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 200 });
    const chunks: Buffer[] = [];
    stdout.on('data', (c: Buffer) => chunks.push(c));
    // Without the terminal's escape sequences (cursor moves, line clears).
    const seen = (): string => stripVTControlCharacters(Buffer.concat(chunks).toString('utf8'));
    const io = { stdin, stdout, stderr: new PassThrough(), env };
    const prompt = (state: string): string => `zkts ${proxy.connectString} (${state})> `;
    const after = (text: string): (() => string) => () => seen().slice(seen().lastIndexOf(text) + text.length);
    try {
      const done = dispatch(['--server', proxy.connectString, '--session-timeout', '4000', 'shell'], { io, commands: COMMANDS, signal: new AbortController().signal });
      await waitForOutput(seen, new RegExp(`zkts shell on ${proxy.connectString}\\. Tab completes`));
      // Nothing typed yet: the shell connected by itself.
      await waitForOutput(seen, new RegExp(escape(prompt('connected'))));
      proxy.blackhole();
      await waitForOutput(seen, new RegExp(escape(prompt('suspended'))));
      proxy.restore();
      await waitForOutput(after(prompt('suspended')), new RegExp(escape(prompt('connected'))));
      stdin.write('exit\n');
      expect(await done).toBe(0);
    } finally {
      proxy.restore();
      await proxy.close();
    }
  });
});
