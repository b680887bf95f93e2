// The lock tracing channels against the real server (zkts:lock.wait, zkts:lock.hold): a contended mutex (the
// waiter's place in the queue, each hold after its wait, released), the requests a wait makes running in its
// start's context, a hold lost at session expiry, a read-write lock and an ExclusiveLock.
import { AsyncLocalStorage } from 'node:async_hooks';
import { tracingChannel } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';

import type { ZkClient } from '@zkts/protocol';
import {
  ExclusiveLock, LockLostError, Mutex, RECIPE_CHANNELS, ReadWriteLock, type LockHoldTrace, type LockWaitTrace,
} from '@zkts/recipes';

import { at, eventsOf, FAILED, record, seqOf, SETTLED } from '../../support/channels.js';
import { expireSession, victimClient } from '../../support/expiry.js';
import { until, uniqueRoot } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients, proxies } = perTestResources();

const unbind: (() => void)[] = [];
afterEach(() => {
  for (const u of unbind.splice(0)) u();
});

function recordLocks(path: string): { waits: ReturnType<typeof record<LockWaitTrace>>; holds: ReturnType<typeof record<LockHoldTrace>> } {
  return {
    waits: record<LockWaitTrace>(RECIPE_CHANNELS.lockWait, (c) => c.path === path),
    holds: record<LockHoldTrace>(RECIPE_CHANNELS.lockHold, (c) => c.path === path),
  };
}

/** The client with the requests it sends recorded, each with the store `als` had when the recipe sent it. */
function spied(client: ZkClient, als: AsyncLocalStorage<unknown>, calls: { op: string; store: unknown }[]): ZkClient {
  const ops = new Set(['create', 'delete', 'exists', 'getChildren', 'getData', 'multi', 'sync']);
  return new Proxy(client, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const fn = value as (...args: unknown[]) => unknown;
      if (typeof prop === 'string' && ops.has(prop)) {
        return (...args: unknown[]) => {
          calls.push({ op: prop, store: als.getStore() });
          return fn.apply(target, args);
        };
      }
      return fn.bind(target);
    },
  });
}

