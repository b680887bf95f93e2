// SASL GSSAPI against a Kerberized ZooKeeper server, with a real KDC the testkit starts (MIT krb5kdc, a
// throw-away realm in a temp dir): identity and `sasl` ACLs, credentials from a ticket cache or a keytab, a
// missing or expired ticket as a typed error, a server restart and a renewal, and ZooKeeper's Java client
// (Krb5LoginModule from a keytab) and zkts reading each other's nodes as their sasl ACLs say.
// The KDC needs Debian's krb5-kdc, krb5-admin-server and krb5-user (scripts/setup.sh installs them); without
// them startKdc fails with the packages to install: this test does not skip.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderClientJaas, startFaultProxy, startKdc, startZooKeeper, type FaultProxy, type Kdc, type ZooKeeperServer } from '@zkts/testkit';
import { Acls, AuthFailedError, createClient, type ClientOptions, type SaslMechanism, type ZkClient } from '@zkts/protocol';
import { KerberosError, canonicalHost, gssapi, type GssapiOptions } from '@zkts/sasl-kerberos';
import { compileJavaPrograms, type JavaPrograms } from '../../../../test/support/java-peer.js';

let kdc: Kdc;
let server: ZooKeeperServer;
let proxy: FaultProxy;
const keytabs: Record<string, string> = {};
const caches: Record<string, string> = {};

const clients: ZkClient[] = [];
async function client(connectString: string, options: ClientOptions = {}): Promise<ZkClient> {
  const c = createClient(connectString, { sessionTimeout: 6000, ...options });
  clients.push(c);
  return c.connect({ timeout: 20_000 });
}

/** gssapi() that counts its exchanges (one per connection). */
function counted(options: GssapiOptions): SaslMechanism & { exchanges: number } {
  const inner = gssapi(options);
  const m = { name: inner.name, exchanges: 0, start: (s: { host: string; port: number }) => (m.exchanges++, inner.start(s)) };
  return m;
}

const text = (b: Uint8Array): string => new TextDecoder().decode(b);
const root = `/krb-${Date.now().toString(36)}`;

beforeAll(async () => {
  kdc = await startKdc();
  // Everything Kerberos in this process (the kerberos binding's GSSAPI) reads this realm's krb5.conf.
  process.env['KRB5_CONFIG'] = kdc.krb5Conf;
  for (const name of ['zookeeper/localhost', 'alice', 'bob']) keytabs[name] = await kdc.addPrincipal(name);
  server = await startZooKeeper({
    sasl: { kerberos: { principal: kdc.principal('zookeeper/localhost'), keytab: keytabs['zookeeper/localhost']!, krb5Conf: kdc.krb5Conf } },
    tickTime: 500,
    minSessionTimeout: 1000,
  });
  proxy = await startFaultProxy({ host: server.host, port: server.port });
  caches['alice'] = `FILE:${await kdc.kinit('alice', keytabs['alice']!)}`;
  caches['bob'] = `FILE:${await kdc.kinit('bob', keytabs['bob']!)}`;
}, 180_000);

afterEach(async () => {
  proxy?.restore();
  for (const c of clients.splice(0)) await c.close();
});

afterAll(async () => {
  await proxy?.close();
  await server?.[Symbol.asyncDispose]();
  await kdc?.stop();
});

