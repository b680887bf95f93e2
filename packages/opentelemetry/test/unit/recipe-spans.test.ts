// The recipe channels as the contract describes them, published by hand with synthetic contexts: each recipe
// operation is a span of its own, the requests made inside a recipe's work (start.runStores, as tracePromise
// does) are its children, a hold that starts in the wait's last continuation is the wait's sibling, and an
// application span opened inside the recipe's work keeps its own children.
import { tracingChannel } from 'node:diagnostics_channel';

import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { isChildOf, onlySpan, startOtel, useContextManager, type Otel } from '../support/otel.js';

const requests = tracingChannel('zkts:request');
const lockWait = tracingChannel('zkts:lock.wait');
const lockHold = tracingChannel('zkts:lock.hold');
const election = tracingChannel('zkts:election.term');
const cache = tracingChannel('zkts:cache.resync');
const queuePut = tracingChannel('zkts:queue.put');
const queueTake = tracingChannel('zkts:queue.take');

const request = (op: string, path: string): Promise<void> =>
  requests.tracePromise(async () => undefined, { op, path, sessionId: 0x10n, xid: 1, server: '127.0.0.1:2181', bytesOut: 10, bytesIn: 10, attempt: 1, retried: false, ops: undefined, errorCode: undefined });

let otel: Otel;
beforeAll(() => useContextManager());
beforeEach(() => {
  otel = startOtel();
});
afterEach(async () => {
  await otel.close();
});

/** A mutex acquire as the recipes publish it: the wait around the requests, then the hold's start. */
async function acquire(ctx: Record<string, unknown>): Promise<Record<string, unknown>> {
  await lockWait.tracePromise(async () => {
    await request('create', '/locks/a/_c_1-lock-');
    ctx['node'] = '_c_1-lock-0000000001';
    ctx['queuePosition'] = 1;
    await request('getChildren', '/locks/a');
    await request('exists', '/locks/a/_c_0-lock-0000000000');
    ctx['queuePosition'] = 0;
    ctx['fencingToken'] = 0x2an;
  }, ctx);
  const hold = { ...ctx };
  lockHold.start.publish(hold);
  return hold;
}