describe('lock channels', () => {
  it('a contended mutex: the waiter is at 1, then 0 when granted; each hold begins after its wait and ends released', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const [a, b] = await clients.many(2);
    const { waits, holds } = recordLocks(dir);
    const first = await new Mutex(a!, dir).acquire();
    const waiting = new Mutex(b!, dir).acquire();
    await until(() => waits.traces[1]?.context.queuePosition === 1, 5000, 'the waiter at position 1');
    const queued = waits.traces[1]!.context;
    expect(queued.node?.startsWith(`${dir}/_c_`)).toBe(true);
    expect(eventsOf(waits.traces[1])).toEqual(['start', 'end']); // still waiting
    await first.release();
    const second = await waiting;
    await second.release();

    expect(waits.traces).toHaveLength(2);
    expect(holds.traces).toHaveLength(2);
    const [waitA, waitB] = waits.traces;
    const [holdA, holdB] = holds.traces;
    const lockA = { recipe: 'Mutex', kind: 'exclusive', path: dir };
    expect(eventsOf(waitA)).toEqual(SETTLED);
    expect(at(waitA, 'start')).toEqual({ ...lockA, sessionId: a!.sessionId });
    expect(at(waitA, 'asyncEnd')).toEqual({ ...lockA, node: first.node, queuePosition: 0, fencingToken: first.fencingToken, sessionId: a!.sessionId });
    const heldA = { ...lockA, node: first.node, queuePosition: 0, fencingToken: first.fencingToken, sessionId: a!.sessionId };
    expect(eventsOf(holdA)).toEqual(SETTLED);
    expect(at(holdA, 'start')).toEqual(heldA);
    expect(at(holdA, 'asyncEnd')).toEqual({ ...heldA, reason: 'released' });
    expect(seqOf(holdA, 'start')).toBeGreaterThan(seqOf(waitA, 'asyncEnd'));

    expect(eventsOf(waitB)).toEqual(SETTLED);
    expect(at(waitB, 'start')).toEqual({ ...lockA, sessionId: b!.sessionId });
    expect(at(waitB, 'asyncEnd')).toEqual({ ...lockA, node: second.node, queuePosition: 0, fencingToken: second.fencingToken, sessionId: b!.sessionId });
    expect(queued).toBe(waitB!.context);
    const heldB = { ...lockA, node: second.node, queuePosition: 0, fencingToken: second.fencingToken, sessionId: b!.sessionId };
    expect(eventsOf(holdB)).toEqual(SETTLED);
    expect(at(holdB, 'start')).toEqual(heldB);
    expect(at(holdB, 'asyncEnd')).toEqual({ ...heldB, reason: 'released' });
    expect(seqOf(holdB, 'start')).toBeGreaterThan(seqOf(waitB, 'asyncEnd'));
  });

  it('the requests a wait makes run in its start context: a store bound to start is active in each of them', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const [a, b, c] = await clients.many(3);
    const { waits } = recordLocks(dir);
    const als = new AsyncLocalStorage<unknown>();
    const start = tracingChannel<unknown, LockWaitTrace>(RECIPE_CHANNELS.lockWait).start;
    start.bindStore(als, (context) => context);
    unbind.push(() => start.unbindStore(als));
    const calls: { op: string; store: unknown }[] = [];
    const held = await new Mutex(a!, dir).acquire();
    const next = new Mutex(b!, dir).acquire();
    await until(() => waits.traces[1]?.context.queuePosition === 1, 5000, 'the second waiter queued');
    // The third waits for the second: woken when it goes, it lists the queue again after that wake-up.
    const third = new Mutex(spied(c!, als, calls), dir).acquire();
    await until(() => waits.traces[2]?.context.queuePosition === 2, 5000, 'the third waiter queued');
    await held.release();
    await (await next).release();
    const last = await third;
    const during = calls.splice(0);
    await last.release();

    const context = waits.traces[2]!.context;
    expect(context.sessionId).toBe(c!.sessionId);
    // The create and first listing (pipelined), the watch on its predecessor, the listing after the wake-up.
    expect(during.map((call) => call.op)).toEqual(['create', 'getChildren', 'getData', 'getChildren']);
    for (const call of during) expect(call.store).toBe(context);
    expect(als.getStore()).toBeUndefined();
  });

  it('a hold lost at session expiry ends with reason lost and the LockLostError; its release adds nothing', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const victim = await victimClient(clients, proxies);
    const { holds } = recordLocks(dir);
    const lease = await new Mutex(victim.client, dir).acquire();
    const session = victim.client.sessionId;
    await expireSession(victim, { renewed: true });

    const [hold] = holds.traces;
    const held = { recipe: 'Mutex', kind: 'exclusive', path: dir, node: lease.node, queuePosition: 0, fencingToken: lease.fencingToken, sessionId: session };
    expect(eventsOf(hold)).toEqual(FAILED);
    expect(at(hold, 'start')).toEqual(held);
    const error = hold!.context.error;
    expect(error).toBeInstanceOf(LockLostError);
    expect(at(hold, 'error')).toEqual({ ...held, reason: 'lost', error });
    expect(at(hold, 'asyncEnd')).toEqual({ ...held, reason: 'lost', error });
    expect(lease.lost.aborted).toBe(true);
    expect(lease.lost.reason).toBe(error);
    await lease.release();
    expect(eventsOf(hold)).toEqual(FAILED);
    expect(holds.traces).toHaveLength(1);
  });

  it('a wait that times out ends with the TimeoutError, its node and place as last seen; no hold follows', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const [a, b] = await clients.many(2);
    const { waits, holds } = recordLocks(dir);
    const held = await new Mutex(a!, dir).acquire();
    const error = await new Mutex(b!, dir).acquire({ timeout: 300 }).catch((e: unknown) => e);
    await held.release();

    expect(error).toMatchObject({ code: 'TIMEOUT' });
    const wait = waits.traces[1];
    expect(eventsOf(wait)).toEqual(FAILED);
    expect(wait!.context.node?.startsWith(`${dir}/_c_`)).toBe(true);
    expect(at(wait, 'asyncEnd')).toEqual({
      recipe: 'Mutex', kind: 'exclusive', path: dir, node: wait!.context.node, queuePosition: 1, sessionId: b!.sessionId, error,
    });
    expect(holds.traces.map((t) => t.context.node)).toEqual([held.node]);
  });

  it('a session expiry during a wait: it goes on in the renewed session (node and session updated), or fails with onExpiry: reject', async () => {
    const dir = `${uniqueRoot()}/lock`;
    const direct = await clients.connect();
    const victim = await victimClient(clients, proxies);
    const { waits } = recordLocks(dir);
    const held = await new Mutex(direct, dir).acquire();
    const restarting = new Mutex(victim.client, dir).acquire({ timeout: 20_000 });
    const rejecting = new Mutex(victim.client, dir, { onExpiry: 'reject' }).acquire({ timeout: 20_000 }).catch((e: unknown) => e);
    await until(() => waits.traces.slice(1).every((t) => t.context.queuePosition !== undefined) && waits.traces.length === 3, 5000, 'both queued');
    const [restart, reject] = [waits.traces[1]!, waits.traces[2]!];
    const before = { session: victim.client.sessionId, node: restart.context.node };
    await expireSession(victim, { renewed: true });
    expect(await rejecting).toMatchObject({ code: 'SESSION_EXPIRED' });
    await held.release();
    const lock = await restarting;
    await lock.release();

    expect(eventsOf(reject)).toEqual(FAILED);
    expect(reject.context.sessionId).toBe(before.session);
    expect(reject.context.error).toBe(await rejecting);
    expect(eventsOf(restart)).toEqual(SETTLED);
    expect(victim.client.sessionId).not.toBe(before.session);
    expect(lock.node).not.toBe(before.node);
    expect(at(restart, 'asyncEnd')).toEqual({
      recipe: 'Mutex', kind: 'exclusive', path: dir, node: lock.node, queuePosition: 0, fencingToken: lock.fencingToken, sessionId: victim.client.sessionId,
    });
  });

  it('a read-write lock: readers queued behind a writer move up when it goes and share the lock', async () => {
    const dir = `${uniqueRoot()}/rw`;
    const [a, b, c] = await clients.many(3);
    const { waits, holds } = recordLocks(dir);
    const write = await new ReadWriteLock(a!, dir).writeLock.acquire();
    const read1 = new ReadWriteLock(b!, dir).readLock.acquire();
    await until(() => waits.traces[1]?.context.queuePosition === 1, 5000, 'the first reader queued');
    const read2 = new ReadWriteLock(c!, dir).readLock.acquire();
    await until(() => waits.traces[2]?.context.queuePosition === 2, 5000, 'the second reader queued');
    await write.release();
    const [r1, r2] = await Promise.all([read1, read2]);
    await Promise.all([r1.release(), r2.release()]);

    const rw = { recipe: 'ReadWriteLock', path: dir };
    const [waitW, waitR1, waitR2] = waits.traces;
    expect(waits.traces.map(eventsOf)).toEqual([SETTLED, SETTLED, SETTLED]);
    expect(at(waitW, 'asyncEnd')).toEqual({ ...rw, kind: 'write', node: write.node, queuePosition: 0, fencingToken: write.fencingToken, sessionId: a!.sessionId });
    expect(at(waitR1, 'start')).toEqual({ ...rw, kind: 'read', sessionId: b!.sessionId });
    expect(at(waitR1, 'asyncEnd')).toEqual({ ...rw, kind: 'read', node: r1.node, queuePosition: 0, fencingToken: r1.fencingToken, sessionId: b!.sessionId });
    // The writer gone, the second reader is behind the first only, who shares the lock with it.
    expect(at(waitR2, 'asyncEnd')).toEqual({ ...rw, kind: 'read', node: r2.node, queuePosition: 1, fencingToken: r2.fencingToken, sessionId: c!.sessionId });
    const byNode = new Map(holds.traces.map((t) => [t.context.node, t]));
    expect(holds.traces.map(eventsOf)).toEqual([SETTLED, SETTLED, SETTLED]);
    expect(at(byNode.get(write.node), 'asyncEnd')).toEqual({ ...rw, kind: 'write', node: write.node, queuePosition: 0, fencingToken: write.fencingToken, sessionId: a!.sessionId, reason: 'released' });
    expect(at(byNode.get(r1.node), 'start')).toEqual({ ...rw, kind: 'read', node: r1.node, queuePosition: 0, fencingToken: r1.fencingToken, sessionId: b!.sessionId });
    expect(at(byNode.get(r2.node), 'asyncEnd')).toEqual({ ...rw, kind: 'read', node: r2.node, queuePosition: 1, fencingToken: r2.fencingToken, sessionId: c!.sessionId, reason: 'released' });
  });

  it('an ExclusiveLock: no queue, position 0 once its node is ours; a try that finds it held is a wait that got nothing', async () => {
    const dir = `${uniqueRoot()}/ex`;
    const [a, b] = await clients.many(2);
    const { waits, holds } = recordLocks(dir);
    const held = await new ExclusiveLock(a!, dir).acquire();
    expect(await new ExclusiveLock(b!, dir).tryAcquire()).toBeNull();
    await held.release();

    const lock = { recipe: 'ExclusiveLock', kind: 'exclusive', path: dir };
    expect(waits.traces.map(eventsOf)).toEqual([SETTLED, SETTLED]);
    expect(at(waits.traces[0], 'asyncEnd')).toEqual({ ...lock, node: `${dir}/lock`, queuePosition: 0, fencingToken: held.fencingToken, sessionId: a!.sessionId });
    expect(at(waits.traces[1], 'asyncEnd')).toEqual({ ...lock, sessionId: b!.sessionId });
    expect(holds.traces.map(eventsOf)).toEqual([SETTLED]);
    expect(at(holds.traces[0], 'asyncEnd')).toEqual({ ...lock, node: `${dir}/lock`, queuePosition: 0, fencingToken: held.fencingToken, sessionId: a!.sessionId, reason: 'released' });
  });
});
