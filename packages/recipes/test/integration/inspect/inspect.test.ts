// inspectRecipe against a real server: layouts made by zkts's own recipes are named as what they are, with the
// contenders in queue order and each member's session the session of the client that made it; and one lock
// queue shared by Curator (JVM), kazoo (Python) and zkts shows all three libraries in order.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  Counter, DistributedAtomicLong, DistributedPriorityQueue, DoubleBarrier, inspectRecipe, LeaderElection, LockingQueue, Mutex,
  NonBlockingLease, Party, Queue, ReadWriteLock, Semaphore, ServiceDiscovery, serviceInstance, SharedCount,
  type LockHandle, type RecipeInspection,
} from '@zkts/recipes';

import { checkKazoo, compileCurator, curator, kazooWriter, killAll } from '../../support/foreign.js';
import { Clients, childrenOf, sharedServer, uniqueRoot, until } from '../../support/helpers.js';

const clients = new Clients();
afterEach(async () => {
  killAll();
  await clients.closeAll();
});

const roles = (i: RecipeInspection | undefined): string[] => i?.members.map((m) => m.role) ?? [];
const sessions = (i: RecipeInspection | undefined): (bigint | undefined)[] => i?.members.map((m) => m.session) ?? [];

describe('inspectRecipe on zkts recipes', () => {
  it('locks, a semaphore and an election: holders first, waiters in order, each with its session', async () => {
    const root = uniqueRoot('inspect');
    const [c0, c1, c2, look] = await clients.many(4);
    const stop = new AbortController();
    const pending: Promise<LockHandle | void>[] = [];
    const queued = async (path: string, n: number): Promise<void> => until(async () => (await childrenOf(look!, path)).length === n, 10_000, `${n} contenders at ${path}`);

    const held = await new Mutex(c0!, `${root}/mutex`).acquire();
    pending.push(new Mutex(c1!, `${root}/mutex`).acquire({ signal: stop.signal }).catch(() => {}));
    await queued(`${root}/mutex`, 2);
    pending.push(new Mutex(c2!, `${root}/mutex`).acquire({ signal: stop.signal }).catch(() => {}));
    await queued(`${root}/mutex`, 3);
    const mutex = await inspectRecipe(look!, `${root}/mutex`);
    expect(mutex).toMatchObject({ kind: 'mutex', libraries: ['zkts'], title: 'zkts Mutex: held, 2 waiting' });
    expect(roles(mutex)).toEqual(['holder', 'waiter', 'waiter']);
    expect(sessions(mutex)).toEqual([c0!.sessionId, c1!.sessionId, c2!.sessionId]);

    const read = await new ReadWriteLock(c0!, `${root}/rw`).readLock.acquire();
    pending.push(new ReadWriteLock(c1!, `${root}/rw`).writeLock.acquire({ signal: stop.signal }).catch(() => {}));
    await queued(`${root}/rw`, 2);
    pending.push(new ReadWriteLock(c2!, `${root}/rw`).readLock.acquire({ signal: stop.signal }).catch(() => {}));
    await queued(`${root}/rw`, 3);
    const rw = await inspectRecipe(look!, `${root}/rw`);
    expect(rw?.kind).toBe('read-write-lock');
    expect(rw?.members.map((m) => [m.role, m.details[0]?.[0], m.session])).toEqual([
      ['reader', 'holds for', c0!.sessionId], ['writer', 'waits for', c1!.sessionId], ['reader', 'waits for', c2!.sessionId],
    ]);

    const leases = await Promise.all([new Semaphore(c0!, `${root}/sem`, 2).acquire(), new Semaphore(c1!, `${root}/sem`, 2).acquire()]);
    pending.push(new Semaphore(c2!, `${root}/sem`, 2).acquire(1, { signal: stop.signal }).then(() => {}, () => {}));
    await queued(`${root}/sem/locks`, 1);
    const sem = await inspectRecipe(look!, `${root}/sem`);
    expect(sem).toMatchObject({ kind: 'semaphore', title: 'zkts Semaphore: 2 of 2 leases held, 1 waiting' });
    expect(roles(sem)).toEqual(['holder', 'holder', 'waiter']);
    expect(new Set(sessions(sem).slice(0, 2))).toEqual(new Set([c0!.sessionId, c1!.sessionId]));
    expect(sessions(sem)[2]).toBe(c2!.sessionId);

    const a = new LeaderElection(c0!, `${root}/election`, { id: 'a' });
    const b = new LeaderElection(c1!, `${root}/election`, { id: 'b' });
    await a.start();
    await b.start();
    const election = await inspectRecipe(look!, `${root}/election`);
    expect(election?.kind).toBe('election');
    expect(election?.members.map((m) => [m.role, m.owner, m.session])).toEqual([['leader', 'a', c0!.sessionId], ['candidate', 'b', c1!.sessionId]]);

    stop.abort();
    await Promise.all(pending);
    await Promise.all([held.release(), read.release(), ...leases.map((l) => l.release()), a.close(), b.close()]);
    expect(await inspectRecipe(look!, `${root}/mutex`)).toBeUndefined();
    expect(await inspectRecipe(look!, `${root}/nothing-here`)).toBeUndefined();
  });

  it('queues, counters, a lease, discovery, a party and a double barrier', async () => {
    const root = uniqueRoot('inspect');
    const [c0, c1, look] = await clients.many(3);
    const at = (p: string): Promise<RecipeInspection | undefined> => inspectRecipe(look!, `${root}/${p}`);

    const queue = new Queue(c0!, `${root}/queue`);
    await queue.offer('one');
    await queue.offer('two!');
    const q = await at('queue');
    expect(q?.title).toBe('zkts Queue: 2 items');
    expect(q?.members.map((m) => m.details[0])).toEqual([['size', '3 B'], ['size', '4 B']]);
    const prio = new DistributedPriorityQueue(c0!, `${root}/prio`);
    await prio.put(new TextEncoder().encode('late'), 9);
    await prio.put(new TextEncoder().encode('soon'), -1);
    expect((await at('prio'))?.members.map((m) => m.details[1])).toEqual([['priority', '-1'], ['priority', '9']]);
    const locking = new LockingQueue(c0!, `${root}/locking`);
    await locking.put('x', { priority: 5 });
    expect((await at('locking'))?.title).toBe('kazoo LockingQueue: 1 entries, 0 taken');

    const shared = new SharedCount(c0!, `${root}/shared`, 7);
    await shared.start();
    expect((await at('shared'))?.title).toBe('Curator SharedCount: 7');
    await shared.close();
    const long = new DistributedAtomicLong(c0!, `${root}/long`);
    await long.add(5n);
    expect((await at('long'))?.title).toBe('Curator DistributedAtomicLong: 5');
    const counter = new Counter(c0!, `${root}/counter`);
    await counter.add(3);
    expect((await at('counter'))?.title).toBe('kazoo Counter: 3');

    const lease = new NonBlockingLease(c0!, `${root}/lease`, { duration: 60_000, identifier: 'host-a' });
    expect(await lease.tryAcquire()).not.toBeNull();
    expect(await at('lease')).toMatchObject({ kind: 'lease', title: 'kazoo NonBlockingLease: held by host-a' });

    const discovery = new ServiceDiscovery(c1!, `${root}/services`);
    await discovery.registerService(serviceInstance({ name: 'api', id: 'i1', address: '10.0.0.1', port: 8080 }));
    await discovery.registerService(serviceInstance({ name: 'api', id: 'i2', address: '10.0.0.2', port: 8081 }));
    const api = await at('services/api');
    expect(api?.kind).toBe('discovery');
    expect(api?.members.map((m) => [m.owner, m.session])).toEqual([['i1', c1!.sessionId], ['i2', c1!.sessionId]]);
    expect(api?.members[0]?.details).toContainEqual(['port', '8080']);
    expect((await at('services'))?.title).toBe('Curator ServiceDiscovery: 1 services, 2 instances');

    const alpha = new Party(c0!, `${root}/party`, { identifier: 'alpha' });
    const beta = new Party(c1!, `${root}/party`, { identifier: 'beta' });
    await alpha.join();
    await beta.join();
    const party = await at('party');
    expect(party?.kind).toBe('group');
    expect(new Map(party?.members.map((m) => [m.owner, m.session]))).toEqual(new Map([['alpha', c0!.sessionId], ['beta', c1!.sessionId]]));

    const stop = new AbortController();
    const entering = [c0!, c1!].map((c) => new DoubleBarrier(c, `${root}/db`, 3).enter({ signal: stop.signal }).catch(() => {}));
    await until(async () => (await childrenOf(look!, `${root}/db`)).length === 2, 10_000, 'two in the barrier');
    const db = await at('db');
    expect(db).toMatchObject({ kind: 'double-barrier', title: 'Double barrier: 2 in, not ready' });
    expect(new Set(sessions(db))).toEqual(new Set([c0!.sessionId, c1!.sessionId]));
    stop.abort();
    await Promise.all(entering);
    await Promise.all([counter.close(), alpha.close(), beta.close(), discovery.close()]);
  });
});

