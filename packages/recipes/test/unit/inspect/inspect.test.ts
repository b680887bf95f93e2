// inspectRecipe's recognisers on synthetic trees (an in-memory ZooKeeper): each layout named as what it is, its
// members in queue order with owner, library and session, foreign children ignored, plain nodes left alone,
// the read budget kept, and nothing but reads sent.
import { describe, expect, it } from 'vitest';

import { encodeLease } from '../../../src/leases/holder-format.js';
import { inspectRecipe, type RecipeInspection } from '../../../src/index.js';
import type { CreateMode } from '../../../src/internal/index.js';
import { FakeZk, type FakeClient } from '../../support/fake-zk.js';

const U1 = '11111111-1111-4111-8111-111111111111';
const U2 = '22222222-2222-4222-8222-222222222222';
const HEX1 = 'a'.repeat(32);
const HEX2 = 'b'.repeat(32);
const seq = (n: number): string => String(n).padStart(10, '0');
const NOW = 1_700_000_000_000;

/** A tree with three sessions (1, 2, 3) and a client (session 4) that inspects. */
function tree(): { zk: FakeZk; put: (path: string, data?: string | Uint8Array, session?: bigint, ctime?: number) => void; look: (path: string) => Promise<RecipeInspection | undefined>; reader: FakeClient } {
  const zk = new FakeZk();
  for (let i = 0; i < 4; i++) zk.client();
  const reader = zk.clients[3] as FakeClient;
  const put = (path: string, data: string | Uint8Array = '', session = 0n, ctime = NOW - 10_000): void => {
    const parts = path.split('/').filter(Boolean);
    for (let i = 1; i < parts.length; i++) {
      const p = `/${parts.slice(0, i).join('/')}`;
      if (!zk.nodes.has(p)) zk.create(p, null, 'persistent', 0n);
    }
    const mode: CreateMode = session === 0n ? 'persistent' : 'ephemeral';
    zk.create(path, data, mode, session);
    zk.nodes.get(path)!.stat.ctime = ctime;
  };
  const look = (path: string): Promise<RecipeInspection | undefined> => inspectRecipe(reader, path, { now: () => NOW });
  return { zk, put, look, reader };
}

const roles = (i: RecipeInspection | undefined): string[] => i?.members.map((m) => m.role) ?? [];

describe('inspectRecipe: locks and elections', () => {
  it('a mutex queue of Curator, kazoo and zkts nodes: holder first, waiters in sequence order, foreign children ignored', async () => {
    const { put, look, reader } = tree();
    put(`/l/_c_${U2}-lock-${seq(2)}`, '', 3n);
    put(`/l/${HEX1}__lock__${seq(1)}`, 'kazoo-worker', 2n);
    put(`/l/_c_${U1}-lock-${seq(0)}`, '10.0.0.7', 1n, NOW - 12_000);
    put('/l/not-a-contender', 'x');
    const i = await look('/l');
    expect(i?.kind).toBe('mutex');
    expect(roles(i)).toEqual(['holder', 'waiter', 'waiter']);
    expect(i?.members.map((m) => [m.library, m.owner, m.session, m.sequence])).toEqual([
      ['curator', '10.0.0.7', 1n, 0], ['kazoo', 'kazoo-worker', 2n, 1], ['zkts', undefined, 3n, 2],
    ]);
    expect(i?.libraries).toEqual(['curator', 'kazoo', 'zkts']);
    expect(i?.title).toBe('Mutex (Curator, kazoo and zkts layouts): held, 2 waiting');
    expect(i?.summary).toContainEqual(['held for', '12 s']);
    expect(i?.summary).toContainEqual(['waiting', '2']);
    expect(i?.summary.find(([k]) => k === 'layout')?.[1]).toMatch(/LeaderSelector/);
    expect(reader.calls.every((c) => ['getChildren', 'getData', 'exists'].includes(c))).toBe(true);
  });

  it('orders across the sequence wrap: 2147483647 before -2147483648', async () => {
    const { put, look } = tree();
    put(`/w/_c_${U1}-lock--2147483648`, 'late', 1n);
    put(`/w/_c_${U2}-lock-2147483647`, 'early', 2n);
    expect((await look('/w'))?.members.map((m) => m.owner)).toEqual(['early', 'late']);
  });

  it('a read-write lock: the readers before the first writer hold, the writer and everyone after it wait', async () => {
    const { put, look } = tree();
    put(`/rw/_c_${U1}-__READ__${seq(0)}`, 'r1', 1n);
    put(`/rw/${HEX1}__rlock__${seq(1)}`, 'r2', 2n);
    put(`/rw/_c_${U2}-__WRIT__${seq(2)}`, 'w', 3n);
    put(`/rw/${HEX2}__rlock__${seq(3)}`, 'r3', 2n);
    const i = await look('/rw');
    expect(i?.kind).toBe('read-write-lock');
    expect(roles(i)).toEqual(['reader', 'reader', 'writer', 'reader']);
    expect(i?.members.map((m) => m.details[0]?.[0])).toEqual(['holds for', 'holds for', 'waits for', 'waits for']);
    expect(i?.summary[0]).toEqual(['readers', 'r1, r2']);
    expect(i?.title).toMatch(/read by 2, 2 waiting/);
  });

  it('a Curator LeaderLatch: the lowest latch leads', async () => {
    const { put, look } = tree();
    put(`/e/_c_${U2}-latch-${seq(5)}`, 'b', 2n);
    put(`/e/_c_${U1}-latch-${seq(4)}`, 'a', 1n);
    const i = await look('/e');
    expect(i?.kind).toBe('election');
    expect(i?.members.map((m) => [m.role, m.owner])).toEqual([['leader', 'a'], ['candidate', 'b']]);
    expect(i?.summary[0]).toEqual(['leader', 'a']);
  });

  it('a zkts ExclusiveLock: its one lock node, JSON {id, token}', async () => {
    const { put, look } = tree();
    put('/x/lock', JSON.stringify({ id: 'me', token: 't' }), 1n);
    const i = await look('/x');
    expect(i).toMatchObject({ kind: 'mutex', libraries: ['zkts'], title: 'zkts ExclusiveLock: held by me' });
    expect(i?.members[0]?.session).toBe(1n);
  });
});

