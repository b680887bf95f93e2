// SASL DIGEST-MD5 against real ZooKeeper servers whose JAAS `Server` section lists DigestLoginModule users
// (the testkit writes it): the identity the server gives the session, `sasl` ACLs, a wrong password, a server
// restart, a session renewal, and a server that enforces SASL (enforce.auth).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, startZooKeeper, type FaultProxy, type ZooKeeperServer } from '@zkts/testkit';
import {
  Acls,
  AuthFailedError,
  Perms,
  SessionClosedRequireSaslAuthError,
  createClient,
  digestMd5,
  type ClientOptions,
  type SaslMechanism,
  type StateChange,
  type ZkClient,
} from '@zkts/protocol';
import { hostPort, text, uniqueRoot, until } from '../support/integration.js';

const USERS = { bob: 'bob-secret', carol: 'carol-secret' };

/** DIGEST-MD5 that counts its exchanges (one per connection). */
function counted(username: string, password: string): SaslMechanism & { exchanges: number } {
  const inner = digestMd5({ username, password });
  const m = { name: inner.name, exchanges: 0, start: (s: { host: string; port: number }) => (m.exchanges++, inner.start(s)) };
  return m;
}

const clients: ZkClient[] = [];
async function client(connectString: string, options: ClientOptions = {}): Promise<ZkClient> {
  const c = createClient(connectString, { sessionTimeout: 4000, ...options });
  clients.push(c);
  return c.connect();
}

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

