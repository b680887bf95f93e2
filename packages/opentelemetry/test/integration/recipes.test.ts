// @zkts/opentelemetry with the recipes against a real ZooKeeper: a contended mutex is two lock.wait spans whose
// requests (the node's create, the listing, the watch on the predecessor) are their children, under the
// application's span, and two lock.hold spans beside them, with the wait and hold durations; a queue's put and
// take are PRODUCER and CONSUMER spans parenting their requests; a TreeCache's first load parents its reads and
// sets the cache size gauge.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { Mutex, Queue, TreeCache } from '@zkts/recipes';
import { describe, expect, it } from 'vitest';

import { histogramAt, isChildOf, onlySpan, points, valueAt } from '../support/otel.js';
import { hex, until } from '../support/server.js';
import { otelSuite } from '../support/suite.js';

const { root, clients, instrument } = otelSuite('otel-recipes');

const LOCK = { 'zookeeper.recipe': 'Mutex', 'zookeeper.lock.kind': 'exclusive' };

describe('a contended mutex', () => {
  it("each wait is an INTERNAL span with its requests as children; the holds are the waits' siblings", async () => {
    const [a, b] = [await clients.connect(), await clients.connect()];
    const path = `${root}/mutex`;
    await a.create(path);
    const o = instrument();
    const tracer = o.tracerProvider.getTracer('app');
    const first = await tracer.startActiveSpan('first', async (span) => {
      try {
        return await new Mutex(a, path).acquire();
      } finally {
        span.end();
      }
    });
    const second = tracer.startActiveSpan('second', async (span) => {
      try {
        return await new Mutex(b, path).acquire();
      } finally {
        span.end();
      }
    });
    // The second waiter is queued once it watches the first's node.
    await until(() => o.finished().some((s) => s.name === 'getData'), 10_000, 'the second waiter to watch');
    await first.release();
    const held = await second;
    await held.release();

    const spans = o.finished();
    const [waitA, waitB] = spans.filter((s) => s.name === 'lock.wait');
    const [holdA, holdB] = spans.filter((s) => s.name === 'lock.hold');
    const appFirst = onlySpan(spans, 'first');
    const appSecond = onlySpan(spans, 'second');
    if (waitA === undefined || waitB === undefined || holdA === undefined || holdB === undefined) throw new Error(`spans: ${spans.map((s) => s.name).join(', ')}`);
    const children = (parent: typeof waitA): string[] =>
      spans.filter((s) => isChildOf(s, parent)).sort((x, y) => x.startTime[0] - y.startTime[0] || x.startTime[1] - y.startTime[1]).map((s) => `${s.name} ${String(s.attributes['zookeeper.path'])}`);

    expect(waitA.kind).toBe(SpanKind.INTERNAL);
    expect(isChildOf(waitA, appFirst)).toBe(true);
    expect(isChildOf(waitB, appSecond)).toBe(true);
    const nodeA = String(waitA.attributes['zookeeper.lock.node']);
    const nodeB = String(waitB.attributes['zookeeper.lock.node']);
    expect(nodeA.startsWith(`${path}/_c_`)).toBe(true);
    // The create is protected: its path is the node's name before the server appends the sequence number.
    expect(children(waitA)).toEqual([`create ${nodeA.slice(0, -10)}`, `getChildren ${path}`]);
    expect(children(waitB)).toEqual([`create ${nodeB.slice(0, -10)}`, `getChildren ${path}`, `getData ${nodeA}`]);
    expect(waitA.attributes).toEqual({ ...LOCK, 'zookeeper.path': path, 'zookeeper.lock.node': nodeA, 'zookeeper.lock.queue_position': 0, 'zookeeper.lock.fencing_token': hex(first.fencingToken), 'zookeeper.session.id': hex(a.sessionId) });
    expect(waitB.attributes).toEqual({ ...LOCK, 'zookeeper.path': path, 'zookeeper.lock.node': nodeB, 'zookeeper.lock.queue_position': 0, 'zookeeper.lock.fencing_token': hex(held.fencingToken), 'zookeeper.session.id': hex(b.sessionId) });
    expect(waitA.status.code).toBe(SpanStatusCode.UNSET);

    expect(isChildOf(holdA, appFirst)).toBe(true);
    expect(isChildOf(holdB, appSecond)).toBe(true);
    expect(holdA.attributes).toMatchObject({ ...LOCK, 'zookeeper.lock.node': nodeA, 'zookeeper.lock.release_reason': 'released' });
    expect(holdB.attributes).toMatchObject({ ...LOCK, 'zookeeper.lock.node': nodeB, 'zookeeper.lock.release_reason': 'released' });
    // The second wait lasted until the first release deleted its node. The SDK starts each span at Date.now()'s
    // whole millisecond and ends it by the monotonic clock's elapsed time, so across two spans the times agree to
    // within 1 ms only: the first release began no more than that after the second wait ended.
    const time = (t: readonly [number, number]): number => t[0] * 1e9 + t[1];
    const releaseA = spans.find((s) => s.name === 'delete' && s.attributes['zookeeper.path'] === nodeA);
    expect(releaseA).toBeDefined();
    expect(time(waitB.endTime)).toBeGreaterThan(time(releaseA?.startTime ?? [0, 0]) - 1e6);
    // The releases' deletes run in the test's own context: no parent.
    expect(spans.filter((s) => s.name === 'delete').map((s) => [s.attributes['zookeeper.path'], s.parentSpanContext])).toEqual([[nodeA, undefined], [nodeB, undefined]]);

    const metrics = await o.metrics();
    expect(histogramAt(metrics.get('zookeeper.lock.wait.duration'), LOCK)?.count).toBe(2);
    expect(histogramAt(metrics.get('zookeeper.lock.hold.duration'), { ...LOCK, 'zookeeper.lock.release_reason': 'released' })?.count).toBe(2);
    expect(points(metrics.get('zookeeper.lock.wait.duration'))).toHaveLength(1);
  });

  it('a wait that times out is an ERROR span with error.type and a failed-wait duration point', async () => {
    const [a, b] = [await clients.connect(), await clients.connect()];
    const path = `${root}/timeout`;
    await a.create(path);
    const held = await new Mutex(a, path).acquire();
    const o = instrument();
    const failure = (await new Mutex(b, path).acquire({ timeout: 200 }).then(
      () => ({ code: 'none', message: 'acquired' }),
      (err: unknown) => err as { code: string; message: string },
    ));
    await held.release();
    const wait = onlySpan(o.finished(), 'lock.wait');
    expect(wait.status).toEqual({ code: SpanStatusCode.ERROR, message: failure.message });
    expect(wait.attributes['error.type']).toBe(failure.code);
    const metrics = await o.metrics();
    expect(histogramAt(metrics.get('zookeeper.lock.wait.duration'), { ...LOCK, 'error.type': failure.code })?.count).toBe(1);
  });
});