describe('inspectRecipe: semaphores', () => {
  it('Curator/zkts: leases are the holders, the gate mutex queue the waiters', async () => {
    const { put, look } = tree();
    put('/s', '2');
    put(`/s/leases/_c_${U1}-lease-${seq(0)}`, '10.0.0.1', 1n);
    put(`/s/leases/_c_${U2}-lease-${seq(1)}`, '', 2n);
    put(`/s/locks/_c_${U1}-lock-${seq(0)}`, '', 3n);
    const i = await look('/s');
    expect(i?.kind).toBe('semaphore');
    expect(roles(i)).toEqual(['holder', 'holder', 'waiter']);
    expect(i?.summary).toContainEqual(['max leases', '2']);
    expect(i?.title).toBe('Semaphore (Curator and zkts layouts): 2 of 2 leases held, 1 waiting');
  });

  it('a waiter that already made its lease node (it holds the gate and waits for a slot) is not counted as a holder', async () => {
    const { put, look } = tree();
    put('/s', '2');
    put(`/s/leases/_c_${U1}-lease-${seq(0)}`, '', 1n);
    put(`/s/leases/_c_${U2}-lease-${seq(1)}`, '', 2n);
    put(`/s/leases/_c_${U1}-lease-${seq(2)}`, '', 3n);
    put(`/s/locks/_c_${U1}-lock-${seq(0)}`, '', 3n);
    const i = await look('/s');
    expect(roles(i)).toEqual(['holder', 'holder', 'waiter']);
    expect(i?.members.map((m) => m.session)).toEqual([1n, 2n, 3n]);
    expect(i?.title).toBe('zkts Semaphore: 2 of 2 leases held, 1 waiting');
    expect(i?.summary).toContainEqual(['lease nodes waiting for a slot', '1']);
  });

  it('kazoo: uuidhex lease nodes, max leases as text, its lock beside the path; a bare text number stays a counter', async () => {
    const { put, look } = tree();
    put('/ks', '3');
    put(`/ks/${HEX1}`, 'worker-1', 1n);
    put(`/ks-__lock__/${HEX2}__lock__${seq(0)}`, 'worker-2', 2n);
    const i = await look('/ks');
    expect(i).toMatchObject({ kind: 'semaphore', libraries: ['kazoo'], title: 'kazoo Semaphore: 1 of 3 leases held, 1 waiting' });
    expect(i?.members.map((m) => [m.role, m.owner])).toEqual([['holder', 'worker-1'], ['waiter', 'worker-2']]);
    put('/plain3', '3');
    expect((await look('/plain3'))?.kind).toBe('counter');
  });
});

