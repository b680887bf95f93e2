// ACLs on recipe nodes, against the real server: a client whose aclProvider gives `creator all` + world read
// (digest identity alice) runs each recipe family; another identity (mallory) gets NO_AUTH writing or deleting
// every node a recipe made (lock, election, queue item, counter, registration, barrier, group member), while
// the recipes keep working for their owner, also after a session expiry and renewal (credentials replayed). A
// per-recipe `acl` overrides the client's; a client without a provider leaves nodes open (the negative control).
import { describe, expect, it } from 'vitest';

import { Acls, Perms, ServerError, digestId, type ACL, type ClientOptions, type ZkClient } from '@zkts/protocol';
import {
  Barrier, Counter, DistributedAtomicLong, DoubleBarrier, GroupMember, LockingQueue, SharedCount, SharedValue, SimpleDistributedQueue, LeaderElection, LeaderSelector, Mutex, NonBlockingLease, PersistentNode, Queue, Semaphore,
  ServiceDiscovery, serviceInstance,
} from '@zkts/recipes';

import { expireSession, victimClient } from '../../support/expiry.js';
import { uniqueRoot, until } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients, proxies } = perTestResources();

const ALICE = { scheme: 'digest', auth: 'alice:alice-secret' };
const MALLORY = { scheme: 'digest', auth: 'mallory:mallory-secret' };
const OWNED: ClientOptions = { auth: [ALICE], aclProvider: { default: [...Acls.creatorAll(), ...Acls.readUnsafe()] } };
/** What the server stores for `creatorAll` + world read when alice creates: `auth` expands to her digest id. */
const ALICE_ACL: ACL[] = [
  { perms: Perms.ALL, id: { scheme: 'digest', id: digestId('alice', 'alice-secret') } },
  { perms: Perms.READ, id: { scheme: 'world', id: 'anyone' } },
];

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'OK';
  } catch (e) {
    if (e instanceof ServerError) return e.code;
    throw e;
  }
}

/** Mallory can neither change nor delete `node`; the node keeps alice's ACL. */
async function expectGuarded(owner: ZkClient, mallory: ZkClient, node: string, acl: ACL[] = ALICE_ACL): Promise<void> {
  expect(await codeOf(mallory.setData(node, 'mallory was here')), `setData ${node}`).toBe('NO_AUTH');
  expect(await codeOf(mallory.delete(node)), `delete ${node}`).toBe('NO_AUTH');
  expect((await owner.getACL(node)).acl, `ACL of ${node}`).toEqual(acl);
  expect(await owner.exists(node)).not.toBeNull();
}

/** Runs every recipe family on `owner` under `root` and checks each node it made against mallory. */
async function everyFamily(owner: ZkClient, mallory: ZkClient, root: string): Promise<void> {
  const lease = await new Mutex(owner, `${root}/lock`).acquire({ timeout: 10_000 });
  await expectGuarded(owner, mallory, lease.node);
  await expectGuarded(owner, mallory, `${root}/lock`);
  expect(lease.lost.aborted).toBe(false);
  await lease.release();

  const permits = await new Semaphore(owner, `${root}/semaphore`, 2).acquire(1, { timeout: 10_000 });
  await expectGuarded(owner, mallory, `${root}/semaphore`);
  await permits.release();

  const election = new LeaderElection(owner, `${root}/election`, { id: 'alice' });
  await election.start();
  await election.awaitLeadership({ timeout: 10_000 });
  const [leader] = await election.participants();
  await expectGuarded(owner, mallory, leader!.node);
  await election.close();

  const queue = new Queue(owner, `${root}/queue`);
  const item = await queue.offer('job');
  await expectGuarded(owner, mallory, item);
  expect(new TextDecoder().decode(await queue.take({ timeout: 10_000 }))).toBe('job');

  const counter = new DistributedAtomicLong(owner, `${root}/counter`);
  const first = await counter.increment();
  expect(first.succeeded).toBe(true);
  await expectGuarded(owner, mallory, `${root}/counter`);
  expect((await counter.increment()).postValue).toBe(first.postValue + 1n);
  await counter.close();

  const discovery = new ServiceDiscovery(owner, `${root}/services`);
  const registered = await discovery.registerService(serviceInstance({ name: 'api', id: 'a1', address: '10.0.0.1', port: 8080 }));
  await expectGuarded(owner, mallory, registered);
  await discovery.close();

  const barrier = new Barrier(owner, `${root}/barrier`);
  await barrier.set();
  await expectGuarded(owner, mallory, `${root}/barrier`);
  await barrier.remove();

  const member = new GroupMember(owner, `${root}/group`, 'alice');
  await member.start({ timeout: 10_000 });
  await expectGuarded(owner, mallory, `${root}/group/alice`);
  await member.close();
}

