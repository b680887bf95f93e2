// The metrics from synthetic channel messages, read back through a real SDK meter provider: the request
// duration histogram by operation and outcome, the active-requests count coming back to zero, clients per
// state, reconnects, failed dials, expiries, renewals, authentications, watch events and their delay, lock
// wait and hold durations, and cache sizes. The same instruments against a real server: test/integration.
import { channel, tracingChannel } from 'node:diagnostics_channel';

import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { histogramAt, onlySpan, points, startOtel, valueAt, type Otel } from '../support/otel.js';

const requests = tracingChannel('zkts:request');
const lockWait = tracingChannel('zkts:lock.wait');
const lockHold = tracingChannel('zkts:lock.hold');
const cache = tracingChannel('zkts:cache.resync');
const state = channel('zkts:state');
const connection = channel('zkts:connection');
const session = channel('zkts:session');
const auth = channel('zkts:auth');
const event = channel('zkts:event');

const ZK = { 'db.system.name': 'zookeeper' };

let otel: Otel;
beforeEach(() => {
  otel = startOtel();
});
afterEach(async () => {
  await otel.close();
});

describe('request metrics', () => {
  it('db.client.operation.duration by operation, server and error.type; active requests back to zero', async () => {
    const ctx = (op: string): Record<string, unknown> => ({ op, path: '/a', sessionId: 1n, xid: -1, attempt: 1 });
    let answer: () => void = () => undefined;
    const slow = requests.tracePromise(() => new Promise<void>((resolve) => (answer = resolve)), { ...ctx('getData'), server: '10.0.0.1:2181' });
    const during = await otel.metrics();
    expect(valueAt(during.get('zookeeper.client.active_requests'), { ...ZK, 'db.operation.name': 'getData' })).toBe(1);
    answer();
    await slow;
    await requests.tracePromise(async () => undefined, { ...ctx('getData'), server: '10.0.0.1:2181' });
    const failed = { ...ctx('create'), server: '10.0.0.1:2181', errorCode: 'NODE_EXISTS' };
    await requests.tracePromise(async () => {
      throw Object.assign(new Error('exists'), { code: 'NODE_EXISTS' });
    }, failed).catch(() => undefined);

    const after = await otel.metrics();
    const duration = after.get('db.client.operation.duration');
    expect(duration?.descriptor).toMatchObject({ unit: 's' });
    const server = { 'server.address': '10.0.0.1', 'server.port': 2181 };
    expect(histogramAt(duration, { ...ZK, 'db.operation.name': 'getData', ...server })?.count).toBe(2);
    expect(histogramAt(duration, { ...ZK, 'db.operation.name': 'create', ...server, 'error.type': 'NODE_EXISTS' })?.count).toBe(1);
    expect(points(duration)).toHaveLength(2);
    expect(valueAt(after.get('zookeeper.client.active_requests'), { ...ZK, 'db.operation.name': 'getData' })).toBe(0);
    expect(valueAt(after.get('zookeeper.client.active_requests'), { ...ZK, 'db.operation.name': 'create' })).toBe(0);
  });

  it('disable() brings the active count to zero, the requests still in flight included', async () => {
    let answer: () => void = () => undefined;
    const pending = requests.tracePromise(() => new Promise<void>((resolve) => (answer = resolve)), { op: 'sync', path: '/', attempt: 1 });
    expect(valueAt((await otel.metrics()).get('zookeeper.client.active_requests'), { ...ZK, 'db.operation.name': 'sync' })).toBe(1);
    otel.instrumentation.disable();
    expect(valueAt((await otel.metrics()).get('zookeeper.client.active_requests'), { ...ZK, 'db.operation.name': 'sync' })).toBe(0);
    answer();
    await pending;
  });
});

