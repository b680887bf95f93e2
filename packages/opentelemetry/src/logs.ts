/**
 * Log correlation: a logger wrapped so each line carries the trace it was written in (`trace_id`, `span_id`,
 * `trace_flags`, the field names OpenTelemetry's pino, winston and bunyan instrumentations use). It takes the
 * shape of the client's `logger` option (console or pino methods), so the wrapped logger can be handed to
 * `createClient` and to the application alike. The fields go into the call's first plain object (the client's
 * `details`, pino's merging object) or, when there is none, a new last argument.
 */
import { isSpanContextValid, trace } from '@opentelemetry/api';
import { InvalidArgumentError, describeValue, type Logger } from '@zkts/protocol';

import { currentContext } from './context-store.js';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
type Level = (typeof LEVELS)[number];
type LogMethod = (...args: unknown[]) => unknown;

/** The trace fields of the current span, or undefined outside any (valid) span. */
function traceFields(): Record<string, string> | undefined {
  const span = trace.getSpan(currentContext());
  if (span === undefined) return undefined;
  const ctx = span.spanContext();
  if (!isSpanContextValid(ctx)) return undefined;
  return { trace_id: ctx.traceId, span_id: ctx.spanId, trace_flags: `0${ctx.traceFlags.toString(16)}`.slice(-2) };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function withTrace(args: unknown[], fields: Record<string, string>): unknown[] {
  const at = args.findIndex(isPlainObject);
  if (at < 0) return [...args, fields];
  const out = [...args];
  out[at] = { ...(args[at] as Record<string, unknown>), ...fields };
  return out;
}

/**
 * Wraps `logger` (an object with some of `debug`, `info`, `warn`, `error`) so every line written inside a span
 * carries `trace_id`, `span_id` and `trace_flags`; outside a span the call passes through unchanged. The result
 * has the logger's own methods of those four (and their types), nothing else. The current
 * span is the application's active one, or inside a recipe's work (a lock wait) the recipe's span. Methods are
 * called on `logger` itself, so pino's and console's work as they are.
 *
 * ```ts
 * const zk = await connect(servers, { logger: correlateLogger(console) });
 * ```
 */
export function correlateLogger<L extends Logger>(logger: L): Pick<L, Extract<keyof L, 'debug' | 'info' | 'warn' | 'error'>> {
  if (typeof logger !== 'object' || logger === null || Array.isArray(logger)) throw new InvalidArgumentError('logger', `correlateLogger needs a logger object, got ${describeValue(logger)}`);
  const target = logger as Record<Level, unknown>;
  const wrapped: Record<string, LogMethod> = {};
  for (const level of LEVELS) {
    const method = target[level];
    if (method === undefined) continue;
    if (typeof method !== 'function') throw new InvalidArgumentError(`logger.${level}`, `must be a function, got ${describeValue(method)}`);
    wrapped[level] = (...args: unknown[]): unknown => {
      const fields = traceFields();
      return (method as LogMethod).apply(logger, fields === undefined ? args : withTrace(args, fields));
    };
  }
  return wrapped as Pick<L, Extract<keyof L, Level>>;
}
