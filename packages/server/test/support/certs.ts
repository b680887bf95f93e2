// Throw-away TLS material for the server's tests: a CA, a server certificate for 127.0.0.1/localhost and client
// certificates with the subjects asked for, all made with openssl (EC P-256) in a temporary directory.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
const LEAF = 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n';

export interface Pem {
  key: string;
  cert: string;
}

export interface TestCerts {
  ca: string;
  server: Pem;
  /** Client certificates by the openssl `-subj` they were made with. */
  clients: Map<string, Pem>;
}

async function leaf(dir: string, name: string, subject: string, ext: string): Promise<Pem> {
  await writeFile(join(dir, `${name}.ext`), ext);
  await run('openssl', ['req', ...NEW_KEY, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject], { cwd: dir });
  await run('openssl', ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial',
    '-out', `${name}.pem`, '-days', '2', '-extfile', `${name}.ext`], { cwd: dir });
  return { key: await readFile(join(dir, `${name}.key`), 'utf8'), cert: await readFile(join(dir, `${name}.pem`), 'utf8') };
}

/** A CA signing a server certificate and one client certificate per subject (e.g. `/CN=alice`). */
export async function makeCerts(subjects: readonly string[], caSubject = '/CN=zkts server test CA'): Promise<TestCerts> {
  const dir = await mkdtemp(join(tmpdir(), 'zkts-server-tls-'));
  try {
    await run('openssl', ['req', '-x509', ...NEW_KEY, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', caSubject,
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], { cwd: dir });
    const server = await leaf(dir, 'server', '/CN=localhost', `${LEAF}extendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n`);
    const clients = new Map<string, Pem>();
    let i = 0;
    for (const subject of subjects) clients.set(subject, await leaf(dir, `client-${i++}`, subject, `${LEAF}extendedKeyUsage=clientAuth\n`));
    return { ca: await readFile(join(dir, 'ca.pem'), 'utf8'), server, clients };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