describe('inspectRecipe on a lock path shared by three libraries', () => {
  let compiled: ReturnType<typeof compileCurator> | undefined;
  beforeAll(() => {
    checkKazoo();
    compiled = compileCurator();
  }, 120_000);
  afterAll(() => compiled?.dispose());

  it('a Curator InterProcessMutex holder, then a kazoo Lock waiter, then a zkts waiter', async () => {
    const path = `${uniqueRoot('inspect')}/mixed`;
    const [zk, look] = await clients.many(2);
    curator(compiled!.classpath, 'loop', sharedServer(), '1', '120000', `mutex:${path}`);
    await until(async () => (await childrenOf(look!, path).catch(() => [])).length === 1, 30_000, 'the Curator holder');
    kazooWriter(sharedServer(), path, 'kazoo-waiter', 1, 1);
    await until(async () => (await childrenOf(look!, path)).some((n) => n.includes('__lock__')), 30_000, 'the kazoo waiter');
    const stop = new AbortController();
    const waiting = new Mutex(zk!, path).acquire({ signal: stop.signal }).catch(() => {});
    await until(async () => (await childrenOf(look!, path)).length === 3, 10_000, 'the zkts waiter');

    const i = await inspectRecipe(look!, path);
    expect(i?.kind).toBe('mutex');
    expect(i?.libraries).toEqual(['curator', 'kazoo', 'zkts']);
    expect(i?.members.map((m) => [m.role, m.library])).toEqual([['holder', 'curator'], ['waiter', 'kazoo'], ['waiter', 'zkts']]);
    expect(i?.members[1]?.owner).toBe('kazoo-waiter');
    expect(i?.members[2]?.session).toBe(zk!.sessionId);
    expect(i?.title).toBe('Mutex (Curator, kazoo and zkts layouts): held, 2 waiting');
    stop.abort();
    await waiting;
  }, 90_000);
});