describe('durations are the operation\'s, not the tracing pipeline\'s', () => {
  /** A span processor that takes 25 ms when a span ends, as an exporter that works synchronously can. */
  const slowOnEnd: SpanProcessor = {
    onStart: () => undefined,
    onEnd: () => {
      const until = performance.now() + 25;
      while (performance.now() < until) {
        // busy: the time a synchronous exporter takes on the caller's thread
      }
    },
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  const seconds = (span: ReadableSpan): number => span.duration[0] + span.duration[1] / 1e9;
  /** Nanosecond rounding of the span's times, nothing more. */
  const ROUNDING = 1e-6;

  it('a request\'s duration point lies within its span, however long the span processors take', async () => {
    const slow = startOtel({ spanProcessors: [slowOnEnd] });
    try {
      await requests.tracePromise(async () => undefined, { op: 'getData', path: '/a', sessionId: 1n, xid: 5, attempt: 1, server: '10.0.0.1:2181' });
      const span = onlySpan(slow.finished(), 'getData');
      const point = histogramAt((await slow.metrics()).get('db.client.operation.duration'), { ...ZK, 'db.operation.name': 'getData', 'server.address': '10.0.0.1', 'server.port': 2181 });
      expect(point?.count).toBe(1);
      expect(point?.sum).toBeLessThanOrEqual(seconds(span) + ROUNDING);
    } finally {
      await slow.close();
    }
  });

  it('so does a lock wait\'s', async () => {
    const slow = startOtel({ spanProcessors: [slowOnEnd] });
    try {
      await lockWait.tracePromise(async () => undefined, { recipe: 'Mutex', kind: 'exclusive', path: '/l', sessionId: 1n });
      const [span] = slow.finished();
      const point = histogramAt((await slow.metrics()).get('zookeeper.lock.wait.duration'), { 'zookeeper.recipe': 'Mutex', 'zookeeper.lock.kind': 'exclusive' });
      expect(point?.count).toBe(1);
      expect(span).toBeDefined();
      expect(point?.sum).toBeLessThanOrEqual(seconds(span as ReadableSpan) + ROUNDING);
    } finally {
      await slow.close();
    }
  });
});

describe('client metrics', () => {
  it('zookeeper.client.state counts clients per state from the transitions seen', async () => {
    state.publish({ sessionId: 0n, from: 'idle', to: 'connecting' });
    state.publish({ sessionId: 0n, from: 'idle', to: 'connecting' });
    state.publish({ sessionId: 1n, from: 'connecting', to: 'connected' });
    state.publish({ sessionId: 1n, from: 'connected', to: 'suspended', cause: { code: 'CONNECTION_LOSS', message: 'lost' } });
    // A client already connected before the instrumentation started: nothing to take away from 'connected'.
    state.publish({ sessionId: 2n, from: 'connected', to: 'closed' });
    const gauge = (await otel.metrics()).get('zookeeper.client.state');
    expect(points(gauge).map((p) => [p.attributes['zookeeper.client.state'], p.value]).sort()).toEqual([
      ['connected', 0],
      ['connecting', 1],
      ['suspended', 1],
    ]);
  });

  it('reconnects by reason, failed dials by server and code, expiries, renewals', async () => {
    connection.publish({ sessionId: 0n, event: 'dialing', server: '127.0.0.1:2181', reason: 'first' });
    connection.publish({ sessionId: 0n, event: 'connected', server: '127.0.0.1:2181' });
    connection.publish({ sessionId: 1n, event: 'closed', server: '127.0.0.1:2181', reason: 'lost', cause: { code: 'CONNECTION_LOSS', message: 'x' } });
    connection.publish({ sessionId: 1n, event: 'dialing', server: '127.0.0.1:2182', delayMs: 50, reason: 'lost' });
    connection.publish({ sessionId: 1n, event: 'dial-failed', server: '127.0.0.1:2182', reason: 'lost', cause: { code: 'CONNECTION_REFUSED', message: 'refused' } });
    connection.publish({ sessionId: 1n, event: 'dialing', server: '127.0.0.1:2181', delayMs: 50, reason: 'cycle' });
    connection.publish({ sessionId: 1n, event: 'connected', server: '127.0.0.1:2181' });
    session.publish({ event: 'established', sessionId: 1n, timeoutMs: 10_000 });
    session.publish({ event: 'expired', sessionId: 1n });
    session.publish({ event: 'renewed', sessionId: 2n, previousSessionId: 1n, timeoutMs: 10_000 });
    const metrics = await otel.metrics();
    expect(points(metrics.get('zookeeper.client.reconnects'))).toEqual([{ attributes: { 'zookeeper.reconnect.reason': 'lost' }, value: 1 }]);
    expect(points(metrics.get('zookeeper.client.connection.failures'))).toEqual([
      { attributes: { 'server.address': '127.0.0.1', 'server.port': 2182, 'error.type': 'CONNECTION_REFUSED' }, value: 1 },
    ]);
    expect(valueAt(metrics.get('zookeeper.client.session.expirations'), {})).toBe(1);
    expect(valueAt(metrics.get('zookeeper.client.session.renewals'), {})).toBe(1);
  });

  it('authentications by scheme and outcome, never a credential', async () => {
    auth.publish({ sessionId: 1n, scheme: 'digest', outcome: 'ok', server: '127.0.0.1:2181' });
    auth.publish({ sessionId: 1n, scheme: 'sasl:DIGEST-MD5', outcome: 'failed', server: '127.0.0.1:2181', cause: { code: 'AUTH_FAILED', message: 'no' } });
    const attempts = (await otel.metrics()).get('zookeeper.client.auth.attempts');
    expect(points(attempts)).toEqual(
      expect.arrayContaining([
        { attributes: { 'zookeeper.auth.scheme': 'digest', 'zookeeper.auth.outcome': 'ok' }, value: 1 },
        { attributes: { 'zookeeper.auth.scheme': 'sasl:DIGEST-MD5', 'zookeeper.auth.outcome': 'failed', 'error.type': 'AUTH_FAILED' }, value: 1 },
      ]),
    );
  });

  it('watch events by type, and their delivery delay in seconds', async () => {
    event.publish({ sessionId: 1n, type: 'dataChanged', path: '/a', zxid: 5n, deliveryDelayMs: 2 });
    event.publish({ sessionId: 1n, type: 'dataChanged', path: '/b', zxid: 6n, deliveryDelayMs: 4 });
    event.publish({ sessionId: 1n, type: 'childrenChanged', path: '/a', zxid: 7n });
    const metrics = await otel.metrics();
    expect(valueAt(metrics.get('zookeeper.client.watch.events'), { 'zookeeper.watch.event_type': 'dataChanged' })).toBe(2);
    expect(valueAt(metrics.get('zookeeper.client.watch.events'), { 'zookeeper.watch.event_type': 'childrenChanged' })).toBe(1);
    const delay = histogramAt(metrics.get('zookeeper.client.watch.delivery_delay'), { 'zookeeper.watch.event_type': 'dataChanged' });
    expect(delay?.count).toBe(2);
    expect(delay?.sum).toBeCloseTo(0.006, 6);
  });
});

describe('recipe metrics', () => {
  it('lock wait and hold durations by recipe, kind and outcome', async () => {
    const ctx = { recipe: 'Mutex', kind: 'exclusive', path: '/l', sessionId: 1n };
    await lockWait.tracePromise(async () => undefined, { ...ctx });
    await lockWait.tracePromise(async () => {
      throw Object.assign(new Error('timeout'), { code: 'LOCK_TIMEOUT' });
    }, { ...ctx }).catch(() => undefined);
    const hold: Record<string, unknown> = { ...ctx };
    lockHold.start.publish(hold);
    hold['reason'] = 'released';
    lockHold.asyncEnd.publish(hold);
    const metrics = await otel.metrics();
    const wait = metrics.get('zookeeper.lock.wait.duration');
    expect(histogramAt(wait, { 'zookeeper.recipe': 'Mutex', 'zookeeper.lock.kind': 'exclusive' })?.count).toBe(1);
    expect(histogramAt(wait, { 'zookeeper.recipe': 'Mutex', 'zookeeper.lock.kind': 'exclusive', 'error.type': 'LOCK_TIMEOUT' })?.count).toBe(1);
    const held = metrics.get('zookeeper.lock.hold.duration');
    expect(histogramAt(held, { 'zookeeper.recipe': 'Mutex', 'zookeeper.lock.kind': 'exclusive', 'zookeeper.lock.release_reason': 'released' })?.count).toBe(1);
  });

  it('zookeeper.cache.size is the size after each cache\'s last resync', async () => {
    await cache.tracePromise(async () => undefined, { recipe: 'TreeCache', path: '/c', reason: 'initial', size: 3 });
    await cache.tracePromise(async () => undefined, { recipe: 'TreeCache', path: '/c', reason: 'reconnect', size: 5 });
    await cache.tracePromise(async () => undefined, { recipe: 'PathChildrenCache', path: '/d', reason: 'initial', size: 1 });
    const size = (await otel.metrics()).get('zookeeper.cache.size');
    expect(valueAt(size, { 'zookeeper.recipe': 'TreeCache', 'zookeeper.path': '/c' })).toBe(5);
    expect(valueAt(size, { 'zookeeper.recipe': 'PathChildrenCache', 'zookeeper.path': '/d' })).toBe(1);
  });
});
