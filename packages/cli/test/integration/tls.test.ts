// The CLI over TLS, against @zkts/server's secureClientPort (certificates made with openssl): --tls-ca, a client
// certificate giving the session an x509 identity, four-letter words and the console over TLS, and each way
// TLS fails (unknown CA, wrong name, a plain port, a missing key file) as one line with the right exit code.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startServer, type ZkServer } from '@zkts/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeCerts, type TestCerts } from '../../../server/test/support/certs.js';
import { collect, jsonLines, sharedServer, spawnZkts, uniqueRoot, waitForOutput, zkts } from '../support/cli.js';

const STACK = /\n\s+at |node:internal/;
const CLIENT = '/CN=zkts-cli-client';

let dir: string;
let certs: TestCerts;
/** clientAuth want: a client may come without a certificate (and then has no x509 identity). */
let want: ZkServer;
/** clientAuth need (the default): no session without a client certificate. */
let need: ZkServer;
const file = (name: string): string => join(dir, name);
const secure = (server: ZkServer): string => `127.0.0.1:${server.securePort ?? 0}`;
const identities = (stdout: string): { scheme: string; user: string }[] => (jsonLines(stdout)[0]?.['identities'] ?? []) as { scheme: string; user: string }[];

beforeAll(async () => {
  [certs, dir] = await Promise.all([makeCerts([CLIENT]), mkdtemp(join(tmpdir(), 'zkts-cli-tls-'))]);
  const other = await makeCerts([], '/CN=some other CA');
  const client = certs.clients.get(CLIENT);
  if (client === undefined) throw new Error('no client certificate');
  await Promise.all([
    writeFile(file('ca.pem'), certs.ca),
    writeFile(file('other-ca.pem'), other.ca),
    writeFile(file('client.pem'), client.cert),
    writeFile(file('client.key'), client.key),
    writeFile(file('not-pem.txt'), 'this is not a certificate\n'),
  ]);
  const tls = { key: certs.server.key, cert: certs.server.cert, ca: certs.ca };
  [want, need] = await Promise.all([
    startServer({ tickTime: 500, fourLetterWords: ['*'], tls: { ...tls, clientAuth: 'want' } }),
    startServer({ tickTime: 500, tls }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([want?.close(), need?.close(), dir === undefined ? undefined : rm(dir, { recursive: true, force: true })]);
});

describe('zkts over TLS', { timeout: 120_000 }, () => {
  it('--tls-ca: ls, create and get on the secure port', async () => {
    const root = uniqueRoot('tls');
    const base = ['--server', secure(want), '--tls-ca', file('ca.pem')];
    expect(await zkts([...base, 'create', root, 'over tls'])).toMatchObject({ code: 0 });
    const ls = await zkts([...base, 'ls', '/']);
    expect(ls).toMatchObject({ code: 0, stderr: '' });
    expect(ls.stdout.split('\n')).toContain(root.slice(1));
    expect(await zkts([...base, 'get', root])).toMatchObject({ code: 0, stdout: 'over tls' });
  });

  it('a client certificate is the session\'s x509 identity (whoami), on a server that needs one', async () => {
    const cert = ['--tls-ca', file('ca.pem'), '--tls-cert', file('client.pem'), '--tls-key', file('client.key')];
    for (const server of [want, need]) {
      const result = await zkts(['--server', secure(server), ...cert, '--json', 'whoami']);
      expect(result.code, result.stderr).toBe(0);
      expect(identities(result.stdout)).toContainEqual({ scheme: 'x509', user: 'CN=zkts-cli-client' });
    }
    // Without the certificate: no x509 identity where it is optional…
    const anonymous = await zkts(['--server', secure(want), '--tls-ca', file('ca.pem'), '--json', 'whoami']);
    expect(anonymous.code, anonymous.stderr).toBe(0);
    expect(identities(anonymous.stdout).map((i) => i.scheme)).toEqual(['ip']);
    // …and no session where it is required, said in one line, without waiting out the connect timeout.
    const started = Date.now();
    const refused = await zkts(['--server', secure(need), '--tls-ca', file('ca.pem'), 'ls', '/']);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(refused.code).toBe(69);
    expect(refused.stderr).toMatch(/TLS: the server requires a client certificate/);
    expect(refused.stderr).not.toMatch(STACK);
  });

  it("--tls alone trusts the system's CAs: a private CA fails in one line naming the reason, exit 69, at once", async () => {
    const started = Date.now();
    const result = await zkts(['--server', secure(want), '--tls', 'ls', '/']);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.code).toBe(69);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(
      new RegExp(`^zkts: ls: cannot connect to ${secure(want)}: the TLS handshake failed with every host \\(${secure(want)}: TLS: certificate signed by an unknown authority .*\\[(SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\\]\\)$`),
    );
    expect(result.stderr).not.toMatch(STACK);
    // Another CA's bundle is no better.
    const other = await zkts(['--server', secure(want), '--tls-ca', file('other-ca.pem'), '--json', 'ls', '/']);
    expect(other.code).toBe(69);
    const last = jsonLines(other.stderr).at(-1)?.['error'] as { attempts?: { code: string; message: string }[] } | undefined;
    expect(last?.attempts?.[0]?.message).toMatch(/^TLS: certificate signed by an unknown authority/);
  });

  it('--tls-servername: the name checked against the certificate when --server is an IP address', async () => {
    const base = ['--server', secure(want), '--tls-ca', file('ca.pem')];
    expect(await zkts([...base, '--tls-servername', 'localhost', 'ls', '/'])).toMatchObject({ code: 0 });
    const wrong = await zkts([...base, '--tls-servername', 'zk.example.com', 'ls', '/']);
    expect(wrong.code).toBe(69);
    expect(wrong.stderr).toMatch(/TLS: the certificate is not for this host: Host: zk\.example\.com\. is not in the cert's altnames: .*\[ERR_TLS_CERT_ALTNAME_INVALID\]/);
    expect(wrong.stderr).not.toMatch(STACK);
  });

  it('a plain port answering a TLS client ends in a clear failure, not a wait for the connect timeout', async () => {
    // Our server's plain port, and a real ZooKeeper's.
    for (const plain of [`127.0.0.1:${want.port}`, sharedServer()]) {
      const started = Date.now();
      const result = await zkts(['--server', plain, '--tls-ca', file('ca.pem'), 'ls', '/']);
      expect(Date.now() - started, plain).toBeLessThan(10_000);
      expect(result.code, plain).toBe(69);
      expect(result.stderr, plain).toMatch(/TLS: .*secureClientPort/);
      expect(result.stderr, plain).not.toMatch(STACK);
    }
  });

  it('option mistakes: a missing key is a usage error, an unreadable file exit 66, a non-PEM file exit 65', async () => {
    const server = ['--server', secure(want)];
    const noKey = await zkts([...server, '--tls-ca', file('ca.pem'), '--tls-cert', file('client.pem'), 'ls', '/']);
    expect(noKey).toMatchObject({ code: 64 });
    expect(noKey.stderr).toMatch(/^zkts: ls: --tls-cert needs --tls-key/);
    const missing = await zkts([...server, '--tls-ca', file('nowhere.pem'), 'ls', '/']);
    expect(missing.code).toBe(66);
    expect(missing.stderr).toBe(`zkts: ls: --tls-ca: cannot read ${file('nowhere.pem')}: ENOENT\n`);
    const missingKey = await zkts([...server, '--tls-cert', file('client.pem'), '--tls-key', file('nowhere.key'), 'ls', '/']);
    expect(missingKey.code).toBe(66);
    expect(missingKey.stderr).toMatch(/--tls-key: cannot read .*nowhere\.key: ENOENT/);
    const garbage = await zkts([...server, '--tls-ca', file('not-pem.txt'), 'ls', '/']);
    expect(garbage.code).toBe(65);
    expect(garbage.stderr).toMatch(/--tls-ca: .*not-pem\.txt holds no PEM certificate/);
    const mismatched = await zkts([...server, '--tls-cert', file('client.pem'), '--tls-key', file('ca.pem'), 'ls', '/']);
    expect(mismatched.code).toBe(65);
    expect(mismatched.stderr).toMatch(/--tls-key: .*ca\.pem is not the unencrypted PEM key of/);
  });

  it('four-letter words over TLS (srvr on the secure port)', async () => {
    const result = await zkts(['--server', secure(want), '--tls-ca', file('ca.pem'), 'srvr']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Zookeeper version: /m);
    const unknown = await zkts(['--server', secure(want), '--tls', 'srvr']);
    expect(unknown.code).toBe(69);
    expect(unknown.stderr).toMatch(/TLS: certificate signed by an unknown authority/);
  });

  it('the shell keeps its TLS session for every line', async () => {
    const result = await zkts(['--server', secure(want), '--tls-ca', file('ca.pem'), '--tls-cert', file('client.pem'), '--tls-key', file('client.key'), 'shell'], {
      input: 'whoami\nls /\n',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^x509 CN=zkts-cli-client$/m);
    expect(result.stdout).toMatch(/^zookeeper$/m);
  });

  it('zkts console with --tls-ca serves /api/info and mntr sampled over TLS', async () => {
    const child = spawnZkts(['--server', secure(want), '--tls-ca', file('ca.pem'), 'console', '--port', '0']);
    const output = collect(child);
    try {
      const [url] = await waitForOutput(output.stdout, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/m, 60_000);
      const parsed = new URL(url);
      const token = parsed.searchParams.get('token') ?? '';
      const info = await fetch(`${parsed.origin}/api/info?token=${token}`);
      expect(info.status).toBe(200);
      expect(await info.json()).toMatchObject({ server: secure(want) });
      // The sampler asks mntr over TLS: poll until a sample has arrived.
      const deadline = Date.now() + 30_000;
      let mntr: { available: boolean; reason: string | null; samples: unknown[] } | undefined;
      while (Date.now() < deadline) {
        mntr = (await (await fetch(`${parsed.origin}/api/mntr?token=${token}`)).json()) as typeof mntr;
        if (mntr !== undefined && mntr.samples.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(mntr, JSON.stringify(mntr)).toMatchObject({ available: true });
      expect(mntr?.samples.length).toBeGreaterThan(0);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await output.done).toMatchObject({ code: 0 });
  });

  it('zkts console refuses --proxy with --tls', async () => {
    const result = await zkts(['--server', secure(want), '--tls-ca', file('ca.pem'), 'console', '--port', '0', '--proxy', '0']);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(/--proxy relays plain TCP .* cannot be combined with --tls/);
  });
});
