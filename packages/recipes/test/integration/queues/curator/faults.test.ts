// Curator's queue family under faults, on the real server: lost replies (put, claim), cut connections, session
// expiry, and a lock-safe consumer killed (SIGKILL, in its own process) or expired mid-item. Counted with an
// observer's persistent recursive watch: every item node is created once and deleted once.
import { describe, expect, it } from 'vitest';
import type { WatchEvent, ZkClient } from '@zkts/protocol';

import { DistributedIdQueue, DistributedPriorityQueue, DistributedQueue } from '@zkts/recipes';

import { expireSession, victimClient } from '../../../support/expiry.js';
import { zktsProcess } from '../../../support/foreign.js';
import { childrenOf, rng, sharedServer, sleep, uniqueRoot, until } from '../../../support/helpers.js';
import { perTestResources } from '../../../support/testbed.js';
import { utf8 } from '../../../support/queue-serializer.js';

const { clients, proxies } = perTestResources();

/** Counts creations and deletions of `queue-` nodes under `dir`, seen by a client nobody disturbs. */
async function itemCounter(observer: ZkClient, dir: string): Promise<{ created: number; deleted: number }> {
  const counts = { created: 0, deleted: 0 };
  await observer.mkdirp(dir);
  const watch = await observer.addWatch(dir, 'persistent-recursive');
  watch.on((event: WatchEvent) => {
    if (!/\/queue-[^/]*$/.test(event.path)) return;
    if (event.type === 'created') counts.created++;
    if (event.type === 'deleted') counts.deleted++;
  });
  return counts;
}

