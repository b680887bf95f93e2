// zkCli habits that need no server: its leading options, its command names and flags as help shows them,
// "did you mean" for commands, actions and options, and the pure helpers of its flags (-x, -b, config -c).
import { describe, expect, it } from 'vitest';

import { parseArgv } from '../../src/args.js';
import type { OptionSpecs } from '../../src/args.js';
import { COMMANDS } from '../../src/commands/index.js';
import { clientConnectString } from '../../src/commands/config.js';
import { hexDump } from '../../src/commands/get.js';
import { fromBase64 } from '../../src/commands/set.js';
import { shellPrompt } from '../../src/commands/shell.js';
import { commandHelp, shellHelp } from '../../src/help.js';
import { carriesCredentials } from '../../src/history.js';
import { editDistance, nearest } from '../../src/suggest.js';
import { translateZkCliGlobals } from '../../src/zkcli.js';
import { runInProcess } from '../support/run-in-process.js';

const run = (argv: string[]): ReturnType<typeof runInProcess> => runInProcess(COMMANDS, argv);

describe('suggestions', () => {
  it('measures edits with a swap of neighbours as one', () => {
    expect(editDistance('stat', 'stat')).toBe(0);
    expect(editDistance('tsat', 'stat')).toBe(1);
    expect(editDistance('delet', 'delete')).toBe(1);
    expect(editDistance('', 'ls')).toBe(2);
  });

  it('prefers the same word in another case, then the fewest edits, then a started word', () => {
    expect(nearest('getacl', ['getAcl', 'setAcl', 'acl'])).toEqual(['getAcl']);
    expect(nearest('tsat', ['stat', 'set', 'ls'])).toEqual(['stat']);
    expect(nearest('delet', ['delete', 'deleteall', 'get'])).toEqual(['delete', 'deleteall']);
    expect(nearest('getEph', ['getEphemerals', 'get'])).toEqual(['getEphemerals']);
    expect(nearest('frobnicate', ['ls', 'get', 'set'])).toEqual([]);
    expect(nearest('x', ['ls', 'rm'])).toEqual([]);
  });
});

describe("zkCli's options before the command", () => {
  it('become ours: -server, -timeout as the session timeout, -r as --allow-read-only, -waitforconnection dropped', () => {
    expect(translateZkCliGlobals(['-server', 'h:1', '-timeout', '6000', '-r', '-waitforconnection', 'ls', '/'])).toEqual({
      argv: ['--server', 'h:1', '--session-timeout', '6000', '--allow-read-only', 'ls', '/'],
      zkCliServer: true,
    });
  });

  it('are left alone after the command name, after --, and as the value of one of our options', () => {
    expect(translateZkCliGlobals(['ls', '-r', '-server'])).toEqual({ argv: ['ls', '-r', '-server'], zkCliServer: false });
    expect(translateZkCliGlobals(['--', '-server', 'x'])).toEqual({ argv: ['--', '-server', 'x'], zkCliServer: false });
    expect(translateZkCliGlobals(['--tls-ca', '-r', 'ls']).argv).toEqual(['--tls-ca', '-r', 'ls']);
  });

  it('refuse -client-configuration and a missing value in words', () => {
    expect(() => translateZkCliGlobals(['-client-configuration', 'zk.properties', 'ls'])).toThrow(/zkts reads no Java client properties; use --tls-ca/);
    expect(() => translateZkCliGlobals(['-server'])).toThrow('option -server needs a value');
  });
});

