// ACLs on recipe nodes with a SASL identity, against a real server with DIGEST-MD5 users: bob's client (SASL,
// aclProvider `creator all` + world read) runs a lock, an election, a queue and a counter; carol (SASL too) gets
// NO_AUTH writing or deleting each node, before and after bob's session expires and is renewed (the SASL
// exchange runs again on the new session before anything else is sent).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Acls, Perms, ServerError, createClient, type ACL, type ClientOptions, type ZkClient } from '@zkts/protocol';
import { DistributedAtomicLong, LeaderElection, Mutex, Queue } from '@zkts/recipes';
import { startFaultProxy, startZooKeeper, type FaultProxy, type ZooKeeperServer } from '@zkts/testkit';

import { uniqueRoot, until } from '../../support/helpers.js';

const USERS = { bob: 'bob-secret', carol: 'carol-secret' };
const sasl = (user: keyof typeof USERS): ClientOptions => ({ sasl: { mechanism: 'DIGEST-MD5', username: user, password: USERS[user] } });
const BOB_ACL: ACL[] = [{ perms: Perms.ALL, id: { scheme: 'sasl', id: 'bob' } }, { perms: Perms.READ, id: { scheme: 'world', id: 'anyone' } }];

let server: ZooKeeperServer;
const opened: ZkClient[] = [];
const proxies: FaultProxy[] = [];

async function client(connectString: string, options: ClientOptions): Promise<ZkClient> {
  const c = createClient(connectString, { sessionTimeout: 4000, ...options });
  opened.push(c);
  return c.connect();
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'OK';
  } catch (e) {
    if (e instanceof ServerError) return e.code;
    throw e;
  }
}

async function expectGuarded(bob: ZkClient, carol: ZkClient, node: string): Promise<void> {
  expect(await codeOf(carol.setData(node, 'carol was here')), `setData ${node}`).toBe('NO_AUTH');
  expect(await codeOf(carol.delete(node)), `delete ${node}`).toBe('NO_AUTH');
  expect((await bob.getACL(node)).acl, `ACL of ${node}`).toEqual(BOB_ACL);
}

async function families(bob: ZkClient, carol: ZkClient, root: string): Promise<void> {
  const lease = await new Mutex(bob, `${root}/lock`).acquire({ timeout: 10_000 });
  await expectGuarded(bob, carol, lease.node);
  await expectGuarded(bob, carol, `${root}/lock`);
  await lease.release();

  const election = new LeaderElection(bob, `${root}/election`, { id: 'bob' });
  await election.start();
  await election.awaitLeadership({ timeout: 10_000 });
  await expectGuarded(bob, carol, (await election.participants())[0]!.node);
  await election.close();

  const queue = new Queue(bob, `${root}/queue`);
  await expectGuarded(bob, carol, await queue.offer('job'));
  expect(new TextDecoder().decode(await queue.take({ timeout: 10_000 }))).toBe('job');

  const counter = new DistributedAtomicLong(bob, `${root}/counter`);
  expect((await counter.increment()).succeeded).toBe(true);
  await expectGuarded(bob, carol, `${root}/counter`);
  await counter.close();
}

describe('recipe nodes under a SASL identity', () => {
  beforeAll(async () => {
    server = await startZooKeeper({ sasl: { digestUsers: USERS }, tickTime: 500, minSessionTimeout: 1000 });
  });
  afterAll(async () => {
    await Promise.allSettled(opened.map((c) => c.close()));
    await Promise.allSettled(proxies.map((p) => p.close()));
    await server?.[Symbol.asyncDispose]();
  });

  it('carol gets NO_AUTH on bob\'s recipe nodes, before and after bob\'s session is renewed', async () => {
    const first = server.connectString.split(',')[0]!;
    const proxy = await startFaultProxy({ host: first.slice(0, first.lastIndexOf(':')), port: Number(first.slice(first.lastIndexOf(':') + 1)) });
    proxies.push(proxy);
    const bob = await client(proxy.connectString, { ...sasl('bob'), aclProvider: { default: [...Acls.creatorAll(), ...Acls.readUnsafe()] } });
    const carol = await client(server.connectString, sasl('carol'));
    expect(await bob.whoAmI()).toContainEqual({ authScheme: 'sasl', user: 'bob' });
    const root = uniqueRoot('acl-sasl');
    await families(bob, carol, root);

    // Expire bob's session from the server side while he is cut off, then let him renew it.
    const old = bob.sessionId;
    let expired = false;
    const off = bob.onStateChange((c) => (expired ||= c.state === 'expired'));
    proxy.blackhole();
    proxy.cut();
    const thief = createClient(server.connectString, { ...sasl('bob'), sessionTimeout: 4000, sessionId: old, sessionPassword: bob.sessionPassword });
    await thief.connect();
    await thief.close();
    proxy.restore();
    await until(() => expired, 10_000, 'bob heard of the expiry');
    off();
    await bob.connected({ timeout: 10_000 });
    expect(bob.sessionId).not.toBe(old);
    expect(await bob.whoAmI()).toContainEqual({ authScheme: 'sasl', user: 'bob' });
    await families(bob, carol, root);
  });
});