describe('inspectRecipe: queues', () => {
  it('Curator DistributedPriorityQueue: priority order, sizes, oldest age', async () => {
    const { put, look } = tree();
    put(`/q/queue-1000000050000000001`, 'abc', 0n, NOW - 5_000);
    put(`/q/queue-1000000010000000002`, 'abcdef', 0n, NOW - 3_000);
    const i = await look('/q');
    expect(i?.title).toBe('Curator DistributedPriorityQueue: 2 items');
    expect(i?.members.map((m) => [m.role, m.details[0]?.[1], m.details[1]?.[1]])).toEqual([['item', '6 B', '1'], ['item', '3 B', '5']]);
    expect(i?.summary).toEqual([['depth', '2'], ['oldest item age', '5 s']]);
  });

  it('Curator DistributedDelayQueue and DistributedIdQueue by their name middles', async () => {
    const { put, look } = tree();
    put(`/dq/queue-|${(NOW + 60_000).toString(16).toUpperCase()}|${seq(0)}`, 'x');
    expect((await look('/dq'))?.members[0]?.details[1]).toEqual(['due', 'in 60 s']);
    put(`/iq/queue-|order-7|${seq(0)}`, 'x');
    const id = await look('/iq');
    expect(id?.title).toMatch(/^Curator DistributedIdQueue/);
    expect(id?.members[0]?.details[1]).toEqual(['id', 'order-7']);
  });

  it('qn- items: zkts Queue (protected) and Curator SimpleDistributedQueue (bare)', async () => {
    const { put, look } = tree();
    put(`/zq/_c_${U1}-qn-${seq(0)}`, 'a');
    expect((await look('/zq'))?.title).toBe('zkts Queue: 1 items');
    put(`/cq/qn-${seq(0)}`, 'a');
    expect((await look('/cq'))?.title).toBe('Curator SimpleDistributedQueue: 1 items');
  });

  it('kazoo Queue and LockingQueue: priority order, taken entries with their consumer', async () => {
    const { put, look } = tree();
    put(`/kq/entry-100-${seq(0)}`, 'a');
    put(`/kq/entry-005-${seq(1)}`, 'b');
    expect((await look('/kq'))?.members.map((m) => m.name)).toEqual([`entry-005-${seq(1)}`, `entry-100-${seq(0)}`]);
    put(`/lq/entries/entry-100-${seq(0)}`, 'a');
    put(`/lq/entries/entry-100-${seq(1)}`, 'b');
    put(`/lq/taken/entry-100-${seq(0)}`, HEX1, 2n);
    const lq = await look('/lq');
    expect(lq?.title).toBe('kazoo LockingQueue: 2 entries, 1 taken');
    expect(lq?.members[0]?.owner).toBe(HEX1);
  });
});

describe('inspectRecipe: single-node recipes', () => {
  it('counters: 4-byte int, 8-byte long, text number; a word or an empty node is not one', async () => {
    const { put, look } = tree();
    const int = new Uint8Array(4);
    new DataView(int.buffer).setInt32(0, -5);
    put('/c4', int);
    put('/c4/_zkts-cas-x', 'receipt', 1n);
    expect(await look('/c4')).toMatchObject({ kind: 'counter', title: 'Curator SharedCount: -5' });
    const long = new Uint8Array(8);
    new DataView(long.buffer).setBigInt64(0, 2n ** 40n);
    put('/c8', long);
    expect((await look('/c8'))?.summary[0]).toEqual(['value', String(2n ** 40n)]);
    put('/ct', '2.5');
    expect((await look('/ct'))?.title).toBe('kazoo Counter: 2.5');
    put('/word', 'true');
    put('/empty');
    expect(await look('/word')).toBeUndefined();
    expect(await look('/empty')).toBeUndefined();
  });

  it('a kazoo lease: holder, end, expired or not by the given clock', async () => {
    const { put, look } = tree();
    put('/lease/lease_holder', encodeLease('host-a', NOW + 30_000));
    const held = await look('/lease');
    expect(held).toMatchObject({ kind: 'lease', title: 'kazoo NonBlockingLease: held by host-a' });
    expect(held?.summary).toContainEqual(['expired', 'no']);
    put('/old/lease_holder', encodeLease('host-b', NOW - 90_000));
    expect((await look('/old'))?.summary).toContainEqual(['expired', 'yes']);
    put('/multi/0/lease_holder', encodeLease('h0', NOW + 5_000));
    put('/multi/1/lease_holder', encodeLease('h1', NOW - 5_000));
    expect((await look('/multi'))?.title).toBe('kazoo MultiNonBlockingLease: 1 of 2 slots held');
  });

  it('barriers: a double barrier by its ready node or its UUID participants; a plain barrier only by its name', async () => {
    const { put, look } = tree();
    put(`/db/${U1}`, '', 1n);
    put(`/db/${HEX1}`, 'k', 2n);
    expect(await look('/db')).toMatchObject({ kind: 'double-barrier', title: 'Double barrier: 2 in, not ready', libraries: ['curator', 'kazoo'] });
    put('/db/ready');
    expect((await look('/db'))?.summary).toContainEqual(['ready', 'yes']);
    put('/app/start-barrier');
    expect((await look('/app/start-barrier'))?.kind).toBe('barrier');
  });
});