describe('zkts:lock.wait and zkts:lock.hold', () => {
  it("the wait is an INTERNAL span parenting the wait's requests; the hold is its sibling", async () => {
    const tracer = otel.tracerProvider.getTracer('app');
    await tracer.startActiveSpan('job', async (job) => {
      const hold = await acquire({ recipe: 'Mutex', kind: 'exclusive', path: '/locks/a', sessionId: 0xabcn });
      await request('getData', '/app/state');
      await request('delete', '/locks/a/_c_1-lock-0000000001');
      hold['reason'] = 'released';
      lockHold.asyncStart.publish(hold);
      lockHold.asyncEnd.publish(hold);
      job.end();
    });
    const spans = otel.finished();
    const job = onlySpan(spans, 'job');
    const wait = onlySpan(spans, 'lock.wait');
    expect(wait.kind).toBe(SpanKind.INTERNAL);
    expect(isChildOf(wait, job)).toBe(true);
    for (const op of ['create', 'getChildren', 'exists']) expect(isChildOf(onlySpan(spans, op), wait), op).toBe(true);
    expect(wait.attributes).toEqual({
      'zookeeper.recipe': 'Mutex',
      'zookeeper.lock.kind': 'exclusive',
      'zookeeper.path': '/locks/a',
      'zookeeper.lock.node': '_c_1-lock-0000000001',
      'zookeeper.lock.queue_position': 0,
      'zookeeper.lock.fencing_token': '0x2a',
      'zookeeper.session.id': '0xabc',
    });
    expect(isChildOf(onlySpan(spans, 'getData'), job)).toBe(true);
    const holds = spans.filter((s) => s.name === 'lock.hold');
    expect(holds).toHaveLength(1);
    expect(isChildOf(holds[0]!, job)).toBe(true);
    expect(holds[0]!.attributes['zookeeper.lock.release_reason']).toBe('released');
  });

  it("what starts in the wait's async chain after the wait ended is the wait's sibling, not its child", async () => {
    const tracer = otel.tracerProvider.getTracer('app');
    await tracer.startActiveSpan('job', async (job) => {
      const ctx: Record<string, unknown> = { recipe: 'Mutex', kind: 'exclusive', path: '/locks/e', sessionId: 0x1n };
      // A publisher that runs the whole acquire inside the wait's stores and publishes the hold from there.
      await lockWait.start.runStores(ctx, async () => {
        await request('getChildren', '/locks/e');
        lockWait.end.publish(ctx);
        lockWait.asyncStart.publish(ctx);
        lockWait.asyncEnd.publish(ctx);
        const hold = { ...ctx };
        lockHold.start.publish(hold);
        await request('getData', '/after');
        lockHold.asyncStart.publish(hold);
        lockHold.asyncEnd.publish(hold);
      });
      job.end();
    });
    const spans = otel.finished();
    const job = onlySpan(spans, 'job');
    const wait = onlySpan(spans, 'lock.wait');
    expect(isChildOf(onlySpan(spans, 'getChildren'), wait)).toBe(true);
    expect(isChildOf(onlySpan(spans, 'lock.hold'), job)).toBe(true);
    expect(isChildOf(onlySpan(spans, 'getData'), job)).toBe(true);
  });

  it('a wait that times out is an ERROR span with the error code; a lost hold too', async () => {
    const ctx = { recipe: 'Mutex', kind: 'exclusive', path: '/locks/b', sessionId: 0x1n };
    const timeout = Object.assign(new Error('lock /locks/b not acquired within 10 ms'), { code: 'LOCK_TIMEOUT' });
    await expect(lockWait.tracePromise(async () => {
      await request('getChildren', '/locks/b');
      throw timeout;
    }, ctx)).rejects.toBe(timeout);
    const wait = onlySpan(otel.finished(), 'lock.wait');
    expect(wait.status).toEqual({ code: SpanStatusCode.ERROR, message: 'lock /locks/b not acquired within 10 ms' });
    expect(wait.attributes['error.type']).toBe('LOCK_TIMEOUT');

    const hold: Record<string, unknown> = { ...ctx, node: '_c_x-lock-0000000003' };
    lockHold.start.publish(hold);
    hold['reason'] = 'lost';
    hold['error'] = Object.assign(new Error('session expired'), { code: 'SESSION_EXPIRED' });
    lockHold.error.publish(hold);
    lockHold.asyncStart.publish(hold);
    lockHold.asyncEnd.publish(hold);
    const lost = onlySpan(otel.finished(), 'lock.hold');
    expect(lost.status.code).toBe(SpanStatusCode.ERROR);
    expect(lost.attributes).toMatchObject({ 'error.type': 'SESSION_EXPIRED', 'zookeeper.lock.release_reason': 'lost' });
  });

  it("an application span opened inside the recipe's work parents what runs in it", async () => {
    const tracer = otel.tracerProvider.getTracer('app');
    await lockWait.tracePromise(async () => {
      await tracer.startActiveSpan('inner', async (inner) => {
        await request('getData', '/x');
        inner.end();
      });
      await request('exists', '/y');
    }, { recipe: 'Mutex', kind: 'exclusive', path: '/locks/c', sessionId: 0x1n });
    const spans = otel.finished();
    const wait = onlySpan(spans, 'lock.wait');
    const inner = onlySpan(spans, 'inner');
    expect(isChildOf(onlySpan(spans, 'getData'), inner)).toBe(true);
    expect(isChildOf(onlySpan(spans, 'exists'), wait)).toBe(true);
    // The application's span was started under its own context manager, which knows nothing of the wait.
    expect(inner.parentSpanContext).toBeUndefined();
  });
});

