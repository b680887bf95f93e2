// MIT krb5's failure messages turned into KerberosError reasons.
import { describe, expect, it } from 'vitest';
import { kerberosError } from '../../src/errors.js';

describe('Kerberos failures', () => {
  it("MIT krb5's messages map to reasons", () => {
    const cases: [string, string][] = [
      ['No Kerberos credentials available (default cache: FILE:/tmp/x)', 'no-credentials'],
      ["Can't find client principal alice@ZKTS.TEST in cache collection", 'no-credentials'],
      ['Ticket expired', 'expired'],
      ['The referenced credential has expired', 'expired'],
      ['Server zookeeper/nohost@ZKTS.TEST not found in Kerberos database', 'unknown-server'],
      ['Server not found in Kerberos database', 'unknown-server'],
      ['Cannot contact any KDC for realm ZKTS.TEST', 'kdc-unreachable'],
      ['Something else entirely', 'gssapi'],
    ];
    for (const [message, reason] of cases) expect(kerberosError(new Error(message), 'test').reason, message).toBe(reason);
  });
});