describe('inspectRecipe: groups and discovery', () => {
  it('kazoo Party and ShallowParty members with their identifiers', async () => {
    const { put, look } = tree();
    put(`/p/${HEX1}__party__`, 'alice', 1n);
    put('/p/stray', 'x');
    const p = await look('/p');
    expect(p).toMatchObject({ kind: 'group', title: 'kazoo Party: 1 members' });
    expect(p?.members[0]?.owner).toBe('alice');
    put(`/sp/${HEX1}-bob`, '', 2n);
    expect((await look('/sp'))?.members[0]).toMatchObject({ owner: 'bob', session: 2n });
  });

  it('a SetPartitioner: members and which one holds each item (by the lock holder session)', async () => {
    const { put, look } = tree();
    put(`/part/party/${HEX1}-m1`, '', 1n);
    put(`/part/party/${HEX2}-m2`, '', 2n);
    put(`/part/locks/a/${HEX1}__lock__${seq(0)}`, '', 2n);
    put('/part/locks/b');
    const i = await look('/part');
    expect(i?.kind).toBe('partitioner');
    expect(i?.summary).toContainEqual(['assignment', 'a → m2; b → m2 (by the default split, not held)']);
    expect(i?.members.map((m) => [m.owner, m.details[0]?.[1]])).toEqual([['m1', ''], ['m2', 'a, b']]);
  });

  it('service discovery: a service lists its instances, the base its services', async () => {
    const { put, look } = tree();
    const inst = (id: string, port: number): string => JSON.stringify({ name: 'api', id, address: '10.0.0.1', port, sslPort: null, payload: { zone: 'a' }, registrationTimeUTC: NOW, serviceType: 'DYNAMIC', uriSpec: null });
    put('/sd/api/i1', inst('i1', 8080), 1n);
    put('/sd/api/i2', inst('i2', 8081), 2n);
    put('/sd/empty');
    const svc = await look('/sd/api');
    expect(svc?.kind).toBe('discovery');
    expect(svc?.members.map((m) => [m.role, m.owner])).toEqual([['instance', 'i1'], ['instance', 'i2']]);
    expect(svc?.members[0]?.details).toContainEqual(['payload', '{"zone":"a"}']);
    const base = await look('/sd');
    expect(base?.title).toBe('Curator ServiceDiscovery: 1 services, 2 instances');
  });

  it('Curator GroupMember: ephemeral member nodes by id; persistent children make it a plain node', async () => {
    const { put, look } = tree();
    put('/g/worker-1', 'payload-1', 1n);
    expect(await look('/g')).toMatchObject({ kind: 'group', title: 'Curator GroupMember group: 1 members' });
    put('/plain/child', 'x');
    expect(await look('/plain')).toBeUndefined();
    expect(await look('/missing')).toBeUndefined();
  });
});

describe('inspectRecipe: bounds', () => {
  it('reads at most the budget and says how many it left', async () => {
    const { zk, look } = tree();
    zk.create('/big', null, 'persistent', 0n);
    for (let n = 0; n < 1200; n++) zk.create(`/big/_c_${U1}-lock-${seq(n)}`, 'x', 'ephemeral', 1n);
    const i = await look('/big');
    const unread = Number(i?.summary.find(([k]) => k === 'not read')?.[1].split(' ')[0]);
    expect(i?.members.length).toBeLessThan(1000);
    expect((i?.members.length ?? 0) + unread).toBe(1200);
    expect(i?.summary).toContainEqual(['waiting', '1199']);
  });

  it('a plain directory costs a handful of reads, however many children it has; an aborted signal stops it', async () => {
    const { zk, reader } = tree();
    zk.create('/dir', null, 'persistent', 0n);
    for (let n = 0; n < 300; n++) zk.create(`/dir/child-${n}`, 'x', 'persistent', 0n);
    expect(await inspectRecipe(reader, '/dir')).toBeUndefined();
    expect(reader.calls.length).toBeLessThan(15);
    await expect(inspectRecipe(reader, '/dir', { signal: AbortSignal.abort() })).rejects.toThrow();
  });
});
