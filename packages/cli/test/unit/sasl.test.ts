// `--sasl` specs: DIGEST-MD5 credentials (a password may contain ':') and Kerberos with an optional principal.
import { describe, expect, it } from 'vitest';

import { globalOptions, GLOBAL_OPTIONS } from '../../src/global-options.js';
import { parseArgv } from '../../src/args.js';
import { parseSasl, saslOptions } from '../../src/sasl.js';

describe('--sasl', () => {
  it('digest:USER:PASSWORD, the password taking every further colon', () => {
    expect(parseSasl('digest:bob:p:a:ss')).toEqual({ kind: 'digest', username: 'bob', password: 'p:a:ss' });
    expect(parseSasl('digest:bob:')).toEqual({ kind: 'digest', username: 'bob', password: '' });
  });

  it('kerberos with or without a principal', () => {
    expect(parseSasl('kerberos')).toEqual({ kind: 'kerberos', principal: undefined });
    expect(parseSasl('kerberos:alice@EXAMPLE.COM')).toEqual({ kind: 'kerberos', principal: 'alice@EXAMPLE.COM' });
  });

  it('anything else is a usage error (exit 64)', () => {
    for (const bad of ['digest', 'digest:bob', 'digest::pw', 'kerberos:', 'plain:u:p', '']) {
      expect(() => parseSasl(bad), bad).toThrow(expect.objectContaining({ exitCode: 64 }));
    }
  });

  it('is a global option, and becomes the client option', async () => {
    const args = parseArgv(['--sasl', 'digest:bob:pw'], GLOBAL_OPTIONS);
    const options = globalOptions(args, {});
    expect(options.sasl).toEqual({ kind: 'digest', username: 'bob', password: 'pw' });
    expect(await saslOptions(options.sasl!)).toEqual({ mechanism: 'DIGEST-MD5', username: 'bob', password: 'pw' });
    const kerberos = await saslOptions({ kind: 'kerberos', principal: 'alice@R' });
    expect((kerberos.mechanism as { name: string }).name).toBe('GSSAPI');
  });
});
