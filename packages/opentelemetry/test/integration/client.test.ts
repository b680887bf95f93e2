// @zkts/opentelemetry against a real ZooKeeper, through the SDK's in-memory span exporter and a metric reader:
// a getData, a multi and a failed create are each one CLIENT span with the exact attributes (frame sizes to the
// byte) and one duration point; a cut connection and an expiry with renewal show in the reconnect, state,
// expiry and renewal metrics and in the spans of the requests around them; a watch event is counted with its
// delay.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { startFaultProxy, type FaultProxy } from '@zkts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { histogramAt, onlySpan, points, valueAt } from '../support/otel.js';
import { hex, hostPort, sharedServer, until } from '../support/server.js';
import { otelSuite } from '../support/suite.js';

const { host, port } = hostPort(sharedServer());
const ZK = { 'db.system.name': 'zookeeper' };
const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const { root, clients, instrument } = otelSuite('otel');

describe('requests', () => {
  it('a getData is one CLIENT span with the request as the server saw it, and one duration point', async () => {
    const zk = await clients.connect();
    const path = `${root}/get`;
    await zk.create(path, 'hello');
    const o = instrument();
    await zk.getData(path);
    const span = onlySpan(o.finished(), 'getData');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.attributes).toEqual({
      ...ZK,
      'db.operation.name': 'getData',
      'zookeeper.path': path,
      'zookeeper.session.id': hex(zk.sessionId),
      'zookeeper.request.attempt': 1,
      'zookeeper.xid': expect.any(Number),
      'server.address': host,
      'server.port': port,
      // Length prefix + RequestHeader + GetDataRequest (path, watch flag).
      'zookeeper.request.size': 4 + 8 + 4 + bytes(path) + 1,
      // Length prefix + ReplyHeader + the data + a Stat (68 bytes).
      'zookeeper.response.size': 4 + 16 + 4 + 5 + 68,
    });
    expect(span.attributes['zookeeper.xid']).toBeGreaterThan(0);
    const metrics = await o.metrics();
    const duration = metrics.get('db.client.operation.duration');
    expect(points(duration).map((p) => p.attributes)).toEqual([{ ...ZK, 'db.operation.name': 'getData', 'server.address': host, 'server.port': port }]);
    const point = histogramAt(duration, { ...ZK, 'db.operation.name': 'getData', 'server.address': host, 'server.port': port });
    expect(point?.count).toBe(1);
    // The span's own duration bounds the metric's: the span starts before the metric's start is read and ends
    // after its end is read (the 1 µs is the span's rounding to whole ns).
    const spanSeconds = span.duration[0] + span.duration[1] / 1e9;
    expect(point?.sum).toBeGreaterThan(0);
    expect(point?.sum).toBeLessThanOrEqual(spanSeconds + 1e-6);
    expect(valueAt(metrics.get('zookeeper.client.active_requests'), { ...ZK, 'db.operation.name': 'getData' })).toBe(0);
  });

  it('a multi carries its sub-operations; a failed create is an ERROR span with error.type NODE_EXISTS', async () => {
    const zk = await clients.connect();
    await zk.create(`${root}/dup`);
    const o = instrument();
    await zk.multi([
      { op: 'create', path: `${root}/m` },
      { op: 'setData', path: `${root}/m`, data: 'x' },
      { op: 'check', path: `${root}/m`, version: 1 },
      { op: 'delete', path: `${root}/m` },
    ]);
    const failure = await zk.create(`${root}/dup`).catch((err: unknown) => err);
    expect(failure).toMatchObject({ code: 'NODE_EXISTS' });
    const spans = o.finished();
    expect(spans.map((s) => s.name)).toEqual(['multi', 'create']);
    const multi = onlySpan(spans, 'multi');
    expect(multi.attributes).toMatchObject({
      ...ZK,
      'db.operation.name': 'multi',
      'zookeeper.multi.ops': ['create', 'setData', 'check', 'delete'],
      'db.operation.batch.size': 4,
    });
    expect(multi.attributes['zookeeper.path']).toBeUndefined();
    expect(multi.status.code).toBe(SpanStatusCode.UNSET);
    const create = onlySpan(spans, 'create');
    expect(create.status).toEqual({ code: SpanStatusCode.ERROR, message: (failure as Error).message });
    expect(create.attributes).toMatchObject({ 'db.operation.name': 'create', 'zookeeper.path': `${root}/dup`, 'error.type': 'NODE_EXISTS' });
    const duration = (await o.metrics()).get('db.client.operation.duration');
    const server = { 'server.address': host, 'server.port': port };
    expect(histogramAt(duration, { ...ZK, 'db.operation.name': 'multi', ...server })?.count).toBe(1);
    expect(histogramAt(duration, { ...ZK, 'db.operation.name': 'create', ...server, 'error.type': 'NODE_EXISTS' })?.count).toBe(1);
    expect(points(duration)).toHaveLength(2);
  });

  it('through a chroot the span has the path the server sees', async () => {
    const setup = await clients.connect();
    await setup.mkdirp(`${root}/chroot/x`);
    const zk = await clients.connect(`${sharedServer()}${root}/chroot`);
    const o = instrument();
    await zk.exists('/x');
    expect(onlySpan(o.finished(), 'exists').attributes['zookeeper.path']).toBe(`${root}/chroot/x`);
  });

  it('a watch event is counted by type, with its delivery delay', async () => {
    const zk = await clients.connect();
    const path = `${root}/watched`;
    await zk.create(path, 'a');
    const o = instrument();
    const { watch } = await zk.getData(path, { watch: true });
    await zk.setData(path, 'b');
    expect((await watch).type).toBe('dataChanged');
    const metrics = await o.metrics();
    expect(points(metrics.get('zookeeper.client.watch.events'))).toEqual([{ attributes: { 'zookeeper.watch.event_type': 'dataChanged' }, value: 1 }]);
    const delay = histogramAt(metrics.get('zookeeper.client.watch.delivery_delay'), { 'zookeeper.watch.event_type': 'dataChanged' });
    expect(delay?.count).toBe(1);
    expect(delay?.sum).toBeGreaterThanOrEqual(0);
    expect(delay?.sum).toBeLessThan(1);
  });
});

