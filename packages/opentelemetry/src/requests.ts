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

/** At most this many entries per cache (servers, attribute sets): a client talks to a handful of servers. */
const CACHE_LIMIT = 256;

function remember<K, V>(cache: Map<K, V>, key: K, value: V): V {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}

/** The handlers, and `close()`: the requests still open when the instrumentation is disabled count no more. */
export interface RequestSubscriber {
  readonly handlers: TraceHandlers<RequestMessage>;
  close(): void;
}

export function requestHandlers(tracer: Tracer, instruments: Instruments, store: ContextStore): RequestSubscriber {
  const inFlight = new WeakMap<object, InFlight>();
  // What repeats from request to request is built once: a server's address and port, and the duration point's
  // attributes per operation, server and outcome (a Map per operation, keyed by server, then by error type).
  const servers = new Map<string, { readonly address: string; readonly port: number | undefined }>();
  const points = new Map<string, Map<string, Map<string, Attributes>>>();

  const serverOf = (server: string): { readonly address: string; readonly port: number | undefined } => {
    const known = servers.get(server);
    if (known !== undefined) return known;
    const split: Attributes = {};
    setServer(split, server);
    return remember(servers, server, { address: String(split[ATTR.serverAddress]), port: split[ATTR.serverPort] as number | undefined });
  };
  const pointAttributes = (op: string, server: string, type: string): Attributes => {
    const byServer = points.get(op) ?? remember(points, op, new Map<string, Map<string, Attributes>>());
    const byType = byServer.get(server) ?? remember(byServer, server, new Map<string, Attributes>());
    const known = byType.get(type);
    if (known !== undefined) return known;
    const attributes: Attributes = { [ATTR.dbSystem]: DB_SYSTEM, [ATTR.dbOperation]: op };
    if (server !== '') {
      const { address, port } = serverOf(server);
      attributes[ATTR.serverAddress] = address;
      if (port !== undefined) attributes[ATTR.serverPort] = port;
    }
    if (type !== '') attributes[ATTR.errorType] = type;
    return remember(byType, type, attributes);
  };

  // Attributes known only now are set one by one: no object is built for them.
  const finish = (message: RequestMessage, request: InFlight): void => {
    inFlight.delete(message);
    instruments.requestsEnded(request.op);
    const { span } = request;
    const server = typeof message.server === 'string' ? message.server : '';
    if (server !== '') {
      const { address, port } = serverOf(server);
      span.setAttribute(ATTR.serverAddress, address);
      if (port !== undefined) span.setAttribute(ATTR.serverPort, port);
    }
    const xid = num(message.xid);
    if (xid !== undefined && xid >= 0) span.setAttribute(ATTR.xid, xid);
    const session = id(message.sessionId);
    if (session !== undefined) span.setAttribute(ATTR.sessionId, session);
    const out = num(message.bytesOut);
    if (out !== undefined && out > 0) span.setAttribute(ATTR.requestSize, out);
    const back = num(message.bytesIn);
    if (back !== undefined && back > 0) span.setAttribute(ATTR.responseSize, back);
    let type = '';
    if (request.failed || message.errorCode !== undefined) {
      type = errorType(message.errorCode, message.error);
      span.setAttribute(ATTR.errorType, type);
      const description = errorMessage(message.error);
      span.setStatus(description === undefined ? { code: SpanStatusCode.ERROR } : { code: SpanStatusCode.ERROR, message: description });
    }
    // The duration is read before the span ends: ending it runs the span processors (an exporter may work
    // synchronously), which is not the operation's time. The metric's interval then lies inside the span's.
    const seconds = (performance.now() - request.started) / 1000;
    span.end();
    instruments.operationDuration.record(seconds, pointAttributes(request.op, server, type));
  };

  const handlers: TraceHandlers<RequestMessage> = {
    start(message) {
      const op = text(message.op) ?? 'unknown';
      // Literal keys (the values of ATTR): V8 builds this object from a template instead of key by key.
      const attributes: Attributes = { 'db.system.name': DB_SYSTEM, 'db.operation.name': op, 'zookeeper.request.attempt': num(message.attempt) ?? 1 };
      const path = text(message.path);
      if (path !== undefined) attributes[ATTR.path] = path;
      const session = id(message.sessionId);
      if (session !== undefined) attributes[ATTR.sessionId] = session;
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
