// The request channel as the contract describes it, published here by hand (tracePromise, as the client does)
// with synthetic contexts: one CLIENT span per request with the database attributes, ended when the reply
// settles; failures (asynchronous and synchronous) with error.type and an ERROR status; the parent is the
// application's active context. The client's real publisher is tested against a server in test/integration.
import { tracingChannel } from 'node:diagnostics_channel';

import { SpanKind, SpanStatusCode, context, diag, trace, type DiagLogger } from '@opentelemetry/api';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { isChildOf, onlySpan, startOtel, useContextManager, type Otel } from '../support/otel.js';

const requests = tracingChannel('zkts:request');

/** A context as the client fills it: the xid, server and sizes once written, the reply length once answered. */
function requestContext(op: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { op, path: '/app/a', sessionId: 0x1234abcdn, xid: -1, server: undefined, bytesOut: 0, bytesIn: 0, attempt: 1, retried: false, ops: undefined, errorCode: undefined, ...extra };
}

function written(ctx: Record<string, unknown>): void {
  Object.assign(ctx, { xid: 7, server: '127.0.0.1:2181', bytesOut: 28, bytesIn: 0 });
}

let otel: Otel;
beforeAll(() => useContextManager());
beforeEach(() => {
  otel = startOtel();
});
afterEach(async () => {
  await otel.close();
});

