/**
 * `zkts:request` → one CLIENT span per request attempt, `db.client.operation.duration` and the active-requests
 * count (kept here and observed at collection, so a request costs one metric record, not three). The span starts at `start` under the current context (the application's, or a recipe's bound one) and
 * ends when the request settles: at `asyncEnd`, or at `end` when the call failed before going anywhere (Node's
 * tracePromise publishes `error` then `end`, and no async events, for a synchronous throw). Fields the client
 * fills in later (xid, server, sizes, a session id assigned after the call) are read when the span ends.
 */
import { performance } from 'node:perf_hooks';

import { SpanKind, SpanStatusCode, type Attributes, type Span, type Tracer } from '@opentelemetry/api';

import type { RequestMessage } from './channels.js';
import type { ContextStore } from './context-store.js';
import type { Instruments } from './instruments.js';
import { ATTR, DB_SYSTEM } from './names.js';
import type { TraceHandlers } from './subscribe.js';
import { errorMessage, errorType, id, num, setServer, text } from './values.js';

interface InFlight {
  readonly span: Span;
  readonly op: string;
  readonly started: number;
  /** An `error` seen before `end` is a synchronous failure: no async events follow, so `end` settles it. */
  failed: boolean;
}

/** Caches keyed by what repeats from request to request, so the hot path does not rebuild the same objects. */
const CACHE_LIMIT = 1024;

function cached<V>(cache: Map<string, V>, key: string, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    value = make();
    cache.set(key, value);
  }
  return value;
}

/** The handlers, and `close()`: the requests still open when the instrumentation is disabled count no more. */
export interface RequestSubscriber {
  readonly handlers: TraceHandlers<RequestMessage>;
  close(): void;
}

export function requestHandlers(tracer: Tracer, instruments: Instruments, store: ContextStore): RequestSubscriber {
  const inFlight = new WeakMap<object, InFlight>();
  const servers = new Map<string, Attributes>();
  // The duration point's attributes per operation, server and outcome: one object each, reused.
  const points = new Map<string, Attributes>();

  const metricAttributes = (op: string, server: string | undefined, type: string | undefined): Attributes =>
    cached(points, `${op}\u0000${server ?? ''}\u0000${type ?? ''}`, () => {
      const attributes: Attributes = { [ATTR.dbSystem]: DB_SYSTEM, [ATTR.dbOperation]: op };
      if (server !== undefined) Object.assign(attributes, serverAttributes(server));
      if (type !== undefined) attributes[ATTR.errorType] = type;
      return attributes;
    });
  const serverAttributes = (server: string): Attributes =>
    cached(servers, server, () => {
      const attributes: Attributes = {};
      setServer(attributes, server);
      return attributes;
    });

  const finish = (message: RequestMessage, request: InFlight): void => {
    inFlight.delete(message);
    instruments.requestsEnded(request.op);
    const { span } = request;
    const server = text(message.server);
    const late: Attributes = server === undefined || server === '' ? {} : { ...serverAttributes(server) };
    const xid = num(message.xid);
    if (xid !== undefined && xid >= 0) late[ATTR.xid] = xid;
    const session = id(message.sessionId);
    if (session !== undefined) late[ATTR.sessionId] = session;
    const out = num(message.bytesOut);
    if (out !== undefined && out > 0) late[ATTR.requestSize] = out;
    const back = num(message.bytesIn);
    if (back !== undefined && back > 0) late[ATTR.responseSize] = back;
    let type: string | undefined;
    if (request.failed || message.errorCode !== undefined) {
      type = errorType(message.errorCode, message.error);
      late[ATTR.errorType] = type;
      const description = errorMessage(message.error);
      span.setStatus(description === undefined ? { code: SpanStatusCode.ERROR } : { code: SpanStatusCode.ERROR, message: description });
    }
    span.setAttributes(late);
    span.end();
    instruments.operationDuration.record((performance.now() - request.started) / 1000, metricAttributes(request.op, server || undefined, type));
  };

  const handlers: TraceHandlers<RequestMessage> = {
    start(message) {
      const op = text(message.op) ?? 'unknown';
      const attributes: Attributes = { [ATTR.dbSystem]: DB_SYSTEM, [ATTR.dbOperation]: op };
      const path = text(message.path);
      if (path !== undefined) attributes[ATTR.path] = path;
      const session = id(message.sessionId);
      if (session !== undefined) attributes[ATTR.sessionId] = session;
      attributes[ATTR.attempt] = num(message.attempt) ?? 1;
      const ops = message.ops;
      if (Array.isArray(ops)) {
        attributes[ATTR.multiOps] = ops.filter((o): o is string => typeof o === 'string');
        if (ops.length >= 2) attributes[ATTR.dbBatchSize] = ops.length;
      }
      const span = tracer.startSpan(op, { kind: SpanKind.CLIENT, attributes }, store.current());
      instruments.requestStarted(op);
      inFlight.set(message, { span, op, started: performance.now(), failed: false });
    },
    end(message) {
      const request = inFlight.get(message);
      if (request?.failed === true) finish(message, request);
    },
    error(message) {
      const request = inFlight.get(message);
      if (request !== undefined) request.failed = true;
    },
    asyncEnd(message) {
      const request = inFlight.get(message);
      if (request !== undefined) finish(message, request);
    },
  };
  return {
    handlers,
    close() {
      instruments.close();
    },
  };
}
