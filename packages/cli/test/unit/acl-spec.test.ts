import { describe, expect, it } from 'vitest';

import { parseAclSpec } from '../../src/acl-spec.js';
import { ExitCode } from '../../src/exit-codes.js';
import { formatAcl } from '../../src/output.js';

describe('ACL specs', () => {
  it('parses several entries, ids with colons, and every permission letter', () => {
    const acl = parseAclSpec('world:anyone:cdrwa,digest:user:D/InIHSb7yEEbrWz8b9l71RjZJU=:r, ip:10.0.0.0/8:rw,ip:::1:a');
    expect(acl).toEqual([
      { perms: 31, id: { scheme: 'world', id: 'anyone' } },
      { perms: 1, id: { scheme: 'digest', id: 'user:D/InIHSb7yEEbrWz8b9l71RjZJU=' } },
      { perms: 3, id: { scheme: 'ip', id: '10.0.0.0/8' } },
      { perms: 16, id: { scheme: 'ip', id: '::1' } },
    ]);
  });

  it('prints ACLs back in the form it parses', () => {
    const spec = 'world:anyone:cdrwa,digest:user:D/InIHSb7yEEbrWz8b9l71RjZJU=:rw';
    expect(formatAcl(parseAclSpec(spec)).split('\n').join(',')).toBe(spec);
  });

  it('rejects malformed specs as usage errors', () => {
    for (const [spec, message] of [
      ['world:anyone', "bad ACL 'world:anyone': expected scheme:id:perms"],
      ['world:anyone:rx', "bad ACL 'world:anyone:rx': unknown permission 'x' (use letters of cdrwa)"],
      ['world:anyone:', "bad ACL 'world:anyone:': no permissions (use letters of cdrwa)"],
      ['world:anyone:r,,', "bad ACL 'world:anyone:r,,': empty entry"],
      [':x:r', "bad ACL ':x:r': expected scheme:id:perms"],
      // A digest id needs a whole base64 digest after the user: a password, a truncated or a padded-wrong hash is not one.
      ['digest:bob:secret:r', "bad ACL 'digest:bob:…:r': a digest id is USER:HASH"],
      ['digest:bob:D/InIHSb7yEEbrWz8b9l71RjZJ=:r', "bad ACL 'digest:bob:…:r': a digest id is USER:HASH"],
      ['digest:bob:D/InIHSb7yEEbrWz8b9l71RjZJU:r', "bad ACL 'digest:bob:…:r': a digest id is USER:HASH"],
      ['digest:bob:r', "bad ACL 'digest:bob:r': a digest id is USER:HASH"],
      ['digest::D/InIHSb7yEEbrWz8b9l71RjZJU=:r', "bad ACL 'digest::…:r': a digest id is USER:HASH"],
    ] as const) {
      expect(() => parseAclSpec(spec), spec).toThrow(message);
      try {
        parseAclSpec(spec);
      } catch (error) {
        expect((error as { exitCode: number }).exitCode).toBe(ExitCode.USAGE);
      }
    }
  });
});