describe('Curator queues under faults', () => {
  it('a put whose reply is lost creates exactly one item (every layout)', async () => {
    const dir = `${uniqueRoot()}/q`;
    const observer = await clients.connect();
    const counts = await itemCounter(observer, dir);
    const { client, proxy } = await victimClient(clients, proxies);
    const plain = new DistributedQueue(client, dir, { serializer: utf8 });
    const prio = new DistributedPriorityQueue(client, dir, { serializer: utf8 });
    const ids = new DistributedIdQueue(client, dir, { serializer: utf8 });
    await plain.put('warm-up'); // the directory exists: the dropped reply is the item's create
    let suspensions = 0;
    client.onStateChange((change) => {
      if (change.state === 'suspended') suspensions++;
    });
    const puts: (() => Promise<string>)[] = [() => plain.put('p'), () => prio.put('q', 7), () => ids.put('r', 'id-r'), () => plain.putMulti(['s', 't'])];
    const paths: string[] = [];
    for (const put of puts) {
      proxy.dropNextReply();
      paths.push(await put());
    }
    expect(suspensions).toBe(4); // each reply really was lost
    expect(new Set(paths).size).toBe(4);
    await until(async () => (await childrenOf(observer, dir)).length === 5, 10_000, 'the put receipts deleted');
    const children = await childrenOf(observer, dir);
    for (const p of paths) expect(children).toContain(p.slice(dir.length + 1));
    await until(() => counts.created === 5);
  });

  it.each(['normal', 'lock-safe'] as const)('%s consumers, cut connections while items flow: every message delivered exactly once, nothing left over', async (mode) => {
    const root = uniqueRoot();
    const dir = `${root}/q`;
    const lockPath = mode === 'lock-safe' ? `${root}/locks` : undefined;
    const observer = await clients.connect();
    const counts = await itemCounter(observer, dir);
    const producer = await victimClient(clients, proxies);
    const consumerA = await victimClient(clients, proxies);
    const consumerB = await victimClient(clients, proxies);
    const got: string[] = [];
    const queues = [consumerA, consumerB].map((v) => new DistributedQueue(v.client, dir, { serializer: utf8, ...(lockPath === undefined ? {} : { lockPath }), consumer: (m) => void got.push(m) }));
    await Promise.all(queues.map((q) => q.start()));
    const n = 200;
    const random = rng(0x5eed);
    let cuts = 0;
    let flowing = true;
    const chaos = (async () => {
      while (flowing) {
        await sleep(20 + random() * 80);
        [producer, consumerA, consumerB][Math.floor(random() * 3)]!.proxy.cut();
        cuts++;
      }
    })();
    const q = new DistributedQueue(producer.client, dir, { serializer: utf8 });
    for (let i = 0; i < n; i += 5) {
      await Promise.all([0, 1, 2, 3, 4].map((k) => q.put(`m${i + k}`)));
      await sleep(40); // items keep flowing for a while, across many cuts
    }
    await until(() => got.length >= n, 60_000, `all ${n} messages (have ${got.length})`);
    flowing = false;
    await chaos;
    await sleep(500);
    expect(cuts).toBeGreaterThan(10);
    expect(got.length).toBe(n);
    expect(new Set(got).size).toBe(n);
    await until(() => counts.deleted === n);
    expect(counts.created).toBe(n);
    // No item, no claim receipt, no put receipt left (a receipt's delete cut off is sent again after the reconnect).
    await until(async () => (await childrenOf(observer, dir)).length === 0, 10_000, 'an empty queue directory');
    // A consumer counts a removal when it learns its delete committed: after a cut that took the reply, that is
    // once it reconnected and found the item gone, which can be after the observer saw the node go.
    const removed = (): number => queues.reduce((sum, q) => sum + q.stats.removed, 0);
    await until(() => removed() >= n, 10_000, 'every removal counted').catch((e: unknown) => {
      throw new Error(`removals counted: ${removed()} of ${n}, stats ${JSON.stringify(queues.map((q) => q.stats))}`, { cause: e });
    });
    expect(removed()).toBe(n);
    if (lockPath !== undefined) await until(async () => (await childrenOf(observer, lockPath)).length === 0, 10_000, 'no item lock left');
  });

  it('consumers whose sessions expire mid-stream (3 times) lose nothing and deliver nothing twice', async () => {
    const dir = `${uniqueRoot()}/q`;
    const observer = await clients.connect();
    const counts = await itemCounter(observer, dir);
    const victim = await victimClient(clients, proxies);
    const got: string[] = [];
    await using consumer = new DistributedQueue(victim.client, dir, { serializer: utf8, consumer: async (m) => {
      got.push(m);
      await sleep(3);
    } });
    await consumer.start();
    const producerVictim = await victimClient(clients, proxies);
    const producer = new DistributedQueue(producerVictim.client, dir, { serializer: utf8 });
    const n = 90;
    let put = 0;
    const producing = (async () => {
      while (put < n) await producer.put(`m${put++}`);
    })();
    for (let round = 0; round < 3; round++) {
      await until(() => got.length >= (round + 1) * 15, 30_000);
      await Promise.all([expireSession(victim, { renewed: true }), round === 1 ? expireSession(producerVictim, { renewed: true }) : undefined]);
    }
    await producing;
    await until(() => got.length >= n, 30_000).catch(async (e: unknown) => {
      throw new Error(`have ${got.length} of ${n}, stats ${JSON.stringify(consumer.stats)}, left: ${(await childrenOf(observer, dir)).join(' ')}`, { cause: e });
    });
    await sleep(300);
    expect(got.length).toBe(n);
    expect(new Set(got).size).toBe(n);
    await until(() => counts.deleted === n);
    expect(counts.created).toBe(n);
    await until(async () => (await childrenOf(observer, dir)).length === 0, 10_000, 'an empty queue directory');
  });

  it('lock-safe: a consumer process killed (SIGKILL) mid-item: the item is delivered again and removed once', async () => {
    const root = uniqueRoot();
    const dir = `${root}/q`;
    const lockPath = `${root}/locks`;
    const observer = await clients.connect();
    const counts = await itemCounter(observer, dir);
    const producer = new DistributedQueue(observer, dir, { serializer: utf8 });
    await producer.put('victim');
    const child = zktsProcess('queue-consumer.ts', sharedServer(), dir, lockPath, 'victim');
    await child.line(/GOT victim/, 60_000);
    expect(await childrenOf(observer, lockPath)).toHaveLength(1); // its lock, ephemeral in its session
    const got: string[] = [];
    await using survivor = new DistributedQueue(await clients.connect(), dir, { serializer: utf8, lockPath, consumer: (m) => void got.push(m) });
    await survivor.start();
    const n = 20;
    for (let i = 0; i < n; i++) await producer.put(`m${i}`);
    await until(() => got.length === n, 30_000); // everything but the locked item
    expect(got).not.toContain('victim');
    child.proc.kill('SIGKILL');
    await until(() => got.includes('victim'), 30_000, 'the killed consumer’s item delivered again');
    await sleep(300);
    expect(child.output()).not.toContain('FINISHED victim');
    expect(got.length).toBe(n + 1);
    expect(new Set(got).size).toBe(n + 1);
    await until(() => counts.deleted === n + 1);
    expect(counts.created).toBe(n + 1);
    await until(() => survivor.stats.removed >= n + 1, 10_000, 'the survivor’s removals counted'); // its reply may trail the observer's event
    expect(survivor.stats.removed).toBe(n + 1);
    expect(await childrenOf(observer, dir)).toEqual([]);
    // A consumer that listed an item before another finished it may still be between locking it and finding
    // it gone (then it unlocks): wait for that; a lock that is never released fails here.
    await until(async () => (await childrenOf(observer, lockPath)).length === 0, 10_000, 'no item lock left');
  });

  it('lock-safe: a consumer whose session expires mid-item does not remove it; another consumer finishes it', async () => {
    const root = uniqueRoot();
    const dir = `${root}/q`;
    const lockPath = `${root}/locks`;
    const observer = await clients.connect();
    const counts = await itemCounter(observer, dir);
    const victim = await victimClient(clients, proxies);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const zombieGot: string[] = [];
    await using zombie = new DistributedQueue(victim.client, dir, { serializer: utf8, lockPath, consumer: async (m) => {
      zombieGot.push(m);
      if (m === 'slow') await held;
    } });
    const producer = new DistributedQueue(observer, dir, { serializer: utf8 });
    await producer.put('slow');
    await zombie.start();
    await until(() => zombieGot.includes('slow'));
    await expireSession(victim, { renewed: true }); // its lock goes with the session
    const got: string[] = [];
    await using other = new DistributedQueue(await clients.connect(), dir, { serializer: utf8, lockPath, consumer: (m) => void got.push(m) });
    await other.start();
    await until(() => got.includes('slow'), 30_000);
    release(); // the zombie finishes now, in its new session: it must not remove anything
    await until(() => zombie.stats.lost === 1);
    await producer.put('after');
    // A lock-safe removal is counted when its delete is answered, after the consumer returned: wait for it.
    await until(() => zombie.stats.removed + other.stats.removed >= 2, 10_000, 'both items removed');
    expect(zombie.stats.removed + other.stats.removed).toBe(2);
    expect(zombie.stats.removed).toBe(zombieGot.includes('after') ? 1 : 0); // never 'slow', whose lock it lost
    await until(() => counts.deleted === 2);
    expect(counts.created).toBe(2);
    expect(await childrenOf(observer, dir)).toEqual([]);
    // A consumer that listed an item before another finished it may still be between locking it and finding
    // it gone (then it unlocks): wait for that; a lock that is never released fails here.
    await until(async () => (await childrenOf(observer, lockPath)).length === 0, 10_000, 'no item lock left');
  });
});
