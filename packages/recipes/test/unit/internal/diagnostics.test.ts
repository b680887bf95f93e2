// The recipes' tracing channels cost nothing unless somebody listens: with no subscriber no recipe calls into a
// channel at all (no context is built, nothing is traced or published); with one, the same work publishes.
// Runs the recipes on the in-memory ZooKeeper; the integration tests check the payloads on the real server.
import { tracingChannel, type TracingChannel } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  cacheResync, electionTerm, lockHold, lockWait, queuePut, queueTake, RECIPE_CHANNELS,
} from '../../../src/internal/diagnostics.js';
import { LeaderElection, LeaderSelector, MultiLock, Mutex, Queue, ReadWriteLock, Semaphore } from '../../../src/index.js';
import { FakeZk } from '../../support/fake-zk.js';

const CHANNELS: [string, TracingChannel<unknown, object>][] = [
  ['lockWait', lockWait], ['lockHold', lockHold], ['electionTerm', electionTerm], ['cacheResync', cacheResync], ['queuePut', queuePut],
  ['queueTake', queueTake],
] as [string, TracingChannel<unknown, object>][];

/** Counts every call the recipes make into the channels: tracePromise, and publish/runStores of each event. */
function spyOnChannels(): { calls: () => string[] } {
  const spies: { name: string; spy: { mock: { calls: unknown[][] } } }[] = [];
  for (const [name, ch] of CHANNELS) {
    spies.push({ name: `${name}.tracePromise`, spy: vi.spyOn(ch, 'tracePromise') });
    for (const event of ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const) {
      spies.push({ name: `${name}.${event}.publish`, spy: vi.spyOn(ch[event], 'publish') });
      spies.push({ name: `${name}.${event}.runStores`, spy: vi.spyOn(ch[event], 'runStores') });
    }
  }
  return { calls: () => spies.filter((s) => s.spy.mock.calls.length > 0).map((s) => s.name) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

/** A round of every traced recipe: lock waits and holds, composite locks, election terms, a queue's put and take. */
async function workload(): Promise<void> {
  const zk = new FakeZk();
  const c = zk.client();
  const held = await new Mutex(c, '/m').acquire();
  const waiting = new Mutex(zk.client(), '/m').acquire();
  await tick();
  await held.release();
  await (await waiting).release();
  await (await new ReadWriteLock(c, '/rw').readLock.acquire()).release();
  await (await new Semaphore(c, '/s', 2).acquire()).release();
  await (await new MultiLock([new Mutex(c, '/a'), new Mutex(c, '/b')]).acquire()).release();
  const election = new LeaderElection(c, '/e');
  await election.start();
  await election.awaitLeadership();
  await election.close();
  let led = false;
  const selector = new LeaderSelector(c, '/sel', async () => {
    led = true;
  });
  selector.start();
  while (!led) await tick();
  await selector.close();
  const q = new Queue(c, '/q');
  await q.offer('x');
  await q.take();
}

describe('recipe tracing channels', () => {
  it('are named as the contract says', () => {
    expect(RECIPE_CHANNELS).toEqual({
      lockWait: 'zkts:lock.wait', lockHold: 'zkts:lock.hold', electionTerm: 'zkts:election.term', cacheResync: 'zkts:cache.resync',
      queuePut: 'zkts:queue.put', queueTake: 'zkts:queue.take',
    });
  });

  it('with no subscriber, no recipe calls into a channel', async () => {
    for (const [, ch] of CHANNELS) expect(ch.hasSubscribers).toBe(false);
    const { calls } = spyOnChannels();
    await workload();
    expect(calls()).toEqual([]);
  });

  it('with subscribers, the same work publishes on each channel it touches', async () => {
    const noop = { start() {}, end() {}, asyncStart() {}, asyncEnd() {}, error() {} };
    const subscribed = Object.values(RECIPE_CHANNELS).map((name) => tracingChannel(name));
    for (const ch of subscribed) ch.subscribe(noop);
    try {
      const { calls } = spyOnChannels();
      await workload();
      const seen = calls();
      for (const name of ['lockWait.tracePromise', 'lockHold.start.runStores', 'lockHold.asyncEnd.publish', 'electionTerm.start.runStores',
        'electionTerm.asyncEnd.publish', 'queuePut.tracePromise', 'queueTake.tracePromise']) {
        expect(seen).toContain(name);
      }
    } finally {
      for (const ch of subscribed) ch.unsubscribe(noop);
    }
  });
});
