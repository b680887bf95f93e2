import { describe, expect, it } from 'vitest';

import { intOption, listOption, parseArgv, parseInteger } from '../../src/args.js';
import type { OptionSpecs } from '../../src/args.js';
import { ExitCode, exitCodeFor, UsageError } from '../../src/exit-codes.js';
import { globalOptions, parseAuth } from '../../src/global-options.js';
import { parseHostPort, serverHosts } from '../../src/hosts.js';

const specs: OptionSpecs = {
  ephemeral: { type: 'boolean', short: 'e', description: '' },
  sequential: { type: 'boolean', short: 's', description: '' },
  version: { type: 'string', short: 'v', description: '' },
  server: { type: 'string', description: '' },
  auth: { type: 'string', multiple: true, description: '' },
};

describe('parseArgv', () => {
  it('reads long options with separate and inline values, and positionals in any order', () => {
    const args = parseArgv(['/a', '--server', 'h:1/x', 'data', '--version=3'], specs);
    expect(args.positionals).toEqual(['/a', 'data']);
    expect(args.values).toMatchObject({ server: 'h:1/x', version: '3' });
  });

  it('clusters short flags and takes a short option value inline or from the next token', () => {
    expect(parseArgv(['-es', '/a'], specs).values).toMatchObject({ ephemeral: true, sequential: true });
    expect(parseArgv(['-ev7'], specs).values).toMatchObject({ ephemeral: true, version: '7' });
    expect(parseArgv(['-v', '7'], specs).values).toMatchObject({ version: '7' });
  });

  it('accepts a value that starts with a dash (version -1)', () => {
    expect(parseArgv(['-v', '-1', '/a'], specs).values['version']).toBe('-1');
  });

  it('collects repeated options marked multiple', () => {
    const args = parseArgv(['--auth', 'digest:a:b', '--auth=digest:c:d'], specs);
    expect(listOption(args, 'auth')).toEqual(['digest:a:b', 'digest:c:d']);
  });

  it('keeps everything after -- apart when asked, options included', () => {
    const args = parseArgv(['/lock', '-e', '--', 'sh', '-c', 'echo --server'], specs, { splitRest: true });
    expect(args.positionals).toEqual(['/lock']);
    expect(args.rest).toEqual(['sh', '-c', 'echo --server']);
    expect(parseArgv(['--', '-e'], specs).positionals).toEqual(['-e']);
  });

  it('rejects unknown options, missing values and values on flags as usage errors', () => {
    expect(() => parseArgv(['--nope'], specs)).toThrow(new UsageError('unknown option --nope'));
    expect(() => parseArgv(['-x'], specs)).toThrow('unknown option -x');
    expect(() => parseArgv(['--server'], specs)).toThrow('option --server needs a value');
    expect(() => parseArgv(['-v'], specs)).toThrow('option -v needs a value');
    expect(() => parseArgv(['--ephemeral=yes'], specs)).toThrow('option --ephemeral takes no value');
    expect(exitCodeFor(new UsageError('x'))).toBe(ExitCode.USAGE);
  });

  it('parses integers strictly', () => {
    expect(parseInteger('-1', 'version', -1)).toBe(-1);
    expect(() => parseInteger('-2', 'version', -1)).toThrow('version must be an integer ≥ -1');
    expect(() => parseInteger('1.5', 'x')).toThrow("x must be an integer, got '1.5'");
    expect(() => parseInteger('12ms', 'x')).toThrow(UsageError);
    expect(intOption(parseArgv(['--version', '42'], specs), 'version')).toBe(42);
  });
});

describe('global options', () => {
  it('takes the server from --server, then ZKTS_SERVER, then the default', () => {
    const parse = (argv: string[], env: NodeJS.ProcessEnv) => globalOptions(parseArgv(argv, { ...specs, timeout: { type: 'string', description: '' }, 'session-timeout': { type: 'string', description: '' }, json: { type: 'boolean', description: '' } }), env);
    expect(parse(['--server', 'a:1'], { ZKTS_SERVER: 'b:2' }).server).toBe('a:1');
    expect(parse([], { ZKTS_SERVER: 'b:2/chroot' }).server).toBe('b:2/chroot');
    expect(parse([], {}).server).toBe('127.0.0.1:2181');
    expect(parse([], { ZKTS_SERVER: '' }).server).toBe('127.0.0.1:2181');
    expect(() => parse(['--server', ''], {})).toThrow('--server must not be empty');
    expect(parse(['--auth', 'digest:u:p:q'], {}).auth).toEqual([{ scheme: 'digest', auth: 'u:p:q' }]);
  });

  it('splits auth specs at the first colon', () => {
    expect(parseAuth('digest:user:pass')).toEqual({ scheme: 'digest', auth: 'user:pass' });
    expect(() => parseAuth('nocolon')).toThrow(UsageError);
  });
});

describe('host lists', () => {
  it('parses IPv4, names and bracketed IPv6, with and without ports', () => {
    expect(serverHosts('a:1,b,[::1]:3,[fe80::1]/chroot/x')).toEqual([
      { host: 'a', port: 1 },
      { host: 'b', port: 2181 },
      { host: '::1', port: 3 },
      { host: 'fe80::1', port: 2181 },
    ]);
    expect(() => parseHostPort('host', undefined, '--upstream')).toThrow('--upstream: missing port');
    expect(() => parseHostPort('host:99999', undefined, '--upstream')).toThrow('bad port');
    expect(() => serverHosts('/chroot')).toThrow('no host');
  });
});
