// A command with actions parses each action's options: `quota set` takes `-n COUNT`, `quota rm` takes `-n` as a
// flag, and zkCli's alias commands take the same flags; `zkts quota --help` lists each action's options. Every
// refusal here comes before any connection is made.
import { describe, expect, it } from 'vitest';

import { parseArgv } from '../../src/args.js';
import { optionsOf } from '../../src/command.js';
import { COMMANDS } from '../../src/commands/index.js';
import { delquota, quota, setquota } from '../../src/commands/quota.js';
import { runInProcess } from '../support/run-in-process.js';

describe('quota arguments', () => {
  it('each action gets its own options, found after global options and their values', () => {
    const set = parseArgv(['set', '/a', '-n', '5', '-B', '9'], optionsOf(quota, ['set', '/a', '-n', '5', '-B', '9']));
    expect(set).toMatchObject({ positionals: ['set', '/a'], values: { count: '5', 'hard-bytes': '9' } });
    // `--server set`: the value of a global option is not the action; `rm` is.
    expect(optionsOf(quota, ['--server', 'set', 'rm', '-n', '/a'])).toEqual(quota.actionOptions?.['rm']);
    const rm = parseArgv(['rm', '-n', '/a', '-B'], optionsOf(quota, ['rm', '-n', '/a', '-B']));
    expect(rm).toMatchObject({ positionals: ['rm', '/a'], values: { count: true, 'hard-bytes': true } });
    // No action (or an unknown one): the command's own options only.
    expect(optionsOf(quota, ['list'])).toEqual({});
    expect(optionsOf(quota, ['-h'])).toEqual({});
  });

  it("zkCli's aliases take zkCli's flags", () => {
    expect(parseArgv(['-N', '3', '/a'], setquota.options)).toMatchObject({ positionals: ['/a'], values: { 'hard-count': '3' } });
    expect(parseArgv(['-b', '/a'], delquota.options)).toMatchObject({ positionals: ['/a'], values: { bytes: true } });
  });

  it('usage errors come before connecting', async () => {
    for (const [args, message] of [
      [['quota', 'set', '/a', '-n'], 'option -n needs a value'],
      [['quota', 'set', '/a', '-n', 'x'], "-n (--count) must be an integer, got 'x'"],
      [['quota', 'set', '/a', '-b', '-1'], "-b (--bytes) must be an integer ≥ 0, got '-1'"],
      [['quota', 'set', '/a'], 'give at least one of -n, -b, -N, -B'],
      [['quota', 'get', '/a', '-n'], 'unknown option -n'],
      [['quota', 'get'], 'missing PATH'],
      [['quota', 'list', 'extra'], "unexpected argument 'extra'"],
      [['quota'], 'missing set, get, list or rm'],
      [['setquota', '-x', '1', '/a'], 'unknown option -x'],
    ] as const) {
      const r = await runInProcess(COMMANDS, [...args]);
      expect(r.code, args.join(' ')).toBe(64);
      expect(r.stderr, args.join(' ')).toContain(message);
    }
  });

  it('the help of quota lists the options of set and of rm', async () => {
    const r = await runInProcess(COMMANDS, ['quota', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Options of `quota set`:\n  -n, --count COUNT ');
    expect(r.stdout).toContain('Options of `quota rm`:\n  -n, --count ');
  });
});