describe('queues and caches', () => {
  it('a put is a PRODUCER span and a take a CONSUMER span, each parenting its requests', async () => {
    const zk = await clients.connect();
    const path = `${root}/queue`;
    await zk.create(path);
    const o = instrument();
    const queue = new Queue(zk, path);
    const node = await queue.offer('hello');
    expect(new TextDecoder().decode(await queue.take())).toBe('hello');
    const spans = o.finished();
    const put = onlySpan(spans, 'queue.put');
    const take = onlySpan(spans, 'queue.take');
    expect(put.kind).toBe(SpanKind.PRODUCER);
    expect(take.kind).toBe(SpanKind.CONSUMER);
    const common = { 'messaging.system': 'zookeeper', 'zookeeper.recipe': 'Queue', 'messaging.destination.name': path, 'messaging.message.id': node, 'messaging.message.body.size': 5 };
    expect(put.attributes).toEqual({ ...common, 'messaging.operation.type': 'send', 'messaging.operation.name': 'put' });
    expect(take.attributes).toEqual({ ...common, 'messaging.operation.type': 'receive', 'messaging.operation.name': 'take' });
    const requests = spans.filter((s) => s.kind === SpanKind.CLIENT);
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) expect(isChildOf(request, put) || isChildOf(request, take), request.name).toBe(true);
    expect(requests.filter((s) => isChildOf(s, put)).map((s) => s.name)).toEqual(['create']);
  });

  it("a TreeCache's first load parents its reads and sets zookeeper.cache.size", async () => {
    const zk = await clients.connect();
    const path = `${root}/tree`;
    await zk.mkdirp(`${path}/a/x`);
    await zk.mkdirp(`${path}/b`);
    const o = instrument();
    const cache = new TreeCache(zk, path);
    await cache.start();
    await cache.close();
    const spans = o.finished();
    const load = onlySpan(spans, 'cache.resync');
    expect(load.attributes).toEqual({ 'zookeeper.recipe': 'TreeCache', 'zookeeper.path': path, 'zookeeper.cache.resync_reason': 'initial', 'zookeeper.cache.size': 4 });
    // The load reads the root, then each level's nodes in one multiRead, listing the children of those that have
    // some: all of it inside the load's span. (The persistent watch is set before the load, outside it.)
    const reads = spans.filter((s) => isChildOf(s, load)).sort((x, y) => x.startTime[0] - y.startTime[0] || x.startTime[1] - y.startTime[1]);
    expect(reads.map((s) => `${s.name} ${String(s.attributes['zookeeper.path'] ?? '')}`)).toEqual([
      `getData ${path}`,
      `getChildren ${path}`,
      'multiRead ',
      `getChildren ${path}/a`,
      'multiRead ',
    ]);
    expect(onlySpan(spans, 'addWatch').parentSpanContext).toBeUndefined();
    expect(valueAt((await o.metrics()).get('zookeeper.cache.size'), { 'zookeeper.recipe': 'TreeCache', 'zookeeper.path': path })).toBe(4);
  });
});
