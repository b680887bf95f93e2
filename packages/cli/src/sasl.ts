/**
 * `--sasl`: SASL authentication for the session, right after the handshake (the client's `sasl` option).
 *   digest:USER:PASSWORD    DIGEST-MD5, a user of the server's DigestLoginModule (the password may hold ':')
 *   kerberos[:PRINCIPAL]    GSSAPI, with tickets from the ticket cache (KRB5CCNAME) or a keytab
 *                           (KRB5_CLIENT_KTNAME); needs the optional @zkts/sasl-kerberos package, loaded only then
 */
import type { SaslOptions } from '@zkts/protocol';
import type * as SaslKerberos from '@zkts/sasl-kerberos';

import { CliError, ExitCode, UsageError } from './exit-codes.js';

export type SaslSpec = { kind: 'digest'; username: string; password: string } | { kind: 'kerberos'; principal: string | undefined };

export function parseSasl(spec: string): SaslSpec {
  const colon = spec.indexOf(':');
  const kind = colon < 0 ? spec : spec.slice(0, colon);
  const rest = colon < 0 ? undefined : spec.slice(colon + 1);
  if (kind === 'digest') {
    const sep = rest?.indexOf(':') ?? -1;
    if (rest === undefined || sep <= 0) throw new UsageError(`--sasl digest needs digest:USER:PASSWORD, got '${spec}'`);
    return { kind: 'digest', username: rest.slice(0, sep), password: rest.slice(sep + 1) };
  }
  if (kind === 'kerberos') {
    if (rest === '') throw new UsageError('--sasl kerberos: the principal after the colon is empty');
    return { kind: 'kerberos', principal: rest };
  }
  throw new UsageError(`--sasl must be digest:USER:PASSWORD or kerberos[:PRINCIPAL], got '${spec}'`);
}

/** The client's `sasl` option; for Kerberos, loads @zkts/sasl-kerberos (a clear error when it is not installed). */
export async function saslOptions(spec: SaslSpec): Promise<SaslOptions> {
  if (spec.kind === 'digest') return { mechanism: 'DIGEST-MD5', username: spec.username, password: spec.password };
  let kerberos: typeof SaslKerberos;
  try {
    kerberos = await import('@zkts/sasl-kerberos');
  } catch (error) {
    throw new CliError(ExitCode.UNAVAILABLE, '--sasl kerberos needs the @zkts/sasl-kerberos package (npm install @zkts/sasl-kerberos)', { cause: error });
  }
  return { mechanism: kerberos.gssapi(spec.principal === undefined ? {} : { principal: spec.principal }) };
}
