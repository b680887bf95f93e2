import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

import { ZooKeeperNotInstalledError } from './errors.js';
import { javaRuntime } from './java.js';
import { refuse } from './option-checks.js';
import { trackTempDir } from './processes.js';

import type { TlsMaterial } from './options.js';

const run = promisify(execFile);

export interface GeneratedTls {
  /** PEM for node:tls clients: the CA and a client certificate/key it signed. */
  material: TlsMaterial;
  /** Server side, for ZooKeeper: a PKCS12 key store (server key + chain) and trust store (the CA). */
  keyStore: string;
  trustStore: string;
  password: string;
  /** Where the CA's key lives, for issuing more client certificates. */
  dir: string;
}

const DAYS = '2';
// EC P-256: key generation is instant, unlike RSA, and both Java 17 and Node accept it.
const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

async function openssl(args: string[], cwd: string): Promise<void> {
  await run('openssl', args, { cwd });
}

async function signedCert(dir: string, name: string, cn: string, ext: string): Promise<void> {
  await writeFile(join(dir, `${name}.ext`), ext);
  await openssl(['req', ...NEW_KEY, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`], dir);
  await openssl(
    ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial',
      '-out', `${name}.pem`, '-days', DAYS, '-extfile', `${name}.ext`],
    dir,
  );
}

function keytoolPath(java: string): string {
  const beside = join(dirname(java), 'keytool');
  return existsSync(beside) ? beside : 'keytool';
}

/**
 * Generates a throw-away CA, a server certificate for 127.0.0.1/localhost and a client certificate, all
 * signed by the CA, with openssl; then the server's PKCS12 key store (openssl) and trust store (keytool:
 * Java only trusts a PKCS12 certificate that carries its "trusted certificate" attribute, which OpenSSL 3.0
 * cannot write).
 */
export async function generateTls(dir: string, java: string): Promise<GeneratedTls> {
  const password = randomBytes(12).toString('hex');
  try {
    await openssl(
      ['req', '-x509', ...NEW_KEY, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', DAYS, '-subj', '/CN=zkts testkit CA',
        '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
      dir,
    );
    const leaf = 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n';
    // One after the other: each signing reads and rewrites the CA's serial file (ca.srl), and two at once
    // sometimes find it half-written (openssl x509 then fails).
    await signedCert(dir, 'server', 'localhost', `${leaf}extendedKeyUsage=serverAuth,clientAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n`);
    await signedCert(dir, 'client', 'zkts-client', `${leaf}extendedKeyUsage=clientAuth\n`);
    await openssl(
      ['pkcs12', '-export', '-in', 'server.pem', '-inkey', 'server.key', '-certfile', 'ca.pem', '-name', 'server',
        '-out', 'keystore.p12', '-passout', `pass:${password}`],
      dir,
    );
    await run(keytoolPath(java), ['-importcert', '-noprompt', '-alias', 'ca', '-file', 'ca.pem',
      '-keystore', 'truststore.p12', '-storetype', 'PKCS12', '-storepass', password], { cwd: dir });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ZooKeeperNotInstalledError(
        'TLS test servers need `openssl` and the JDK `keytool` (Debian: `sudo apt-get install openssl default-jre-headless`).',
        { cause: error },
      );
    }
    throw error;
  }
  const [ca, cert, key] = await Promise.all(
    ['ca.pem', 'client.pem', 'client.key'].map((f) => readFile(join(dir, f), 'utf8')),
  );
  return {
    material: { ca: ca ?? '', cert: cert ?? '', key: key ?? '' },
    keyStore: join(dir, 'keystore.p12'),
    trustStore: join(dir, 'truststore.p12'),
    password,
    dir,
  };
}

let shared: Promise<GeneratedTls> | undefined;

/**
 * One CA and one set of certificates per Node process, shared by every TLS server it starts: generating them
 * (openssl + a keytool JVM) costs seconds on a busy two-core machine, and tests gain nothing from distinct CAs.
 * The directory is removed at process exit.
 */
export function sharedTls(java: string): Promise<GeneratedTls> {
  shared ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zkts-tls-'));
    trackTempDir(dir);
    return generateTls(dir, java);
  })();
  // A failure (say, openssl missing) is not cached: the next caller gets the same clear error, freshly.
  shared.catch(() => {
    shared = undefined;
  });
  return shared;
}

let issued = 0;

/**
 * Another client certificate (`/CN=<commonName>`) from the CA every TLS server of this process trusts: a second
 * x509 identity for ACL tests. The subject ZooKeeper sees (X500Principal.getName()) is `CN=<commonName>`.
 */
export async function issueClientCertificate(commonName: string): Promise<TlsMaterial> {
  if (typeof commonName !== 'string' || !/^[\w .-]+$/.test(commonName)) refuse('issueClientCertificate', 'commonName', "letters, digits, space, '.', '-' only", commonName);
  const { java } = javaRuntime();
  const tls = await sharedTls(java);
  const name = `client-${++issued}`;
  await signedCert(tls.dir, name, commonName, 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n');
  const [cert, key] = await Promise.all([`${name}.pem`, `${name}.key`].map((f) => readFile(join(tls.dir, f), 'utf8')));
  return { ca: tls.material.ca, cert: cert ?? '', key: key ?? '' };
}
