// A TLS client certificate as the session's identity, on a real server with X509AuthenticationProvider and
// ssl.clientAuth=need: the certificate's subject is the `x509` id in whoAmI, and an `x509` ACL lets that
// subject in and keeps another certificate's subject out. A client without a certificate gets no session.
import { channel } from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { issueClientCertificate, startZooKeeper, type TlsMaterial, type ZooKeeperServer } from '@zkts/testkit';
import { Acls, ChannelNames, Perms, TimeoutError, createClient, type ZkClient } from '@zkts/protocol';
import { text, uniqueRoot } from '../support/integration.js';

describe('x509 identities', () => {
  let server: ZooKeeperServer;
  let mine: TlsMaterial;
  let other: TlsMaterial;
  const clients: ZkClient[] = [];
  const root = uniqueRoot('x509');

  async function as(material: TlsMaterial): Promise<ZkClient> {
    const c = createClient(server.connectString, { sessionTimeout: 4000, tls: { ca: material.ca, cert: material.cert, key: material.key } });
    clients.push(c);
    return c.connect({ timeout: 15_000 });
  }

  beforeAll(async () => {
    server = await startZooKeeper({ tls: true, clientPort: false, x509Auth: true, tickTime: 500 });
    if (server.tls === undefined) throw new Error('a TLS server without material');
    mine = server.tls;
    other = await issueClientCertificate('zkts-other');
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
  });
  afterAll(async () => {
    await server?.[Symbol.asyncDispose]();
  });

  it("the certificate's subject is the session's x509 id, and an x509 ACL is enforced", async () => {
    const auth: unknown[] = [];
    const onAuth = (m: unknown): void => void auth.push(m);
    channel(ChannelNames.auth).subscribe(onAuth);
    const zk = await as(mine).finally(() => channel(ChannelNames.auth).unsubscribe(onAuth));
    // zkts:auth: the certificate presented on a connection the server answered, never the certificate itself.
    expect(auth).toEqual([{ sessionId: zk.sessionId, scheme: 'x509', outcome: 'ok', server: server.connectString }]);
    expect(await zk.whoAmI()).toContainEqual({ authScheme: 'x509', user: 'CN=zkts-client' });
    await zk.create(root, null);
    await zk.create(`${root}/mine`, 'cert-only', { acl: [Acls.x509('CN=zkts-client')] });
    expect(text((await zk.getData(`${root}/mine`)).data)).toBe('cert-only');
    expect((await zk.getACL(`${root}/mine`)).acl).toEqual([{ perms: Perms.ALL, id: { scheme: 'x509', id: 'CN=zkts-client' } }]);

    const stranger = await as(other);
    expect(await stranger.whoAmI()).toContainEqual({ authScheme: 'x509', user: 'CN=zkts-other' });
    await expect(stranger.getData(`${root}/mine`)).rejects.toMatchObject({ code: 'NO_AUTH' });
    await expect(stranger.setData(`${root}/mine`, 'x')).rejects.toMatchObject({ code: 'NO_AUTH' });
    // Read for the other subject: it reads, and still may not write.
    await zk.setACL(`${root}/mine`, [Acls.x509('CN=zkts-client'), Acls.x509('CN=zkts-other', Perms.READ)]);
    expect(text((await stranger.getData(`${root}/mine`)).data)).toBe('cert-only');
    await expect(stranger.setData(`${root}/mine`, 'x')).rejects.toMatchObject({ code: 'NO_AUTH' });
  });

  it('a client without a certificate gets no session (ssl.clientAuth=need)', async () => {
    const c = createClient(server.connectString, { sessionTimeout: 2000, connectTimeout: 1000, tls: { ca: mine.ca } });
    await expect(c.connect({ timeout: 3000 })).rejects.toBeInstanceOf(TimeoutError);
    expect(c.state).toBe('closed');
  });
});
