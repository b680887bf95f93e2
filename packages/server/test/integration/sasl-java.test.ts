// ZooKeeper's Java client authenticating with SASL DIGEST-MD5 (a JAAS `Client` section, DigestLoginModule)
// against startServer: it reaches SaslAuthenticated, whoAmI shows sasl:bob, the sasl ACLs it sets hold for zkts
// clients and the other way round, and a wrong password leaves it in AuthFailed, as against ZooKeeper.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderClientJaas } from '@zkts/testkit';
import { Acls, createClient } from '@zkts/protocol';
import { startServer, type ZkServer } from '@zkts/server';

import { compileJavaPrograms, type JavaPrograms } from '../../../../test/support/java-peer.js';

const USERS = { bob: 'bob-secret', carol: 'carol-secret' };

describe('the Java client with SASL against startServer', () => {
  let java: JavaPrograms;
  let server: ZkServer;

  beforeAll(async () => {
    java = compileJavaPrograms();
    server = await startServer({ saslUsers: USERS, tickTime: 500 });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    java?.dispose();
  });

  it('authenticates, sees its identity, and its sasl ACLs hold for zkts clients (and back)', async () => {
    const made = await java.peer(renderClientJaas({ username: 'bob', password: USERS.bob }), server.connectString,
      ['whoami', 'create:/java-bob:bob:from java', 'create:/java-carol:carol:for carol']);
    expect(made.code, made.err).toBe(0);
    expect(made.out).toContain('STATE SaslAuthenticated');
    expect(made.out).toContain('WHOAMI sasl bob');
    const bob = await createClient(server.connectString, { sessionTimeout: 4000, sasl: { mechanism: 'DIGEST-MD5', username: 'bob', password: USERS.bob } }).connect();
    expect(Buffer.from((await bob.getData('/java-bob')).data ?? []).toString()).toBe('from java');
    await expect(bob.getData('/java-carol')).rejects.toMatchObject({ code: 'NO_AUTH' });
    await bob.create('/zkts-bob', 'from zkts', { acl: [Acls.sasl('bob')] });
    await bob.close();
    const asCarol = await java.peer(renderClientJaas({ username: 'carol', password: USERS.carol }), server.connectString, ['get:/java-carol', 'get:/zkts-bob']);
    expect(asCarol.code, asCarol.err).toBe(0);
    expect(asCarol.out).toContain('GET /java-carol for carol');
    expect(asCarol.out).toContain('GET /zkts-bob ERR NOAUTH');
  }, 120_000);

  it('a wrong password: AuthFailed, as ZooKeeper answers it', async () => {
    const wrong = await java.peer(renderClientJaas({ username: 'bob', password: 'nope' }), server.connectString, ['whoami']);
    expect(wrong.out).toContain('STATE AuthFailed');
    expect(wrong.code).toBe(2);
  }, 120_000);
});