describe('zkts:request', () => {
  it('is one CLIENT span named after the operation, with the database and zookeeper attributes', async () => {
    const ctx = requestContext('getData');
    await requests.tracePromise(async () => {
      written(ctx);
      await Promise.resolve();
      ctx['bytesIn'] = 120;
      return { data: 'x' };
    }, ctx);
    const span = onlySpan(otel.finished(), 'getData');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toEqual({
      'db.system.name': 'zookeeper',
      'db.operation.name': 'getData',
      'zookeeper.path': '/app/a',
      'zookeeper.session.id': '0x1234abcd',
      'zookeeper.request.attempt': 1,
      'zookeeper.xid': 7,
      'server.address': '127.0.0.1',
      'server.port': 2181,
      'zookeeper.request.size': 28,
      'zookeeper.response.size': 120,
    });
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.instrumentationScope).toMatchObject({ name: '@zkts/opentelemetry', version: '0.1.0' });
  });

  it('ends when the reply settles, not when the synchronous part returns', async () => {
    const ctx = requestContext('exists');
    let answer: () => void = () => undefined;
    const pending = requests.tracePromise(() => new Promise<void>((resolve) => (answer = resolve)), ctx);
    expect(otel.finished()).toEqual([]);
    answer();
    await pending;
    expect(otel.finished().map((s) => s.name)).toEqual(['exists']);
  });

  it('a failed request: error.type is the ZkError code and the status is ERROR with its message', async () => {
    const ctx = requestContext('create', { path: '/missing/child' });
    const failure = Object.assign(new Error('no node: /missing'), { code: 'NO_NODE' });
    await expect(
      requests.tracePromise(async () => {
        written(ctx);
        await Promise.resolve();
        ctx['errorCode'] = 'NO_NODE';
        throw failure;
      }, ctx),
    ).rejects.toBe(failure);
    const span = onlySpan(otel.finished(), 'create');
    expect(span.attributes['error.type']).toBe('NO_NODE');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no node: /missing' });
  });

  it('a call that throws before anything is sent ends its span at `end`', () => {
    const ctx = requestContext('setData');
    const failure = Object.assign(new Error('invalid path'), { code: 'INVALID_ARGUMENT' });
    expect(() =>
      requests.tracePromise(() => {
        throw failure;
      }, ctx),
    ).toThrow(failure);
    const span = onlySpan(otel.finished(), 'setData');
    expect(span.attributes['error.type']).toBe('INVALID_ARGUMENT');
    expect(span.attributes['zookeeper.xid']).toBeUndefined();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('a multi carries its sub-operations and the batch size', async () => {
    const ctx = requestContext('multi', { path: undefined, ops: ['create', 'setData', 'check'] });
    await requests.tracePromise(async () => written(ctx), ctx);
    const span = onlySpan(otel.finished(), 'multi');
    expect(span.attributes['zookeeper.multi.ops']).toEqual(['create', 'setData', 'check']);
    expect(span.attributes['db.operation.batch.size']).toBe(3);
    expect(span.attributes['zookeeper.path']).toBeUndefined();
  });

  it('a retried attempt says which it is; no session yet means no session id', async () => {
    const ctx = requestContext('getChildren', { sessionId: 0n, attempt: 2, retried: true });
    await requests.tracePromise(async () => undefined, ctx);
    const span = onlySpan(otel.finished(), 'getChildren');
    expect(span.attributes['zookeeper.request.attempt']).toBe(2);
    expect(span.attributes['zookeeper.session.id']).toBeUndefined();
  });

  it('an IPv6 server is split into address and port', async () => {
    const ctx = requestContext('sync');
    await requests.tracePromise(async () => Object.assign(ctx, { server: '[::1]:2182' }), ctx);
    expect(onlySpan(otel.finished(), 'sync').attributes).toMatchObject({ 'server.address': '::1', 'server.port': 2182 });
  });

  it("the parent is the application's active span at the call", async () => {
    const tracer = otel.tracerProvider.getTracer('app');
    await tracer.startActiveSpan('handle request', async (parent) => {
      await requests.tracePromise(async () => undefined, requestContext('getData'));
      parent.end();
    });
    const spans = otel.finished();
    expect(isChildOf(onlySpan(spans, 'getData'), onlySpan(spans, 'handle request'))).toBe(true);
  });

  it('two requests in flight at once are two spans with their own fields', async () => {
    const a = requestContext('getData', { path: '/a' });
    const b = requestContext('getData', { path: '/b' });
    await Promise.all([requests.tracePromise(async () => Object.assign(a, { xid: 1 }), a), requests.tracePromise(async () => Object.assign(b, { xid: 2 }), b)]);
    const byPath = new Map(otel.finished().map((s) => [s.attributes['zookeeper.path'], s.attributes['zookeeper.xid']]));
    expect(byPath).toEqual(new Map([['/a', 1], ['/b', 2]]));
  });
});

describe('a subscriber that fails never reaches the client', () => {
  it('a context whose fields throw is reported to diag, and the request goes on', async () => {
    const logger: DiagLogger = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn(), verbose: vi.fn() };
    diag.setLogger(logger);
    try {
      const hostile = {
        get op(): string {
          throw new Error('boom');
        },
      };
      await expect(requests.tracePromise(async () => 'ok', hostile)).resolves.toBe('ok');
      expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('zkts:request start'), expect.any(Error));
      expect(otel.finished()).toEqual([]);
    } finally {
      diag.disable();
    }
  });

  it('fields of another shape are read as absent', async () => {
    await requests.tracePromise(async () => undefined, { op: 5, path: 7, sessionId: 'x', xid: 'y', server: 3, attempt: 'z' });
    const span = onlySpan(otel.finished(), 'unknown');
    expect(span.attributes).toEqual({ 'db.system.name': 'zookeeper', 'db.operation.name': 'unknown', 'zookeeper.request.attempt': 1 });
  });
});

describe('disable()', () => {
  it('unsubscribes: no subscriber is left, so the client publishes nothing', async () => {
    expect(requests.hasSubscribers).toBe(true);
    otel.instrumentation.disable();
    expect(otel.instrumentation.enabled).toBe(false);
    expect(requests.hasSubscribers).toBe(false);
    await requests.tracePromise(async () => undefined, requestContext('getData'));
    expect(otel.finished()).toEqual([]);
    otel.instrumentation.disable();
  });

  it('Symbol.dispose disables', () => {
    {
      using instrumentation = otel.instrumentation;
      expect(instrumentation.enabled).toBe(true);
    }
    expect(otel.instrumentation.enabled).toBe(false);
  });

  it('the application context is untouched after a request', async () => {
    const before = context.active();
    await requests.tracePromise(async () => undefined, requestContext('getData'));
    expect(context.active()).toBe(before);
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});
