// The lock tracing channels of the recipes built on other locks, against the real server: a Semaphore (one wait
// per acquire, its gate mutex's queue counted as its own and publishing nothing itself) and a MultiLock (one wait
// and hold around its locks', whose waits run in its context).
import { AsyncLocalStorage } from 'node:async_hooks';
import { tracingChannel } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';

import { MultiLock, Mutex, RECIPE_CHANNELS, Semaphore, type LockHoldTrace, type LockWaitTrace } from '@zkts/recipes';

import { at, eventsOf, record, seqOf, SETTLED } from '../../support/channels.js';
import { until, uniqueRoot } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients } = perTestResources();

const unbind: (() => void)[] = [];
afterEach(() => {
  for (const u of unbind.splice(0)) u();
});

describe('lock channels of composite locks', () => {
  it('a semaphore: a waiter queued at its gate is at 1, then holds the gate (0) and waits for room with its lease node', async () => {
    const dir = `${uniqueRoot()}/sem`;
    const [a, b, c] = await clients.many(3);
    const waits = record<LockWaitTrace>(RECIPE_CHANNELS.lockWait, (t) => t.path.startsWith(dir));
    const holds = record<LockHoldTrace>(RECIPE_CHANNELS.lockHold, (t) => t.path.startsWith(dir));
    const leaseA = await new Semaphore(a!, dir, 1).acquire();
    // B takes the gate and waits for room; C queues behind B at the gate.
    const gotB = new Semaphore(b!, dir, 1).acquire();
    await until(() => waits.traces[1]?.context.node !== undefined, 5000, 'B waiting for room');
    const gotC = new Semaphore(c!, dir, 1).acquire();
    await until(() => waits.traces[2]?.context.queuePosition === 1, 5000, 'C queued at the gate');
    expect(waits.traces[2]!.context.node).toBeUndefined(); // no lease node before the gate
    expect(waits.traces[1]!.context.queuePosition).toBe(0);
    await leaseA.release();
    const leaseB = await gotB;
    await until(() => waits.traces[2]?.context.node !== undefined, 5000, 'C waiting for room');
    expect(waits.traces[2]!.context.queuePosition).toBe(0);
    await leaseB.release();
    const leaseC = await gotC;
    await leaseC.release();

    // Only the semaphore's own traces: its gate mutex (`<path>/locks`) publishes nothing.
    expect(waits.traces.map((t) => t.context.path)).toEqual([dir, dir, dir]);
    expect(holds.traces.map((t) => t.context.path)).toEqual([dir, dir, dir]);
    const sem = { recipe: 'Semaphore', kind: 'semaphore', path: dir };
    const leases = [leaseA, leaseB, leaseC];
    const sessions = [a!, b!, c!].map((x) => x.sessionId);
    for (const [i, lease] of leases.entries()) {
      const wait = waits.traces[i];
      const held = { ...sem, node: lease.nodes[0], queuePosition: 0, sessionId: sessions[i] };
      expect(eventsOf(wait)).toEqual(SETTLED);
      expect(at(wait, 'start')).toEqual({ ...sem, sessionId: sessions[i] });
      expect(at(wait, 'asyncEnd')).toEqual(held);
      const hold = holds.traces.find((t) => t.context.node === lease.nodes[0]);
      expect(eventsOf(hold)).toEqual(SETTLED);
      expect(at(hold, 'start')).toEqual(held);
      expect(at(hold, 'asyncEnd')).toEqual({ ...held, reason: 'released' });
      expect(seqOf(hold, 'start')).toBeGreaterThan(seqOf(wait, 'asyncEnd'));
    }
  });

  it('a multi-lock: one wait and one hold around its locks, whose waits run in the multi-lock\'s context', async () => {
    const root = uniqueRoot();
    const [p1, p2] = [`${root}/one`, `${root}/two`];
    const client = await clients.connect();
    const waits = record<LockWaitTrace>(RECIPE_CHANNELS.lockWait, (t) => t.path.startsWith(root));
    const holds = record<LockHoldTrace>(RECIPE_CHANNELS.lockHold, (t) => t.path.startsWith(root));
    // Which wait was active when each wait began (a subscriber's store bound to start: its parent).
    const als = new AsyncLocalStorage<LockWaitTrace>();
    const parents = new Map<LockWaitTrace, LockWaitTrace | undefined>();
    const start = tracingChannel<unknown, LockWaitTrace>(RECIPE_CHANNELS.lockWait).start;
    start.bindStore(als, (context) => {
      parents.set(context, als.getStore());
      return context;
    });
    unbind.push(() => start.unbindStore(als));
    const one = new Mutex(client, p1);
    const two = new Mutex(client, p2);
    const multi = await new MultiLock([one, two]).acquire();
    const [h1, h2] = multi.leases;
    await multi.release();

    const [waitMulti, wait1, wait2] = waits.traces;
    const all = { recipe: 'MultiLock', kind: 'multi', path: `${p1},${p2}`, sessionId: client.sessionId };
    expect(waits.traces.map((t) => t.context.recipe)).toEqual(['MultiLock', 'Mutex', 'Mutex']);
    expect(waits.traces.map(eventsOf)).toEqual([SETTLED, SETTLED, SETTLED]);
    expect(at(waitMulti, 'start')).toEqual(all);
    expect(at(waitMulti, 'asyncEnd')).toEqual(all);
    expect(parents.get(waitMulti!.context)).toBeUndefined();
    expect(parents.get(wait1!.context)).toBe(waitMulti!.context);
    expect(parents.get(wait2!.context)).toBe(waitMulti!.context);
    expect(at(wait2, 'asyncEnd')).toEqual({ recipe: 'Mutex', kind: 'exclusive', path: p2, node: h2!.node, queuePosition: 0, fencingToken: h2!.fencingToken, sessionId: client.sessionId });
    expect(seqOf(wait2, 'asyncEnd')).toBeLessThan(seqOf(waitMulti, 'asyncEnd'));

    // The locks' holds begin as each is granted; the multi-lock's after its wait, and it ends after theirs.
    expect(holds.traces.map((t) => t.context.recipe)).toEqual(['Mutex', 'Mutex', 'MultiLock']);
    expect(holds.traces.map(eventsOf)).toEqual([SETTLED, SETTLED, SETTLED]);
    const holdMulti = holds.traces[2];
    expect(at(holdMulti, 'start')).toEqual(all);
    expect(at(holdMulti, 'asyncEnd')).toEqual({ ...all, reason: 'released' });
    expect(seqOf(holdMulti, 'start')).toBeGreaterThan(seqOf(waitMulti, 'asyncEnd'));
    expect(at(holds.traces[0], 'asyncEnd')).toEqual({ recipe: 'Mutex', kind: 'exclusive', path: p1, node: h1!.node, queuePosition: 0, fencingToken: h1!.fencingToken, sessionId: client.sessionId, reason: 'released' });
    for (const inner of holds.traces.slice(0, 2)) expect(seqOf(holdMulti, 'asyncEnd')).toBeGreaterThan(seqOf(inner, 'asyncEnd'));
  });
});