describe('DIGEST-MD5 on a SASL server', () => {
  let server: ZooKeeperServer;
  let proxy: FaultProxy;
  const root = uniqueRoot('sasl');

  beforeAll(async () => {
    server = await startZooKeeper({ sasl: { digestUsers: USERS }, tickTime: 500, minSessionTimeout: 1000 });
    proxy = await startFaultProxy(hostPort(server.connectString));
    const admin = await client(server.connectString);
    await admin.create(root);
    await admin.close();
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.[Symbol.asyncDispose]();
  });

  it('whoAmI shows the sasl identity; a sasl:bob ACL lets bob in and keeps carol and anonymous out', async () => {
    const bob = await client(server.connectString, { sasl: { mechanism: 'DIGEST-MD5', username: 'bob', password: USERS.bob } });
    expect(await bob.whoAmI()).toContainEqual({ authScheme: 'sasl', user: 'bob' });
    await bob.create(`${root}/bobs`, 'for bob', { acl: [Acls.sasl('bob')] });
    expect(text((await bob.getData(`${root}/bobs`)).data)).toBe('for bob');
    expect(await bob.getACL(`${root}/bobs`)).toMatchObject({ acl: [{ perms: Perms.ALL, id: { scheme: 'sasl', id: 'bob' } }] });

    const carol = await client(server.connectString, { sasl: { mechanism: 'DIGEST-MD5', username: 'carol', password: USERS.carol } });
    expect(await carol.whoAmI()).toContainEqual({ authScheme: 'sasl', user: 'carol' });
    await expect(carol.getData(`${root}/bobs`)).rejects.toMatchObject({ code: 'NO_AUTH' });
    const anonymous = await client(server.connectString);
    expect((await anonymous.whoAmI()).map((i) => i.authScheme)).not.toContain('sasl');
    await expect(anonymous.getData(`${root}/bobs`)).rejects.toMatchObject({ code: 'NO_AUTH' });
    // Read for carol, everything for bob: each gets exactly what the ACL says.
    await bob.create(`${root}/shared`, 'x', { acl: [Acls.sasl('bob'), Acls.sasl('carol', Perms.READ)] });
    expect(text((await carol.getData(`${root}/shared`)).data)).toBe('x');
    await expect(carol.setData(`${root}/shared`, 'y')).rejects.toMatchObject({ code: 'NO_AUTH' });
  });

  it('a wrong password: AuthFailedError at once, one exchange, no reconnect storm', async () => {
    const mechanism = counted('bob', 'not-the-password');
    const c = createClient(server.connectString, { sessionTimeout: 4000, sasl: { mechanism } });
    const seen: string[] = [];
    c.onStateChange((s) => seen.push(s.state));
    const started = Date.now();
    const error = await c.connect({ timeout: 10_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthFailedError);
    expect((error as Error).message).toMatch(/SASL DIGEST-MD5: the server rejected/);
    expect(Date.now() - started).toBeLessThan(3000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(mechanism.exchanges).toBe(1);
    expect(seen).toEqual(['connecting', 'auth-failed', 'closed']);
    // An unknown user is refused the same way.
    const stranger = createClient(server.connectString, { sessionTimeout: 4000, sasl: { mechanism: 'DIGEST-MD5', username: 'mallory', password: 'x' } });
    await expect(stranger.connect()).rejects.toBeInstanceOf(AuthFailedError);
  });

  it('survives a server restart: the new connection authenticates again and the ACL still lets it in', async () => {
    const mechanism = counted('bob', USERS.bob);
    const bob = await client(server.connectString, { sasl: { mechanism }, sessionTimeout: 10_000 });
    await bob.create(`${root}/restart`, 'before', { acl: [Acls.sasl('bob')] });
    const id = bob.sessionId;
    const seen: StateChange[] = [];
    bob.onStateChange((s) => seen.push(s));
    await server.restart();
    await until(() => bob.state === 'connected' && mechanism.exchanges === 2, 30_000, 'the re-authenticated connection');
    expect(bob.sessionId).toBe(id);
    expect(seen.map((s) => s.state)).toEqual(['suspended', 'connected']);
    expect(await bob.whoAmI()).toContainEqual({ authScheme: 'sasl', user: 'bob' });
    await bob.setData(`${root}/restart`, 'after');
    expect(text((await bob.getData(`${root}/restart`)).data)).toBe('after');
  });

  it('survives a renewal: the new session authenticates and keeps its access', async () => {
    const mechanism = counted('bob', USERS.bob);
    const bob = await client(proxy.connectString, { sasl: { mechanism } });
    await bob.create(`${root}/renewal`, 'r', { acl: [Acls.sasl('bob')] });
    const firstId = bob.sessionId;
    // Cut off behind the proxy while another connection takes the session over and closes it.
    proxy.blackhole();
    const thief = createClient(server.connectString, { sessionTimeout: 4000, sessionId: firstId, sessionPassword: bob.sessionPassword });
    await thief.connect();
    await thief.close();
    proxy.restore();
    await until(() => bob.state === 'connected' && bob.sessionId !== firstId, 20_000, 'the new session');
    expect(mechanism.exchanges).toBeGreaterThanOrEqual(2);
    expect(await bob.whoAmI()).toContainEqual({ authScheme: 'sasl', user: 'bob' });
    expect(text((await bob.getData(`${root}/renewal`)).data)).toBe('r');
    await bob.create(`${root}/renewal/eph`, null, { mode: 'ephemeral', acl: [Acls.sasl('bob')] });
  });
});

describe('a server that enforces SASL (enforce.auth.schemes=sasl)', () => {
  let server: ZooKeeperServer;

  beforeAll(async () => {
    server = await startZooKeeper({ sasl: { digestUsers: USERS }, enforceAuth: ['sasl'], tickTime: 500, minSessionTimeout: 1000 });
  });
  afterAll(async () => {
    await server?.[Symbol.asyncDispose]();
  });

  it('refuses a client without SASL with SessionClosedRequireSaslAuthError within the connect timeout', async () => {
    const connectTimeout = 2000;
    const c = createClient(server.connectString, { sessionTimeout: 4000, connectTimeout });
    clients.push(c);
    const started = Date.now();
    await c.connect();
    const error = await c.getData('/').catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(connectTimeout);
    expect(error).toBeInstanceOf(SessionClosedRequireSaslAuthError);
    expect(error).toMatchObject({ code: 'SESSION_CLOSED_REQUIRE_SASL_AUTH', keeperCode: -124 });
    await until(() => c.state === 'auth-failed', 2000, 'auth-failed');
    await expect(c.exists('/')).rejects.toBeInstanceOf(SessionClosedRequireSaslAuthError);
  });

  it('an idle client without SASL learns it from its first ping: auth-failed, not a hang', async () => {
    const c = createClient(server.connectString, { sessionTimeout: 3000 });
    clients.push(c);
    const failed = new Promise<StateChange>((resolve) => c.onStateChange((s) => s.state === 'auth-failed' && resolve(s)));
    await c.connect();
    const change = await failed;
    expect(change.error).toBeInstanceOf(SessionClosedRequireSaslAuthError);
  });

  it('lets a SASL client in; a wrong password gets SessionClosedRequireSaslAuthError (the server says -124)', async () => {
    const bob = await client(server.connectString, { sasl: { mechanism: 'DIGEST-MD5', username: 'bob', password: USERS.bob } });
    expect(await bob.whoAmI()).toContainEqual({ authScheme: 'sasl', user: 'bob' });
    await bob.create(uniqueRoot('enforced'), 'ok');
    const wrong = createClient(server.connectString, { sessionTimeout: 4000, sasl: { mechanism: 'DIGEST-MD5', username: 'bob', password: 'nope' } });
    const error = await wrong.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionClosedRequireSaslAuthError);
    expect((error as Error).message).toMatch(/refused the authentication/);
  });
});