describe('reconnect and expiry through a proxy', () => {
  let proxy: FaultProxy;
  beforeAll(async () => {
    proxy = await startFaultProxy(hostPort(sharedServer()));
  });
  beforeEach(() => proxy.restore());
  afterAll(async () => {
    await proxy.close();
  });
  const via = (): { 'server.address': string; 'server.port': number } => {
    const { host: h, port: p } = hostPort(proxy.connectString);
    return { 'server.address': h, 'server.port': p };
  };

  it('a cut connection: one reconnect (lost), the client back in connected, a request queued meanwhile answered', async () => {
    const o = instrument();
    const zk = await clients.connect(proxy.connectString, { reconnectDelay: { min: 30, max: 60 } });
    proxy.cut();
    await until(() => zk.state === 'suspended', 2000, 'suspended');
    const queued = zk.exists(root);
    await until(() => zk.state === 'connected', 10_000, 'connected again');
    await queued;
    const metrics = await o.metrics();
    expect(points(metrics.get('zookeeper.client.reconnects'))).toEqual([{ attributes: { 'zookeeper.reconnect.reason': 'lost' }, value: 1 }]);
    const states = points(metrics.get('zookeeper.client.state')).map((p) => [p.attributes['zookeeper.client.state'], p.value]);
    expect(Object.fromEntries(states)).toEqual({ connecting: 0, connected: 1, suspended: 0 });
    expect(points(metrics.get('zookeeper.client.connection.failures'))).toEqual([]);
    const exists = onlySpan(o.finished(), 'exists');
    expect(exists.status.code).toBe(SpanStatusCode.UNSET);
    expect(exists.attributes).toMatchObject({ ...via(), 'zookeeper.session.id': hex(zk.sessionId) });
  });

  it('an expiry with renewal: one expiration, one renewal, a reconnect for the new session; the request cut off fails', async () => {
    const zk = await clients.connect(proxy.connectString, { sessionTimeout: 2000, reconnectDelay: { min: 10, max: 20 } });
    const old = zk.sessionId;
    const o = instrument();
    proxy.blackhole();
    const lost = zk.getData(root).catch((err: unknown) => err);
    await until(() => zk.state === 'expired' || zk.sessionId !== old, 8000, 'the expiry');
    proxy.restore();
    await until(() => zk.state === 'connected' && zk.sessionId !== old, 15_000, 'the renewed session');
    await zk.getData(root);
    const metrics = await o.metrics();
    expect(valueAt(metrics.get('zookeeper.client.session.expirations'), {})).toBe(1);
    expect(valueAt(metrics.get('zookeeper.client.session.renewals'), {})).toBe(1);
    expect(valueAt(metrics.get('zookeeper.client.reconnects'), { 'zookeeper.reconnect.reason': 'expired' })).toBe(1);
    expect(valueAt(metrics.get('zookeeper.client.reconnects'), { 'zookeeper.reconnect.reason': 'lost' })).toBe(1);
    const [cutOff, after] = o.finished().filter((s) => s.name === 'getData');
    const failure = (await lost) as { code?: string; message: string };
    expect(failure.code).toBe('CONNECTION_LOSS');
    expect(cutOff?.status).toEqual({ code: SpanStatusCode.ERROR, message: failure.message });
    expect(cutOff?.attributes).toMatchObject({ 'error.type': failure.code, 'zookeeper.session.id': hex(old) });
    expect(after?.attributes).toMatchObject({ 'zookeeper.session.id': hex(zk.sessionId), ...via() });
    expect(after?.status.code).toBe(SpanStatusCode.UNSET);
    const duration = metrics.get('db.client.operation.duration');
    expect(histogramAt(duration, { ...ZK, 'db.operation.name': 'getData', ...via(), 'error.type': failure.code ?? '' })?.count).toBe(1);
  });
});
