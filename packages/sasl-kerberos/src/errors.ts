/**
 * Kerberos failures as one typed error, an AuthFailedError (so the session ends in `auth-failed` with it as is,
 * and `instanceof AuthFailedError` catches it with every other authentication failure), with a `reason` a
 * program can branch on. GSSAPI only reports text (MIT krb5's messages, through the `kerberos` binding), so the
 * reason is read from those messages; the original error stays the `cause`.
 */
import { AuthFailedError } from '@zkts/protocol';

/** Why Kerberos failed, as a stable string: what to do about it differs for each. */
export type KerberosFailure =
  /** No ticket (empty or missing credential cache, no client keytab): run kinit or give a keytab. */
  | 'no-credentials'
  /** The ticket (TGT) has expired: renew it (kinit again, or let a keytab get a new one). */
  | 'expired'
  /** The KDC does not know the server's principal (wrong host name, realm, or service name). */
  | 'unknown-server'
  /** The KDC cannot be reached. */
  | 'kdc-unreachable'
  /** The `kerberos` native module could not be loaded (not installed or not built). */
  | 'unavailable'
  /** Anything else GSSAPI or the server's answer reported. */
  | 'gssapi';

/** Kerberos refused or could not start: an `AuthFailedError` (the session ends in `auth-failed`) with a `reason`. */
export class KerberosError extends AuthFailedError {
  readonly reason: KerberosFailure;

  constructor(reason: KerberosFailure, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}

const PATTERNS: [KerberosFailure, RegExp][] = [
  ['expired', /expired/i],
  ['no-credentials', /no (kerberos )?credentials|credentials cache (file .* )?not found|no credentials cache|cache is empty|can't find client principal|cannot find .*(ticket|credential)/i],
  ['unknown-server', /server (\S+ )?not found in kerberos database|unknown server|cannot determine realm for host/i],
  ['kdc-unreachable', /cannot contact any kdc|cannot resolve network address for kdc|connection refused/i],
];

const ADVICE: Record<KerberosFailure, string> = {
  'no-credentials': 'no Kerberos ticket for the client: run kinit, or give a keytab (keytab option, KRB5_CLIENT_KTNAME)',
  expired: 'the Kerberos ticket has expired: kinit again (or give a keytab so new tickets can be got)',
  'unknown-server': "the KDC does not know the server's principal (check serverPrincipal / serviceName and the host name)",
  'kdc-unreachable': 'the KDC cannot be reached (check krb5.conf)',
  unavailable: "the 'kerberos' native module cannot be loaded (install it: npm install kerberos; it builds with node-gyp and needs the GSSAPI headers, Debian: libkrb5-dev)",
  gssapi: 'GSSAPI failed',
};

/** Turns what the binding threw into a KerberosError with a reason and advice. */
export function kerberosError(err: unknown, context: string): KerberosError {
  if (err instanceof KerberosError) return err;
  const text = err instanceof Error ? err.message : String(err);
  const reason = PATTERNS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'gssapi';
  return new KerberosError(reason, `Kerberos (${context}): ${ADVICE[reason]}: ${text}`, { cause: err });
}
