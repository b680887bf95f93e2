// SimpleDistributedQueue against the real server and beside Curator's (a JVM, java/CuratorLayouts.java) on the
// same path: Curator's node names and order, offer/peek/element/remove/poll/take semantics, Curator offers and
// zkts takes and the other way round, a zkts and a Curator consumer sharing one queue (each item exactly once),
// zkts consumers whose connections are cut at random still taking each item exactly once, and both taking items
// in the same order around the 2^31 wrap of the sequence suffix (string order, as Curator sorts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SimpleDistributedQueue } from '@zkts/recipes';

import { formatSequence } from '../../../src/internal/names.js';
import { cutAtRandom, victimClient } from '../../support/expiry.js';
import { compileCurator, javaMain } from '../../support/foreign.js';
import { childrenOf, rng, sharedServer, testSeed, uniqueRoot } from '../../support/helpers.js';
import { BOUNDARY_CASES } from '../../support/sequence-boundary.js';
import { perTestResources } from '../../support/testbed.js';

const { clients, proxies } = perTestResources();

let compiled: ReturnType<typeof compileCurator> | undefined;
beforeAll(() => {
  compiled = compileCurator('CuratorLayouts.java'); // once for the file: javac takes seconds
}, 120_000);
afterAll(() => compiled?.dispose());

const curator = (...args: string[]): ReturnType<typeof javaMain> => javaMain(compiled!.classpath, 'CuratorLayouts', ...args);

const text = (b: Uint8Array | null): string | null => (b === null ? null : new TextDecoder().decode(b));

