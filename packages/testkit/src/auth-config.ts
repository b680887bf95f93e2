/**
 * How a test server authenticates clients, as ZooKeeper configures it: SASL through a JAAS file (a `Server`
 * section with DigestLoginModule users, or Krb5LoginModule with the server's keytab) plus the `sasl` auth
 * provider, authentication enforcement (`enforce.auth`), and x509 identities on the TLS port. Pure text and
 * property maps, so they are unit-tested; local-server.ts writes the JAAS file beside zoo.cfg.
 */
import { InvalidOptionError } from './errors.js';
import { checkObject, checkServerOptions, checkString } from './option-checks.js';

import type { ServerOptions } from './options.js';

const SASL_PROVIDER = 'org.apache.zookeeper.server.auth.SASLAuthenticationProvider';
const X509_PROVIDER = 'org.apache.zookeeper.server.auth.X509AuthenticationProvider';
const DIGEST_MODULE = 'org.apache.zookeeper.server.auth.DigestLoginModule';
const KRB5_MODULE = 'com.sun.security.auth.module.Krb5LoginModule';

/** A JAAS option name must stay one word for Java's ConfigFile tokenizer. */
const JAAS_NAME = /^[\p{L}\p{N}_.$-]+$/u;

function jaasString(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

function section(name: string, module: string, options: [string, string | boolean][]): string {
  const lines = options.map(([k, v]) => `  ${k}=${typeof v === 'boolean' ? String(v) : jaasString(v)}`);
  return `${name} {\n  ${module} required\n${lines.join('\n')};\n};\n`;
}

/** The server's JAAS file, or undefined when the options ask for no SASL. Throws on options it cannot express. */
export function renderServerJaas(options: ServerOptions): string | undefined {
  checkObject('renderServerJaas', 'options', options, false);
  checkServerOptions('renderServerJaas', options);
  const sasl = options.sasl;
  if (sasl === undefined) return undefined;
  const users = Object.entries(sasl.digestUsers ?? {});
  if (users.length > 0 && sasl.kerberos !== undefined) {
    // ZooKeeper picks the mechanism from the Server subject: with a Kerberos principal it offers only GSSAPI.
    throw new InvalidOptionError('sasl', 'sasl: digestUsers and kerberos exclude each other (a ZooKeeper server speaks one SASL mechanism)');
  }
  if (sasl.kerberos !== undefined) {
    const k = sasl.kerberos;
    return section('Server', KRB5_MODULE, [
      ['useKeyTab', true],
      ['keyTab', k.keytab],
      ['storeKey', true],
      ['useTicketCache', false],
      ['principal', k.principal],
    ]);
  }
  if (users.length === 0) throw new InvalidOptionError('sasl', 'sasl needs digestUsers or kerberos');
  for (const [name] of users) {
    if (!JAAS_NAME.test(name)) throw new InvalidOptionError('sasl.digestUsers', `sasl.digestUsers: digest user name ${JSON.stringify(name)} cannot be written to a JAAS file`);
  }
  return section('Server', DIGEST_MODULE, users.map(([name, password]) => [`user_${name}`, password]));
}

/** A client's JAAS `Client` section, for Java clients in tests (ZooKeeper's Java client reads this one). */
export function renderClientJaas(client: { username: string; password: string } | { principal: string; keytab: string }): string {
  const given = checkObject('renderClientJaas', 'client', client, false) ?? {};
  const keys = 'keytab' in given ? ['principal', 'keytab'] : ['username', 'password'];
  for (const k of keys) checkString('renderClientJaas', `client.${k}`, given[k], { optional: false, empty: k === 'password' });
  if ('keytab' in client) {
    return section('Client', KRB5_MODULE, [
      ['useKeyTab', true],
      ['keyTab', client.keytab],
      ['storeKey', true],
      ['useTicketCache', false],
      ['principal', client.principal],
    ]);
  }
  return section('Client', DIGEST_MODULE, [
    ['username', client.username],
    ['password', client.password],
  ]);
}

/** JVM properties for SASL, enforcement and x509; `jaasFile` is where the server's JAAS file was written. */
export function authProperties(options: ServerOptions, jaasFile: string | undefined): Record<string, string> {
  const props: Record<string, string> = {};
  if (options.sasl !== undefined) {
    if (jaasFile === undefined) throw new Error('sasl options need the JAAS file written first');
    props['java.security.auth.login.config'] = jaasFile;
    props['zookeeper.authProvider.sasl'] = SASL_PROVIDER;
    if (options.sasl.kerberos !== undefined) {
      props['java.security.krb5.conf'] = options.sasl.kerberos.krb5Conf;
      // The test KDC knows no other realm: no referral chasing.
      props['sun.security.krb5.disableReferrals'] = 'true';
    }
    if (options.sasl.superUser !== undefined) props['zookeeper.superUser'] = options.sasl.superUser;
  }
  if (options.enforceAuth !== undefined) {
    if (options.enforceAuth.length === 0) throw new TypeError('enforceAuth needs at least one scheme');
    props['zookeeper.enforce.auth.enabled'] = 'true';
    props['zookeeper.enforce.auth.schemes'] = options.enforceAuth.join(',');
  }
  if (options.x509Auth === true) {
    if (options.tls !== true) throw new TypeError('x509Auth needs tls: true (identities come from the TLS port)');
    props['zookeeper.authProvider.x509'] = X509_PROVIDER;
    props['zookeeper.ssl.clientAuth'] = 'need';
  }
  return props;
}
