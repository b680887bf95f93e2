// Curator's queue family and zkts's on one queue, Curator in its own JVM (java/CuratorQueues.java): Curator puts
// (plain, putMulti, priority, delay, id) and zkts consumes in Curator's order and not before the due time; zkts
// puts and Curator consumes the same way; a Curator and a zkts lock-safe consumer share a queue; zkts removes
// Curator's items by id and the other way round.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ZkClient } from '@zkts/protocol';

import { DistributedDelayQueue, DistributedIdQueue, DistributedPriorityQueue, DistributedQueue } from '@zkts/recipes';

import { compileCurator, javaMain, killAll, type ForeignProcess } from '../../../support/foreign.js';
import { Clients, childrenOf, sharedServer, sleep, uniqueRoot, until } from '../../../support/helpers.js';
import { utf8 } from '../../../support/queue-serializer.js';

const clients = new Clients();
let compiled: ReturnType<typeof compileCurator> | undefined;

beforeAll(() => {
  compiled = compileCurator('CuratorQueues.java');
}, 120_000);

afterEach(async () => {
  killAll();
  await clients.closeAll();
});

afterAll(() => compiled?.dispose());

const java = (...args: string[]): ForeignProcess => javaMain(compiled!.classpath, 'CuratorQueues', ...args);