describe('SimpleDistributedQueue', () => {
  it("Curator's layout and semantics: qn- names in order, foreign children skipped, empty-queue answers", async () => {
    const path = `${uniqueRoot()}/queue`;
    const [a, b] = await clients.many(2);
    const q = new SimpleDistributedQueue(a!, path);
    expect(await q.peek()).toBeNull(); // no queue node yet
    expect(await q.poll()).toBeNull();
    await expect(q.element()).rejects.toMatchObject({ code: 'QUEUE_EMPTY', path });
    await expect(q.remove()).rejects.toMatchObject({ code: 'QUEUE_EMPTY' });
    expect(await q.offer('one')).toBe(true);
    await q.offer(new TextEncoder().encode('two'));
    await q.offer('three');
    expect((await childrenOf(a!, path)).sort()).toEqual(['qn-0000000000', 'qn-0000000001', 'qn-0000000002']);
    await a!.create(`${path}/aaa-foreign`, 'not an item'); // sorts first, but is no qn- item
    expect(text(await q.peek())).toBe('one');
    expect(text(await q.element())).toBe('one');
    expect(text(await q.remove())).toBe('one');
    expect(text(await q.poll())).toBe('two');
    expect(await childrenOf(a!, path)).toEqual(expect.arrayContaining(['aaa-foreign', 'qn-0000000002']));
    // take() waits for an offer made by another client.
    expect(text(await q.take())).toBe('three');
    const waiting = q.take({ timeout: 30_000 });
    await new SimpleDistributedQueue(b!, path).offer('four');
    expect(text(await waiting)).toBe('four');
    // poll with a timeout on an empty queue answers null; take with one rejects.
    expect(await q.poll({ timeout: 50 })).toBeNull();
    await expect(q.take({ timeout: 50 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const aborted = new AbortController();
    aborted.abort();
    await expect(q.poll({ signal: aborted.signal })).rejects.toMatchObject({ code: 'ABORTED' });
    expect(await childrenOf(a!, path)).toEqual(['aaa-foreign']); // no claim receipt left behind
  });

  it('Curator offers and zkts takes in order, zkts offers and Curator takes in order', async () => {
    const path = `${uniqueRoot()}/queue`;
    const c = await clients.connect();
    const q = new SimpleDistributedQueue(c, path);
    const theirs = ['c1', 'c2', 'c3', 'c4', 'c5'];
    const put = curator('sq-offer', sharedServer(), path, ...theirs);
    const got: string[] = [];
    for (let i = 0; i < theirs.length; i++) got.push(text(await q.take({ timeout: 60_000 }))!);
    expect(got).toEqual(theirs);
    expect(await put.exited).toBe(0);

    const taker = curator('sq-take', sharedServer(), path, '5');
    const ours = ['z1', 'z2', 'z3', 'z4', 'z5'];
    for (const m of ours) await q.offer(m);
    await taker.line(/^DONE$/m, 60_000);
    expect([...taker.output().matchAll(/^GOT (\S+)$/gm)].map((m) => m[1])).toEqual(ours);
    expect(await taker.exited).toBe(0);
    expect(await childrenOf(c, path)).toEqual([]);
  }, 120_000);

  it('a Curator and a zkts consumer share a queue filled by both, with zkts connections cut: each item once', async () => {
    const seed = testSeed('simple queue cuts');
    const path = `${uniqueRoot()}/queue`;
    const producer = await clients.connect();
    const victims = [await victimClient(clients, proxies), await victimClient(clients, proxies)];
    const theirs = Array.from({ length: 20 }, (_, i) => `c${i}`);
    const ours = Array.from({ length: 20 }, (_, i) => `z${i}`);
    const put = curator('sq-offer', sharedServer(), path, ...theirs);
    const q = new SimpleDistributedQueue(producer, path);
    for (const m of ours) await q.offer(m);
    expect(await put.exited).toBe(0);
    const curatorShare = 12;
    const taker = curator('sq-take', sharedServer(), path, String(curatorShare));
    await taker.line(/^GOT /m, 60_000); // Curator is consuming: ours start beside it
    const cuts = cutAtRandom(victims, rng(seed));
    const mine: string[] = [];
    await Promise.all(victims.map(async (v) => {
      const consumer = new SimpleDistributedQueue(v.client, path);
      for (;;) {
        const item = await consumer.poll({ timeout: 3000 });
        if (item === null) return; // drained (Curator takes its share meanwhile)
        mine.push(text(item)!);
        await cuts.reached(Math.min(mine.length, 6));
      }
    }));
    const cutCount = await cuts.stop();
    await taker.line(/^DONE$/m, 60_000);
    const curators = [...taker.output().matchAll(/^GOT (\S+)$/gm)].map((m) => m[1]!);
    expect(curators).toHaveLength(curatorShare);
    expect([...mine, ...curators].sort()).toEqual([...theirs, ...ours].sort()); // every item, none twice
    expect(cutCount, `seed ${seed}`).toBeGreaterThan(0);
    expect((await childrenOf(producer, path)).filter((n) => n.startsWith('qn-'))).toEqual([]);
    // A receipt whose delete met a cut stays until its session ends (ephemeral): none outlives the consumers.
    await Promise.all(victims.map((v) => v.client.close()));
    expect(await childrenOf(producer, path)).toEqual([]);
  }, 180_000);

  it.each(BOUNDARY_CASES.map((c) => [c.what, c] as const))('takes in Curator\'s order around the 2^31 wrap: %s', async (_, c) => {
    const root = uniqueRoot();
    const a = await clients.connect();
    // The names ZooKeeper hands out at those counter values, made directly (data = the sequence), twice over.
    for (const dir of ['zkts', 'curator']) {
      await a.mkdirp(`${root}/${dir}`);
      for (const seq of c.created) await a.create(`${root}/${dir}/qn-${formatSequence(seq)}`, String(seq));
    }
    const q = new SimpleDistributedQueue(a, `${root}/zkts`);
    const ours: number[] = [];
    for (let item = await q.poll(); item !== null; item = await q.poll()) ours.push(Number(text(item)));
    expect(ours).toEqual(c.curator);
    const taker = curator('sq-take', sharedServer(), `${root}/curator`, String(c.created.length));
    await taker.line(/^DONE$/m, 60_000);
    expect([...taker.output().matchAll(/^GOT (\S+)$/gm)].map((m) => Number(m[1]))).toEqual(c.curator);
  }, 120_000);
});
