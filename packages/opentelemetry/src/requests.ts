/**
 * `zkts:request` → one CLIENT span per request attempt, `db.client.operation.duration` and the active-requests
 * count. The span starts at `start` under the current context (the application's, or a recipe's bound one) and
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
  /** The attributes the active-requests count was raised with: lowered with the same ones. */
  readonly active: Attributes;
  /** An `error` seen before `end` is a synchronous failure: no async events follow, so `end` settles it. */
  failed: boolean;
}

/** The handlers, and `close()`: lowers the active-requests count by what is still open when disabled. */
export interface RequestSubscriber {
  readonly handlers: TraceHandlers<RequestMessage>;
  close(): void;
}

export function requestHandlers(tracer: Tracer, instruments: Instruments, store: ContextStore): RequestSubscriber {
  const inFlight = new WeakMap<object, InFlight>();
  // Open requests per operation: the count has to come back down when the instrumentation stops listening.
  const open = new Map<string, number>();

  const finish = (message: RequestMessage, request: InFlight): void => {
    inFlight.delete(message);
    const { span } = request;
    const metric: Attributes = { ...request.active };
    const late: Attributes = {};
    setServer(late, message.server);
    if (late[ATTR.serverAddress] !== undefined) metric[ATTR.serverAddress] = late[ATTR.serverAddress];
    if (late[ATTR.serverPort] !== undefined) metric[ATTR.serverPort] = late[ATTR.serverPort];
    const xid = num(message.xid);
    if (xid !== undefined && xid >= 0) late[ATTR.xid] = xid;
    const session = id(message.sessionId);
    if (session !== undefined) late[ATTR.sessionId] = session;
    const out = num(message.bytesOut);
    if (out !== undefined && out > 0) late[ATTR.requestSize] = out;
    const back = num(message.bytesIn);
    if (back !== undefined && back > 0) late[ATTR.responseSize] = back;
    if (request.failed || message.errorCode !== undefined) {
      const type = errorType(message.errorCode, message.error);
      late[ATTR.errorType] = type;
      metric[ATTR.errorType] = type;
      const description = errorMessage(message.error);
      span.setStatus(description === undefined ? { code: SpanStatusCode.ERROR } : { code: SpanStatusCode.ERROR, message: description });
    }
    span.setAttributes(late);
    span.end();
    instruments.operationDuration.record((performance.now() - request.started) / 1000, metric);
    instruments.activeRequests.add(-1, request.active);
    open.set(request.op, (open.get(request.op) ?? 1) - 1);
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
      const active: Attributes = { [ATTR.dbSystem]: DB_SYSTEM, [ATTR.dbOperation]: op };
      instruments.activeRequests.add(1, active);
      open.set(op, (open.get(op) ?? 0) + 1);
      inFlight.set(message, { span, op, started: performance.now(), active, failed: false });
    },
    end(message) {
      const request = inFlight.get(message);
      if (request === undefined) return;
      if (request.failed) finish(message, request);
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
      for (const [op, count] of open) if (count > 0) instruments.activeRequests.add(-count, { [ATTR.dbSystem]: DB_SYSTEM, [ATTR.dbOperation]: op });
      open.clear();
    },
  };
}