describe('recipe nodes under the client aclProvider', () => {
  it('another identity gets NO_AUTH on every recipe node; the owner runs every family', async () => {
    const owner = await clients.connect(undefined, OWNED);
    const mallory = await clients.connect(undefined, { auth: [MALLORY] });
    await everyFamily(owner, mallory, uniqueRoot('acl'));
  });

  it('after an expiry and renewal the credentials are replayed: the owner still runs every family on its old nodes', async () => {
    const victim = await victimClient(clients, proxies, OWNED);
    const mallory = await clients.connect(undefined, { auth: [MALLORY] });
    const root = uniqueRoot('acl');
    await everyFamily(victim.client, mallory, root);
    const before = victim.client.sessionId;
    await expireSession(victim, { renewed: true });
    expect(victim.client.sessionId).not.toBe(before);
    // The directories made in the first session carry alice's ACL: only the replayed credential lets the new
    // session create under them again.
    await everyFamily(victim.client, mallory, root);
  });

  it('a recipe `acl` overrides the client provider; aclFor says what a plain create gets', async () => {
    const owner = await clients.connect(undefined, OWNED);
    const mallory = await clients.connect(undefined, { auth: [MALLORY] });
    const root = uniqueRoot('acl');
    const own: ACL[] = [Acls.digest('alice', 'alice-secret', Perms.ALL)];
    const lease = await new Mutex(owner, `${root}/lock`, { acl: own }).acquire({ timeout: 10_000 });
    await expectGuarded(owner, mallory, lease.node, own);
    expect((await owner.getACL(`${root}/lock`)).acl).toEqual(own);
    expect(owner.aclFor('/anything')).toEqual([...Acls.creatorAll(), ...Acls.readUnsafe()]);
    await lease.release();
  });

  it('a recipe `acl` on a client without a provider guards that recipe\'s nodes, family by family', async () => {
    const owner = await clients.connect(undefined, { auth: [ALICE] });
    const mallory = await clients.connect(undefined, { auth: [MALLORY] });
    const root = uniqueRoot('acl');
    const acl = [...Acls.creatorAll(), ...Acls.readUnsafe()];
    const election = new LeaderSelector(owner, `${root}/selector`, async (signal) => {
      await new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true }));
    }, { acl });
    election.start();
    await until(async () => (await owner.getChildren(`${root}/selector`).catch(() => ({ children: [] }))).children.length === 1, 10_000, 'selector node');
    const [selectorNode] = (await owner.getChildren(`${root}/selector`)).children;
    await expectGuarded(owner, mallory, `${root}/selector/${selectorNode!}`);
    await election.close();

    const counter = new DistributedAtomicLong(owner, `${root}/counter`, { acl });
    await counter.increment();
    await expectGuarded(owner, mallory, `${root}/counter`);
    await counter.close();

    const discovery = new ServiceDiscovery(owner, `${root}/services`, { acl });
    await expectGuarded(owner, mallory, await discovery.registerService(serviceInstance({ name: 'api', id: 'a1', address: '10.0.0.1', port: 1 })));
    await discovery.close();

    const lease = await new NonBlockingLease(owner, `${root}/lease`, { duration: 60_000, identifier: 'alice', acl }).tryAcquire();
    expect(lease).not.toBeNull();
    await expectGuarded(owner, mallory, `${root}/lease`);

    const member = new GroupMember(owner, `${root}/group`, 'alice', { acl });
    await member.start({ timeout: 10_000 });
    await expectGuarded(owner, mallory, `${root}/group/alice`);
    await member.close();

    const node = new PersistentNode(owner, `${root}/node`, { mode: 'persistent', acl });
    node.start();
    await node.awaitCreated({ timeout: 10_000 });
    await expectGuarded(owner, mallory, `${root}/node`);
    await node.close();

    const queue = new Queue(owner, `${root}/queue`, { acl });
    await expectGuarded(owner, mallory, await queue.offer('job'));
    await expectGuarded(owner, mallory, `${root}/queue`);

    const simple = new SimpleDistributedQueue(owner, `${root}/simple`, { acl });
    await simple.offer('job');
    const [simpleItem] = (await owner.getChildren(`${root}/simple`)).children;
    await expectGuarded(owner, mallory, `${root}/simple/${simpleItem!}`);
    await expectGuarded(owner, mallory, `${root}/simple`);

    const value = new SharedValue(owner, `${root}/value`, 'v0', { acl });
    await value.start();
    await expectGuarded(owner, mallory, `${root}/value`);
    await value.close();

    const barrier = new Barrier(owner, `${root}/barrier`, { acl });
    await barrier.set();
    await expectGuarded(owner, mallory, `${root}/barrier`);

    const double = new DoubleBarrier(owner, `${root}/double`, 1, { id: 'alice', acl });
    await double.enter({ timeout: 10_000 });
    await expectGuarded(owner, mallory, `${root}/double/alice`);
    await double.leave({ timeout: 10_000 });

    const kazooCounter = new Counter(owner, `${root}/kazoo-counter`, { acl });
    await kazooCounter.add(1);
    await expectGuarded(owner, mallory, `${root}/kazoo-counter`);
    await kazooCounter.close();

    const shared = new SharedCount(owner, `${root}/shared`, 0, { acl });
    await shared.start();
    await expectGuarded(owner, mallory, `${root}/shared`);
    await shared.close();

    const locking = new LockingQueue(owner, `${root}/locking`, { acl });
    await locking.put('job');
    const [entry] = (await owner.getChildren(`${root}/locking/entries`)).children;
    await expectGuarded(owner, mallory, `${root}/locking/entries/${entry!}`);

    // The same client's plain creates stay open: the ACL was the recipes' own.
    await owner.create(`${root}/plain`);
    expect((await owner.getACL(`${root}/plain`)).acl).toEqual(Acls.openUnsafe());
  });

  it('forPath picks an ACL per path, for create, mkdirp parents and multi creates', async () => {
    const root = uniqueRoot('acl');
    const secret: ACL[] = [Acls.digest('alice', 'alice-secret')];
    const owner = await clients.connect(undefined, {
      auth: [ALICE],
      aclProvider: { default: Acls.openUnsafe(), forPath: (path) => (path.includes('/secret') ? secret : undefined) },
    });
    await owner.mkdirp(`${root}/secret/deep`);
    await owner.multi([{ op: 'create', path: `${root}/open` }, { op: 'create', path: `${root}/secret/multi` }]);
    expect((await owner.getACL(root)).acl).toEqual(Acls.openUnsafe());
    expect((await owner.getACL(`${root}/open`)).acl).toEqual(Acls.openUnsafe());
    for (const p of ['secret', 'secret/deep', 'secret/multi']) expect((await owner.getACL(`${root}/${p}`)).acl).toEqual(secret);
    // A namespace view's paths reach the provider with the view's place in front.
    const view = owner.namespace(`${root}/secret`);
    expect(view.aclFor('/x')).toEqual(secret);
    await view.create('/viewed');
    expect((await owner.getACL(`${root}/secret/viewed`)).acl).toEqual(secret);
    expect(owner.namespace(root).aclFor('/open')).toEqual(Acls.openUnsafe());
  });

  it('negative control: without a provider the same nodes are open, and mallory deletes a lock node', async () => {
    const owner = await clients.connect(undefined, { auth: [ALICE] });
    const mallory = await clients.connect(undefined, { auth: [MALLORY] });
    const lease = await new Mutex(owner, `${uniqueRoot('acl')}/lock`).acquire({ timeout: 10_000 });
    expect(await codeOf(mallory.delete(lease.node))).toBe('OK');
    await lease.release();
  });
});