describe('GSSAPI (Kerberos) against a Kerberized server', () => {
  it('zookeeper/<canonical host> by default: 127.0.0.1 is localhost, as Java canonicalizes it', async () => {
    expect(await canonicalHost('127.0.0.1')).toBe('localhost');
  });

  it('a ticket cache: whoAmI shows the principal; a sasl ACL lets alice in and keeps bob out', async () => {
    const alice = await client(server.connectString, { sasl: { mechanism: gssapi({ ccache: caches['alice']! }) } });
    const identity = (await alice.whoAmI()).find((i) => i.authScheme === 'sasl');
    expect(identity?.user).toBe(kdc.principal('alice'));
    await alice.create(root, null);
    await alice.create(`${root}/alices`, 'kerberized', { acl: [Acls.sasl(kdc.principal('alice'))] });
    expect(text((await alice.getData(`${root}/alices`)).data)).toBe('kerberized');

    const bob = await client(server.connectString, { sasl: { mechanism: gssapi({ ccache: caches['bob']! }) } });
    expect(await bob.whoAmI()).toContainEqual({ authScheme: 'sasl', user: kdc.principal('bob') });
    await expect(bob.getData(`${root}/alices`)).rejects.toMatchObject({ code: 'NO_AUTH' });
  });

  it('a keytab (KRB5_CLIENT_KTNAME) when the cache is empty: tickets are got from it', async () => {
    const mechanism = gssapi({ ccache: `FILE:${kdc.dir}/empty-cache-for-keytab`, keytab: keytabs['alice']!, principal: kdc.principal('alice') });
    const alice = await client(server.connectString, { sasl: { mechanism } });
    expect(await alice.whoAmI()).toContainEqual({ authScheme: 'sasl', user: kdc.principal('alice') });
    expect(text((await alice.getData(`${root}/alices`)).data)).toBe('kerberized');
  });

  it('no ticket and no keytab: KerberosError (no-credentials) at once, one exchange, the session auth-failed', async () => {
    delete process.env['KRB5_CLIENT_KTNAME'];
    const mechanism = counted({ ccache: `FILE:${kdc.dir}/no-such-cache` });
    const c = createClient(server.connectString, { sessionTimeout: 6000, sasl: { mechanism } });
    const seen: string[] = [];
    c.onStateChange((s) => seen.push(s.state));
    const started = Date.now();
    const error = await c.connect({ timeout: 20_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KerberosError);
    expect(error).toBeInstanceOf(AuthFailedError);
    expect(error).toMatchObject({ reason: 'no-credentials', code: 'AUTH_FAILED' });
    expect((error as Error).message).toMatch(/run kinit/);
    expect(Date.now() - started).toBeLessThan(10_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(mechanism.exchanges).toBe(1);
    expect(seen).toEqual(['connecting', 'auth-failed', 'closed']);
  });

  it('an expired ticket: KerberosError (expired)', async () => {
    delete process.env['KRB5_CLIENT_KTNAME'];
    const cache = `FILE:${await kdc.kinit('alice', keytabs['alice']!, { lifetime: '2s' })}`;
    await new Promise((r) => setTimeout(r, 3500));
    const c = createClient(server.connectString, { sessionTimeout: 6000, sasl: { mechanism: gssapi({ ccache: cache }) } });
    const error = await c.connect({ timeout: 20_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KerberosError);
    expect(error).toMatchObject({ reason: 'expired' });
  });

  it('a server principal the KDC does not know: KerberosError (unknown-server)', async () => {
    const mechanism = gssapi({ ccache: caches['alice']!, serverPrincipal: 'zookeeper/nowhere.invalid' });
    const c = createClient(server.connectString, { sessionTimeout: 6000, sasl: { mechanism } });
    const error = await c.connect({ timeout: 20_000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'KerberosError', reason: 'unknown-server' });
  });

  it('survives a server restart (authenticates again) and a renewal (the new session authenticates)', async () => {
    const mechanism = counted({ ccache: caches['alice']! });
    const alice = await client(proxy.connectString, { sasl: { mechanism } });
    await alice.create(`${root}/restart`, 'before', { acl: [Acls.sasl(kdc.principal('alice'))] });
    const id = alice.sessionId;
    await server.restart();
    const until = async (predicate: () => boolean, what: string): Promise<void> => {
      const deadline = Date.now() + 30_000;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (state ${alice.state})`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await until(() => alice.state === 'connected' && mechanism.exchanges >= 2, 'the reconnect');
    expect(alice.sessionId).toBe(id);
    await alice.setData(`${root}/restart`, 'after');

    proxy.blackhole();
    const thief = createClient(server.connectString, { sessionTimeout: 6000, sessionId: id, sessionPassword: alice.sessionPassword });
    await thief.connect({ timeout: 20_000 });
    await thief.close();
    proxy.restore();
    const before = mechanism.exchanges;
    await until(() => alice.state === 'connected' && alice.sessionId !== id, 'the new session');
    expect(mechanism.exchanges).toBeGreaterThan(before);
    expect(await alice.whoAmI()).toContainEqual({ authScheme: 'sasl', user: kdc.principal('alice') });
    expect(text((await alice.getData(`${root}/restart`)).data)).toBe('after');
  });
});

describe('ZooKeeper Java client and zkts, same Kerberos principals', () => {
  let java: JavaPrograms;
  beforeAll(() => {
    java = compileJavaPrograms();
  }, 120_000);
  afterAll(() => java?.dispose());

  it("each reads the other's nodes as the sasl ACLs say", async () => {
    const alice = kdc.principal('alice');
    const jaas = renderClientJaas({ principal: alice, keytab: keytabs['alice']! });
    const props = { 'java.security.krb5.conf': kdc.krb5Conf, 'sun.security.krb5.disableReferrals': 'true' };
    const made = await java.peer(jaas, server.connectString, ['whoami', `create:${root}/java-alice:${alice}:java kerberized`], props);
    expect(made.code, made.err).toBe(0);
    expect(made.out).toContain('STATE SaslAuthenticated');
    expect(made.out).toContain(`WHOAMI sasl ${alice}`);
    const zkAlice = await client(server.connectString, { sasl: { mechanism: gssapi({ ccache: caches['alice']! }) } });
    expect(text((await zkAlice.getData(`${root}/java-alice`)).data)).toBe('java kerberized');
    const zkBob = await client(server.connectString, { sasl: { mechanism: gssapi({ ccache: caches['bob']! }) } });
    await expect(zkBob.getData(`${root}/java-alice`)).rejects.toMatchObject({ code: 'NO_AUTH' });
    await zkBob.create(`${root}/zkts-bob`, 'bob only', { acl: [Acls.sasl(kdc.principal('bob'))] });
    const read = await java.peer(jaas, server.connectString, [`get:${root}/alices`, `get:${root}/zkts-bob`], props);
    expect(read.code, read.err).toBe(0);
    expect(read.out).toContain(`GET ${root}/alices kerberized`);
    expect(read.out).toContain(`GET ${root}/zkts-bob ERR NOAUTH`);
  });
});
