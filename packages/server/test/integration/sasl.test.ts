// SASL DIGEST-MD5 side by side: the zkts client authenticates against ZooKeeper 3.8 (a JAAS DigestLoginModule
// written by the testkit) and against startServer with the same users; whoAmI, sasl ACLs, `auth` ACLs, a wrong
// password or an unknown user, and enforce.auth must come out the same; so must the bytes of SASL's edges (the
// challenge's shape, a failed exchange's reply and close, enforce.auth's -124 and close).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startZooKeeper, type ZooKeeperServer } from '@zkts/testkit';
import { Acls, AuthFailedError, Perms, createClient, type ZkClient } from '@zkts/protocol';
import { startServer, type ZkServer } from '@zkts/server';

import { enforced, failedExchange } from '../support/sasl-wire.js';

const USERS = { bob: 'bob-secret', 'bjørn': 'pässwörd' };

interface Target {
  name: string;
  connectString: () => string;
}

async function connectAs(connectString: string, user?: string, password?: string): Promise<ZkClient> {
  const c = createClient(connectString, {
    sessionTimeout: 4000,
    ...(user === undefined ? {} : { sasl: { mechanism: 'DIGEST-MD5' as const, username: user, password: password ?? '' } }),
  });
  return c.connect({ timeout: 10_000 });
}

const sortInfo = (infos: { authScheme: string; user: string }[]): string[] => infos.map((i) => `${i.authScheme}:${i.user}`).sort();

/** Everything one server shows a SASL client, as plain data to compare. */
async function observe(connectString: string, root: string): Promise<unknown> {
  const seen: Record<string, unknown> = {};
  const bob = await connectAs(connectString, 'bob', USERS.bob);
  const bjorn = await connectAs(connectString, 'bjørn', USERS['bjørn']);
  const anon = await connectAs(connectString);
  try {
    seen.whoAmI = sortInfo(await bob.whoAmI()).map((s) => s.replace(/^ip:.*/, 'ip:*'));
    seen.whoAmIUtf8 = sortInfo(await bjorn.whoAmI()).filter((s) => s.startsWith('sasl'));
    await bob.create(root, null);
    await bob.create(`${root}/bobs`, 'b', { acl: [Acls.sasl('bob')] });
    seen.acl = (await bob.getACL(`${root}/bobs`)).acl;
    const codeOf = (p: Promise<unknown>): Promise<string> => p.then(() => 'ok', (e: { code?: string }) => e.code ?? 'error');
    seen.bjornRead = await codeOf(bjorn.getData(`${root}/bobs`));
    seen.anonRead = await codeOf(anon.getData(`${root}/bobs`));
    await bob.create(`${root}/auth`, 'a', { acl: [{ perms: Perms.ALL, id: { scheme: 'auth', id: '' } }] });
    seen.authAcl = (await bob.getACL(`${root}/auth`)).acl;
    seen.anonAuthAcl = await codeOf(anon.create(`${root}/x`, 'a', { acl: [{ perms: Perms.ALL, id: { scheme: 'auth', id: '' } }] }));
    seen.badSaslId = await codeOf(bob.create(`${root}/y`, 'a', { acl: [{ perms: Perms.ALL, id: { scheme: 'sasl', id: 'a@b@c' } }] }));
    await bob.setACL(`${root}/bobs`, [Acls.sasl('bob'), Acls.sasl('bjørn', Perms.READ)]);
    seen.bjornReadAfter = await codeOf(bjorn.getData(`${root}/bobs`));
    seen.bjornWrite = await codeOf(bjorn.setData(`${root}/bobs`, 'x'));
  } finally {
    await Promise.all([bob.close(), bjorn.close(), anon.close()]);
  }
  return seen;
}

