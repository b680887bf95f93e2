// TLS and x509 identities: the zkts client over TLS with a client certificate, against ZooKeeper 3.8
// (secureClientPort, ssl.clientAuth=need, X509AuthenticationProvider; certificates from the testkit) and against
// startServer's TLS port (certificates from openssl here). whoAmI, x509 ACLs and a client without a certificate
// must come out the same; then the subject's RFC 2253 form and clientAuth want/none on our server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fourLetter, issueClientCertificate, startZooKeeper, type ZooKeeperServer } from '@zkts/testkit';
import { Acls, Perms, createClient, type ZkClient } from '@zkts/protocol';
import { startServer, type ZkServer } from '@zkts/server';

import { subjectDN } from '../../src/net/tls.js';
import { makeCerts, type TestCerts } from '../support/certs.js';

const SPECIAL = '/C=DE/O=Acme, Inc./OU=ops/CN=svc\\+1';

interface Material {
  ca: string;
  cert?: string;
  key?: string;
}

async function connectTls(connectString: string, m: Material, timeout = 10_000): Promise<ZkClient> {
  const c = createClient(connectString, { sessionTimeout: 4000, connectTimeout: 1000, tls: { ...m } });
  return c.connect({ timeout });
}

const codeOf = (p: Promise<unknown>): Promise<string> => p.then(() => 'ok', (e: { code?: string }) => e.code ?? 'error');

/** What a server shows two certificate holders (CN=zkts-client and CN=zkts-other). */
async function observe(connectString: string, mine: Material, other: Material, root: string): Promise<unknown> {
  const seen: Record<string, unknown> = {};
  const a = await connectTls(connectString, mine);
  const b = await connectTls(connectString, other);
  try {
    seen.whoAmI = (await a.whoAmI()).filter((i) => i.authScheme !== 'ip');
    seen.otherWhoAmI = (await b.whoAmI()).filter((i) => i.authScheme !== 'ip');
    await a.create(root, null);
    await a.create(`${root}/mine`, 'm', { acl: [Acls.x509('CN=zkts-client')] });
    seen.acl = (await a.getACL(`${root}/mine`)).acl;
    seen.otherRead = await codeOf(b.getData(`${root}/mine`));
    await a.create(`${root}/auth`, 'a', { acl: [{ perms: Perms.ALL, id: { scheme: 'auth', id: '' } }] });
    seen.authAcl = (await a.getACL(`${root}/auth`)).acl;
    await a.setACL(`${root}/mine`, [Acls.x509('CN=zkts-client'), Acls.x509('CN=zkts-other', Perms.READ)]);
    seen.otherReadAfter = await codeOf(b.getData(`${root}/mine`));
    seen.otherWrite = await codeOf(b.setData(`${root}/mine`, 'x'));
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
  return seen;
}

describe('TLS and x509, side by side with ZooKeeper', () => {
  let zookeeper: ZooKeeperServer;
  let ours: ZkServer;
  let certs: TestCerts;
  const client = (cn: string): Material => {
    const pem = certs.clients.get(`/CN=${cn}`);
    if (pem === undefined) throw new Error(cn);
    return { ca: certs.ca, ...pem };
  };

  beforeAll(async () => {
    [zookeeper, certs] = await Promise.all([
      startZooKeeper({ tls: true, clientPort: false, x509Auth: true, tickTime: 500 }),
      makeCerts(['/CN=zkts-client', '/CN=zkts-other', SPECIAL]),
    ]);
    ours = await startServer({ tickTime: 500, tls: { key: certs.server.key, cert: certs.server.cert, ca: certs.ca } });
  }, 120_000);
  afterAll(async () => {
    await Promise.all([zookeeper?.[Symbol.asyncDispose](), ours?.close()]);
  });

  it('whoAmI, x509 and auth ACLs: the same on both', async () => {
    if (zookeeper.tls === undefined || ours.securePort === undefined) throw new Error('no TLS');
    const root = `/x509-${Date.now()}`;
    const theirs = await observe(zookeeper.connectString, zookeeper.tls, await issueClientCertificate('zkts-other'), root);
    const mine = await observe(`127.0.0.1:${ours.securePort}`, client('zkts-client'), client('zkts-other'), root);
    expect(mine).toEqual(theirs);
    expect(mine).toMatchObject({ whoAmI: [{ authScheme: 'x509', user: 'CN=zkts-client' }], otherRead: 'NO_AUTH', otherReadAfter: 'ok' });
  });

  it('four-letter words on the TLS port: srvr answered by both', async () => {
    if (zookeeper.tls === undefined || ours.securePort === undefined) throw new Error('no TLS');
    const theirs = await fourLetter({ host: '127.0.0.1', port: zookeeper.port, tls: zookeeper.tls }, 'srvr');
    const mine = await fourLetter({ host: '127.0.0.1', port: ours.securePort, tls: { ca: certs.ca, ...(certs.clients.get('/CN=zkts-client') as { key: string; cert: string }) } }, 'srvr');
    const lineKeys = (t: string): string[] => t.split('\n').map((l) => l.split(':')[0] ?? '');
    expect(lineKeys(mine)).toEqual(lineKeys(theirs));
  });

  it('a client without a certificate gets no session from either (clientAuth need)', async () => {
    if (zookeeper.tls === undefined || ours.securePort === undefined) throw new Error('no TLS');
    for (const cs of [zookeeper.connectString, `127.0.0.1:${ours.securePort}`]) {
      const error = await connectTls(cs, { ca: cs === zookeeper.connectString ? zookeeper.tls.ca : certs.ca }, 2000).catch((e: unknown) => e);
      expect(error, cs).toBeInstanceOf(Error);
    }
  });

  it("a subject with several attributes and special characters prints as Java's X500Principal.getName()", async () => {
    if (ours.securePort === undefined) throw new Error('no TLS');
    const zk = await connectTls(`127.0.0.1:${ours.securePort}`, { ca: certs.ca, ...certs.clients.get(SPECIAL) });
    expect((await zk.whoAmI()).find((i) => i.authScheme === 'x509')?.user).toBe('CN=svc\\+1,OU=ops,O=Acme\\, Inc.,C=DE');
    await zk.close();
    expect(subjectDN('C=US\nO=Acme\\, Inc.\nCN=a')).toBe('CN=a,O=Acme\\, Inc.,C=US');
  });

  it('clientAuth want: no certificate is served without an x509 id; none: a certificate is not asked for', async () => {
    // ZooKeeper with ssl.clientAuth=want serves a client without a certificate, with no x509 id.
    await using wantZk = await startZooKeeper({ tls: true, clientPort: false, x509Auth: true, tickTime: 500, config: { 'ssl.clientAuth': 'want' } });
    const zkAnon = await connectTls(wantZk.connectString, { ca: wantZk.tls?.ca ?? '' });
    expect((await zkAnon.whoAmI()).map((i) => i.authScheme)).toEqual(['ip']);
    await zkAnon.close();
    for (const clientAuth of ['want', 'none'] as const) {
      await using server = await startServer({ tls: { key: certs.server.key, cert: certs.server.cert, ca: certs.ca, clientAuth } });
      const anon = await connectTls(`127.0.0.1:${server.securePort}`, { ca: certs.ca });
      expect((await anon.whoAmI()).map((i) => i.authScheme)).toEqual(['ip']);
      await anon.close();
      const withCert = await connectTls(`127.0.0.1:${server.securePort}`, client('zkts-client'));
      expect((await withCert.whoAmI()).map((i) => i.authScheme).sort()).toEqual(clientAuth === 'want' ? ['ip', 'x509'] : ['ip']);
      await withCert.close();
    }
  });
});