describe('did you mean', () => {
  const specs: OptionSpecs = {
    recursive: { type: 'boolean', short: 'R', description: '' },
    server: { type: 'string', description: '' },
    stat: { type: 'boolean', short: 's', description: '' },
  };

  it('suggests the near long option, and the long option a single dash was typed for', () => {
    expect(() => parseArgv(['--recursiv'], specs)).toThrow('unknown option --recursiv: did you mean --recursive?');
    expect(() => parseArgv(['-recursive'], specs)).toThrow('unknown option -recursive: did you mean --recursive?');
    expect(() => parseArgv(['--zzz'], specs)).toThrow(/^unknown option --zzz$/);
  });

  it("says what a command's hint says about a flag it lacks", () => {
    expect(() => parseArgv(['-m', 'X'], specs, { hints: { '-m': 'use --recursive' } })).toThrow('unknown option -m: use --recursive');
    expect(() => parseArgv(['-server', 'h'], specs, { hints: { '-server': 'before the command' } })).toThrow('unknown option -server: before the command');
  });

  it('answers an unknown command with the near names, zkCli names with the zkts command they run', async () => {
    expect(await run(['getacl', '/a'])).toEqual({ code: 64, stdout: '', stderr: "zkts: unknown command 'getacl': did you mean 'getAcl' (acl get)? (see zkts --help)\n" });
    expect((await run(['delet', '/a'])).stderr).toBe("zkts: unknown command 'delet': did you mean 'delete' (rm) or 'deleteall' (rm -r)? (see zkts --help)\n");
    expect((await run(['lss'])).stderr).toBe("zkts: unknown command 'lss': did you mean 'ls'? (see zkts --help)\n");
    expect((await run(['frobnicate'])).stderr).toBe("zkts: unknown command 'frobnicate' (see zkts --help)\n");
    const json = await run(['--json', 'getacl', '/a']);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'USAGE', exitCode: 64, command: 'getacl', suggestions: ['getAcl'] } });
    expect((await run(['help', 'getacl'])).stderr).toMatch(/did you mean 'getAcl' \(acl get\)\?/);
  });

  it("says what to use for zkCli's commands that zkts has no name for", async () => {
    expect((await run(['addWatch', '-m', 'PERSISTENT_RECURSIVE', '/a'])).stderr).toMatch(/^zkts: unknown command 'addWatch': use `watch PATH` .*`watch PATH --recursive`/);
    expect((await run(['ls2', '/a'])).stderr).toMatch(/use `ls -s PATH`/);
    expect((await run(['history'])).stderr).toMatch(/up arrow and Ctrl-R/);
    expect((await run(['listquot', '/a'])).stderr).toMatch(/did you mean 'listquota' \(quota get\)\?/);
  });

  it("points zkCli's flags that zkts spells otherwise to the zkts way", async () => {
    expect((await run(['watch', '-m', 'PERSISTENT_RECURSIVE', '/a'])).stderr).toMatch(/^zkts: watch: unknown option -m: zkCli's addWatch -m MODE: .*watch PATH --recursive is PERSISTENT_RECURSIVE\n/);
    expect((await run(['delete', '-r', '/a'])).stderr).toMatch(/^zkts: delete: unknown option -r: delete removes one node; deleteall PATH \(rm -r PATH\) removes a subtree\n/);
  });

  it('finds the command after zkCli options and flags zkCli options typed after it', async () => {
    const late = await run(['ls', '-server', 'h:1', '/']);
    expect(late.code).toBe(64);
    expect(late.stderr).toMatch(/^zkts: ls: unknown option -server: zkCli's -server goes before the command/);
    expect((await run(['-server', '127.0.0.1:1', 'ls', '--bogus'])).stderr).toMatch(/^zkts: ls: unknown option --bogus\n/);
  });

  it('names the actions of acl, and a path where the action belongs, without the doubled prefix', async () => {
    expect(await run(['acl', 'frob', '/a'])).toMatchObject({ code: 64, stderr: "zkts: acl: unknown action 'frob' (get, set or digest)\nusage: zkts acl get PATH | set PATH SPEC [-v VERSION] | digest USER:PASSWORD|-\n" });
    expect((await run(['acl', 'gte', '/a'])).stderr).toMatch(/^zkts: acl: unknown action 'gte' \(get, set or digest\): did you mean 'get'\?\n/);
    expect((await run(['acl', 'digset', 'a:b'])).stderr).toMatch(/^zkts: acl: unknown action 'digset' \(get, set or digest\): did you mean 'digest'\?\n/);
    expect((await run(['acl', '/a'])).stderr).toMatch(/^zkts: acl: missing action before \/a: zkts acl get \/a\n/);
    expect((await run(['acl'])).stderr).toMatch(/^zkts: acl: missing action \(get, set or digest\)\n/);
  });

  it('refuses -R with -s or -w on ls, pointing to stat and watch', async () => {
    expect((await run(['ls', '-R', '-s', '/'])).stderr).toMatch(/-s cannot be combined with -R \(stat PATH/);
    expect((await run(['ls', '-Rw', '/'])).stderr).toMatch(/`watch PATH --recursive` reports every change/);
    expect((await run(['ls', '-r', '/'])).stderr).toMatch(/unknown option -r: did you mean -R/);
  });
});

describe('zkCli names in help', () => {
  it('zkts --help lists them apart, with the command each runs, and the zkCli options', async () => {
    const { stdout } = await run(['--help']);
    const [commands = '', zkCli = ''] = stdout.split('zkCli names');
    expect(commands).not.toMatch(/^ {2}deleteall /m);
    expect(zkCli).toMatch(/^ {2}deleteall +same as `rm -r`$/m);
    expect(zkCli).toMatch(/^ {2}getAcl +same as `acl get`$/m);
    expect(zkCli).toMatch(/-server HOST:PORT, -timeout MS \(the session timeout\) and -r/);
    for (const name of ['sync', 'ephemerals', 'count', 'unwatch', 'config', 'version']) expect(commands).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it("a command's help names its zkCli aliases; an alias's help says what it runs", async () => {
    expect((await run(['rm', '--help'])).stdout).toContain('zkCli names: delete (rm), deleteall (rm -r), rmr (rm -r).');
    const deleteall = await run(['help', 'deleteall']);
    expect(deleteall.stdout).toMatch(/^usage: zkts deleteall PATH \[-b BATCH\]\n/);
    expect(deleteall.stdout).toContain("zkCli's deleteall, run as `zkts rm -r`");
  });

  it('batch sizes of deleteall are checked although they change nothing', async () => {
    expect((await run(['deleteall', '/a', '-b', 'x'])).stderr).toMatch(/-b must be an integer, got 'x'/);
  });
});

describe("helpers of zkCli's flags", () => {
  it('hexDump lays bytes out like hexdump -C', () => {
    expect(hexDump(new TextEncoder().encode('hello, zookeeper!\n'))).toBe(
      '00000000  68 65 6c 6c 6f 2c 20 7a  6f 6f 6b 65 65 70 65 72  |hello, zookeeper|\n' + '00000010  21 0a                                             |!.|',
    );
    expect(hexDump(new Uint8Array(0))).toBe('');
  });

  it('fromBase64 is strict', () => {
    expect(Buffer.from(fromBase64('aGk=')).toString()).toBe('hi');
    expect(Buffer.from(fromBase64('aGk')).toString()).toBe('hi');
    expect(() => fromBase64('not base64!')).toThrow('-b: DATA is not base64');
    expect(() => fromBase64('aGkxA')).toThrow('-b: DATA is not base64');
  });

  it("clientConnectString reads config -c's VERSION HOST:PORT list", () => {
    const config = ['server.1=zk1:2888:3888:participant;0.0.0.0:2181', 'server.2=zk2:2888:3888:observer;zk2:2182', 'server.3=zk3:2888:3888', 'version=100000003'].join('\n');
    expect(clientConnectString(config)).toBe('100000003 0.0.0.0:2181,zk2:2182');
    expect(clientConnectString('server.1=zk1:2888:3888;2181\nversion=1')).toBe('1 0.0.0.0:2181');
    expect(clientConnectString('')).toBe(' ');
  });

  it("keeps zkCli's addauth lines out of the shell history too", () => {
    expect(carriesCredentials('addauth digest user:secret')).toBe(true);
    expect(carriesCredentials('addauthor /x')).toBe(false);
  });
});

describe("the shell's own help and prompt", () => {
  it('help lists what a line runs and the keys of the shell, not the options and exit codes of zkts', () => {
    const help = shellHelp(COMMANDS, 'zk1:2181/app');
    expect(help).toMatch(/^Commands, as on the command line without `zkts`, all in this shell's one session on zk1:2181\/app:\n/);
    expect(help).toMatch(/^ {2}get +print a node's data$/m);
    expect(help).toMatch(/^ {2}getAcl +same as `acl get`$/m);
    expect(help).toMatch(/^ {2}exit, quit +leave the shell/m);
    expect(help).toMatch(/^ {2}lock +it runs CMD on the shell's own terminal and stdin/m);
    expect(help).toMatch(/^ {2}shell +this is the shell already; `exit` leaves it/m);
    expect(help).not.toMatch(/^ {2}(lock|shell) +(run a command|an interactive)/m);
    for (const topLevel of ['Exit codes', 'Options (every command)', '--tls-ca', 'zkts --help']) expect(help).not.toContain(topLevel);
  });

  it("one command's help in the shell has no zkts, no connection options, and says why lock is not there", () => {
    const lock = COMMANDS.find((c) => c.name === 'lock');
    const get = COMMANDS.find((c) => c.name === 'get');
    if (lock === undefined || get === undefined) throw new Error('no lock or get command');
    expect(commandHelp(get, { shell: true })).toMatch(/^usage: get PATH /);
    expect(commandHelp(get, { shell: true })).not.toMatch(/Common options|--server|zkts --help/);
    expect(commandHelp(lock, { shell: true })).toContain("Not available inside the shell: it runs CMD on the shell's own terminal");
  });

  it('the prompt names the server and the state of the session', () => {
    expect(shellPrompt('127.0.0.1:2181', 'connected')).toBe('zkts 127.0.0.1:2181 (connected)> ');
    expect(shellPrompt('zk1:2181,zk2:2181/app', 'idle')).toBe('zkts zk1:2181,zk2:2181/app (not connected)> ');
    expect(shellPrompt('h:1', 'connected-read-only')).toBe('zkts h:1 (read-only)> ');
    expect(shellPrompt('h:1', 'suspended')).toBe('zkts h:1 (suspended)> ');
  });
});