describe('SASL DIGEST-MD5, side by side with ZooKeeper', () => {
  let zookeeper: ZooKeeperServer;
  let ours: ZkServer;
  let enforcedZk: ZooKeeperServer;
  let enforcedOurs: ZkServer;

  beforeAll(async () => {
    [zookeeper, ours, enforcedZk, enforcedOurs] = await Promise.all([
      startZooKeeper({ sasl: { digestUsers: USERS }, tickTime: 500 }),
      startServer({ saslUsers: USERS, tickTime: 500 }),
      startZooKeeper({ sasl: { digestUsers: USERS }, tickTime: 500, enforceAuth: ['sasl'] }),
      startServer({ saslUsers: USERS, tickTime: 500, enforceAuth: true }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([zookeeper?.[Symbol.asyncDispose](), ours?.close(), enforcedZk?.[Symbol.asyncDispose](), enforcedOurs?.close()]);
  });

  it('whoAmI, sasl and auth ACLs, InvalidACL: the same on both', async () => {
    const root = `/sasl-${Date.now()}`;
    const [theirs, mine] = await Promise.all([observe(zookeeper.connectString, root), observe(ours.connectString, root)]);
    expect(mine).toEqual(theirs);
    expect(mine).toMatchObject({ whoAmI: ['ip:*', 'sasl:bob'], bjornRead: 'NO_AUTH', bjornReadAfter: 'ok' });
  });

  it('a wrong password and an unknown user: AuthFailedError from both', async () => {
    const targets: Target[] = [
      { name: 'zookeeper', connectString: () => zookeeper.connectString },
      { name: 'ours', connectString: () => ours.connectString },
    ];
    for (const t of targets) {
      for (const [user, password] of [['bob', 'wrong'], ['mallory', 'x']] as const) {
        const error = await connectAs(t.connectString(), user, password).catch((e: unknown) => e);
        expect(error, `${t.name} ${user}`).toBeInstanceOf(AuthFailedError);
      }
    }
  });

  it('a SASL super user (zookeeper.superUser): super in whoAmI, past every ACL, on both', async () => {
    const pair = await Promise.all([
      startZooKeeper({ sasl: { digestUsers: USERS, superUser: 'bob' }, tickTime: 500 }),
      startServer({ saslUsers: USERS, saslSuperUser: 'bob', tickTime: 500 }),
    ]);
    try {
      const seen = [];
      for (const s of pair) {
        const other = await connectAs(s.connectString, 'bjørn', USERS['bjørn']);
        await other.create('/private', 'p', { acl: [Acls.sasl('bjørn')] });
        await other.close();
        const bob = await connectAs(s.connectString, 'bob', USERS.bob);
        seen.push({
          whoAmI: sortInfo(await bob.whoAmI()).filter((i) => !i.startsWith('ip:')),
          read: Buffer.from((await bob.getData('/private')).data ?? []).toString(),
        });
        await bob.close();
      }
      expect(seen[1]).toEqual(seen[0]);
      expect(seen[1]).toEqual({ whoAmI: ['sasl:bob', 'super:'], read: 'p' });
    } finally {
      await Promise.all([pair[0][Symbol.asyncDispose](), pair[1].close()]);
    }
  }, 120_000);

  it('enforce.auth: an anonymous session is closed with -124 by both; a SASL session works', async () => {
    for (const connectString of [enforcedZk.connectString, enforcedOurs.connectString]) {
      const anon = await connectAs(connectString).catch((e: unknown) => e);
      const code = anon instanceof Error ? (anon as { code?: string }).code : await (anon as ZkClient).exists('/').then(() => 'ok', (e: { code?: string }) => e.code);
      expect(code, connectString).toBe('SESSION_CLOSED_REQUIRE_SASL_AUTH');
      if (!(anon instanceof Error)) await (anon as ZkClient).close().catch(() => undefined);
      const bob = await connectAs(connectString, 'bob', USERS.bob);
      expect(await bob.exists('/zookeeper')).not.toBeNull();
      await bob.close();
    }
  });

  it('the challenge, and a failed exchange: the same bytes, then the close', async () => {
    const theirs = await failedExchange(zookeeper.port);
    expect(await failedExchange(ours.port)).toEqual(theirs);
  });

  it('enforce.auth: -124 for the first request, then the close (same bytes); a failed exchange answers -124', async () => {
    expect(await enforced(enforcedOurs.port)).toBe(await enforced(enforcedZk.port));
    const [a, b] = [await failedExchange(enforcedZk.port), await failedExchange(enforcedOurs.port)];
    expect(b).toEqual(a);
  });
});