/** Runs a Curator put and waits for it; the PUT lines as [message, due]. */
async function curatorPut(kind: string, path: string, ...specs: string[]): Promise<[string, number][]> {
  const p = java('put', sharedServer(), kind, path, ...specs);
  await p.line(/^DONE$/m, 60_000);
  expect(await p.exited).toBe(0);
  return [...p.output().matchAll(/^PUT (\S+) (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]);
}

/** The messages a Curator consumer got, with the time it got each. */
function gotLines(p: ForeignProcess): { m: string; at: number }[] {
  return [...p.output().matchAll(/^GOT (\S+) (\d+)$/gm)].map((m) => ({ m: m[1]!, at: Number(m[2]) }));
}

type Kind = typeof DistributedQueue | typeof DistributedPriorityQueue | typeof DistributedDelayQueue | typeof DistributedIdQueue;

/** n messages taken by a zkts consumer of that kind (a callback; close() finishes the last one). */
async function take(kind: Kind, client: ZkClient, path: string, n: number): Promise<{ m: string; at: number }[]> {
  const out: { m: string; at: number }[] = [];
  const queue = new kind<string>(client, path, { serializer: utf8, consumer: (m) => void out.push({ m, at: Date.now() }) });
  await queue.start();
  await until(() => out.length >= n, 30_000);
  await queue.close();
  return out;
}

describe('Curator queues interop (Curator in a JVM)', () => {
  it('Curator puts, zkts consumes: FIFO with putMulti, priority order, delay order and due times, id removal', async () => {
    const root = uniqueRoot();
    const c = await clients.connect();
    await curatorPut('plain', `${root}/plain`, 'a', 'b', 'x+y+z', 'c');
    expect((await take(DistributedQueue, c, `${root}/plain`, 6)).map((g) => g.m)).toEqual(['a', 'b', 'x', 'y', 'z', 'c']);

    await curatorPut('priority', `${root}/prio`, 'p5:5', 'pm3:-3', 'p0:0', 'p5b:5', 'pmin:-2147483648');
    expect((await take(DistributedPriorityQueue, c, `${root}/prio`, 5)).map((g) => g.m)).toEqual(['pmin', 'pm3', 'p0', 'p5', 'p5b']);

    const dues = new Map(await curatorPut('delay', `${root}/delay`, 'late:+2500', 'soon:+1200', 'now:+0'));
    const delayed = await take(DistributedDelayQueue, c, `${root}/delay`, 3);
    expect(delayed.map((g) => g.m)).toEqual(['now', 'soon', 'late']);
    for (const g of delayed) expect(g.at).toBeGreaterThanOrEqual(dues.get(g.m)!);

    await curatorPut('id', `${root}/ids`, 'i1:keep', 'i2:drop', 'i3:keep', 'i4:drop');
    const ids = new DistributedIdQueue(c, `${root}/ids`, { serializer: utf8 });
    expect(await ids.remove('drop')).toBe(2);
    expect((await take(DistributedIdQueue, c, `${root}/ids`, 2)).map((g) => g.m)).toEqual(['i1', 'i3']);
    for (const q of ['plain', 'prio', 'delay', 'ids']) expect(await childrenOf(c, `${root}/${q}`)).toEqual([]);
  });

  it('zkts puts, Curator consumes: FIFO with putMulti, priority order, delay order and due times, id removal', async () => {
    const root = uniqueRoot();
    const c = await clients.connect();
    const plain = new DistributedQueue(c, `${root}/plain`, { serializer: utf8 });
    await plain.put('a');
    await plain.putMulti(['x', 'y']);
    await plain.put('b');
    const prio = new DistributedPriorityQueue(c, `${root}/prio`, { serializer: utf8 });
    for (const [m, p] of [['p5', 5], ['pm3', -3], ['p0', 0], ['pmax', 2147483647]] as const) await prio.put(m, p);
    const ids = new DistributedIdQueue(c, `${root}/ids`, { serializer: utf8 });
    for (const [m, id] of [['i1', 'keep'], ['i2', 'drop'], ['i3', 'keep']] as const) await ids.put(m, id);
    const removal = java('remove', sharedServer(), `${root}/ids`, 'drop');
    await removal.line(/REMOVED 1/);

    const consumers = [java('consume', sharedServer(), 'plain', `${root}/plain`, '4'), java('consume', sharedServer(), 'priority', `${root}/prio`, '4'), java('consume', sharedServer(), 'id', `${root}/ids`, '2')];
    for (const p of consumers) await p.line(/^DONE$/m, 60_000);
    expect(consumers.map((p) => gotLines(p).map((g) => g.m))).toEqual([['a', 'x', 'y', 'b'], ['pm3', 'p0', 'p5', 'pmax'], ['i1', 'i3']]);

    const delay = java('consume', sharedServer(), 'delay', `${root}/delay`, '3');
    await delay.line(/STARTED/, 60_000);
    const dq = new DistributedDelayQueue(c, `${root}/delay`, { serializer: utf8 });
    const t0 = Date.now();
    const dues = { late: t0 + 2500, soon: t0 + 1200, now: t0 };
    for (const m of ['late', 'soon', 'now'] as const) await dq.put(m, dues[m]);
    await delay.line(/^DONE$/m, 60_000);
    const got = gotLines(delay);
    expect(got.map((g) => g.m)).toEqual(['now', 'soon', 'late']);
    for (const g of got) expect(g.at).toBeGreaterThanOrEqual(dues[g.m as keyof typeof dues]);
    for (const q of ['plain', 'prio', 'delay', 'ids']) await until(async () => (await childrenOf(c, `${root}/${q}`)).length === 0);
  });

  it('a Curator and a zkts lock-safe consumer share a queue fed by both: each message delivered once', async () => {
    const root = uniqueRoot();
    const dir = `${root}/q`;
    const lockPath = `${root}/locks`;
    const c = await clients.connect();
    const n = 40;
    const jvm = java('consume', sharedServer(), 'plain', dir, String(n), lockPath); // stops after n; may get fewer
    await jvm.line(/STARTED/, 60_000);
    const got: string[] = [];
    await using ours = new DistributedQueue(c, dir, { serializer: utf8, lockPath, consumer: async (m) => {
      got.push(m);
      await sleep(2);
    } });
    await ours.start();
    const producer = new DistributedQueue(await clients.connect(), dir, { serializer: utf8 });
    const theirs = curatorPut('plain', dir, ...Array.from({ length: n / 2 }, (_, i) => `c${i}`));
    for (let i = 0; i < n / 2; i++) await producer.put(`z${i}`);
    await theirs;
    await until(() => got.length + gotLines(jvm).length >= n, 30_000);
    await sleep(500);
    const all = [...got, ...gotLines(jvm).map((g) => g.m)];
    console.info(`shared lock-safe queue: zkts consumed ${got.length}, Curator ${all.length - got.length}`);
    expect(all.length).toBe(n);
    expect(new Set(all).size).toBe(n);
    expect(got.length).toBeGreaterThan(0);
    expect(all.length - got.length).toBeGreaterThan(0);
    await until(async () => (await childrenOf(c, dir)).length === 0);
    await until(async () => (await childrenOf(c, lockPath)).length === 0);
  });
});