describe('elections, caches and queues', () => {
  it('an election term is an INTERNAL span with the participant and why it ended', async () => {
    const ctx: Record<string, unknown> = { recipe: 'LeaderLatch', path: '/election', node: '_c_9-latch-0000000000', participantId: 'worker-1', sessionId: 0x5n };
    election.start.publish(ctx);
    ctx['reason'] = 'resigned';
    election.asyncStart.publish(ctx);
    election.asyncEnd.publish(ctx);
    const term = onlySpan(otel.finished(), 'election.term');
    expect(term.kind).toBe(SpanKind.INTERNAL);
    expect(term.attributes).toEqual({
      'zookeeper.recipe': 'LeaderLatch',
      'zookeeper.path': '/election',
      'zookeeper.election.node': '_c_9-latch-0000000000',
      'zookeeper.election.participant_id': 'worker-1',
      'zookeeper.session.id': '0x5',
      'zookeeper.election.end_reason': 'resigned',
    });
  });

  it("a cache resync parents its reads and reports the size it ended with", async () => {
    const ctx: Record<string, unknown> = { recipe: 'TreeCache', path: '/config', reason: 'initial' };
    await cache.tracePromise(async () => {
      await request('getChildren', '/config');
      await request('getData', '/config/a');
      ctx['size'] = 2;
    }, ctx);
    const spans = otel.finished();
    const resync = onlySpan(spans, 'cache.resync');
    expect(resync.attributes).toEqual({ 'zookeeper.recipe': 'TreeCache', 'zookeeper.path': '/config', 'zookeeper.cache.resync_reason': 'initial', 'zookeeper.cache.size': 2 });
    expect(isChildOf(onlySpan(spans, 'getChildren'), resync)).toBe(true);
    expect(isChildOf(onlySpan(spans, 'getData'), resync)).toBe(true);
  });

  it('a put is a PRODUCER span and a take a CONSUMER span, with messaging attributes', async () => {
    const put: Record<string, unknown> = { recipe: 'DistributedQueue', path: '/queue', bytes: 5 };
    await queuePut.tracePromise(async () => {
      await request('create', '/queue/qn-');
      put['node'] = 'qn-0000000000';
    }, put);
    const take: Record<string, unknown> = { recipe: 'DistributedQueue', path: '/queue' };
    await queueTake.tracePromise(async () => {
      Object.assign(take, { node: 'qn-0000000000', bytes: 5 });
    }, take);
    const spans = otel.finished();
    const sent = onlySpan(spans, 'queue.put');
    expect(sent.kind).toBe(SpanKind.PRODUCER);
    expect(sent.attributes).toEqual({
      'messaging.system': 'zookeeper',
      'messaging.operation.type': 'send',
      'messaging.operation.name': 'put',
      'zookeeper.recipe': 'DistributedQueue',
      'messaging.destination.name': '/queue',
      'messaging.message.id': 'qn-0000000000',
      'messaging.message.body.size': 5,
    });
    expect(isChildOf(onlySpan(spans, 'create'), sent)).toBe(true);
    const received = onlySpan(spans, 'queue.take');
    expect(received.kind).toBe(SpanKind.CONSUMER);
    expect(received.attributes).toMatchObject({ 'messaging.operation.type': 'receive', 'messaging.operation.name': 'take', 'messaging.message.id': 'qn-0000000000' });
  });
});

describe('disable()', () => {
  it('unbinds the stores and unsubscribes every recipe channel', async () => {
    for (const c of [lockWait, lockHold, election, cache, queuePut, queueTake]) expect(c.hasSubscribers).toBe(true);
    otel.instrumentation.disable();
    for (const c of [lockWait, lockHold, election, cache, queuePut, queueTake]) expect(c.hasSubscribers).toBe(false);
    await lockWait.tracePromise(async () => request('getChildren', '/locks/d'), { recipe: 'Mutex', kind: 'exclusive', path: '/locks/d', sessionId: 1n });
    expect(otel.finished()).toEqual([]);
  });
});
