/**
 * Recording what the client publishes and logs, for the observability tests: every message of every client
 * channel (the zkts:request tracing events and the plain channels), every line a logger is given, and a
 * deep text dump of all of it so a test can grep for a secret anywhere (strings, bytes, error messages,
 * causes, stacks).
 */
import { channel } from 'node:diagnostics_channel';
import { ChannelNames, type Logger, type RequestTrace } from '@zkts/protocol';

export interface Published {
  /** 'zkts:state', …, or 'tracing:zkts:request:start' and the other tracing events. */
  name: string;
  message: Record<string, unknown>;
  /** A shallow copy as published (trace contexts change after their start). */
  seen: Record<string, unknown>;
}

const TRACING_EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;

/** Subscribes to every client channel until `stop()`. */
export function observeChannels(): { published: Published[]; stop(): void; traces(filter?: (t: RequestTrace) => boolean): RequestTrace[]; of(name: string): Record<string, unknown>[] } {
  const published: Published[] = [];
  const names = [
    ...TRACING_EVENTS.map((e) => `tracing:${ChannelNames.request}:${e}`),
    ChannelNames.state,
    ChannelNames.connection,
    ChannelNames.session,
    ChannelNames.auth,
    ChannelNames.event,
  ];
  const handlers = names.map((name) => {
    const fn = (m: unknown): void => void published.push({ name, message: m as Record<string, unknown>, seen: { ...(m as Record<string, unknown>) } });
    channel(name).subscribe(fn);
    return { name, fn };
  });
  return {
    published,
    stop: () => {
      for (const { name, fn } of handlers) channel(name).unsubscribe(fn);
    },
    /** The contexts of finished traces (asyncEnd), in order. */
    traces: (filter = () => true) =>
      published.filter((p) => p.name === `tracing:${ChannelNames.request}:asyncEnd`).map((p) => p.message as unknown as RequestTrace).filter(filter),
    of: (name) => published.filter((p) => p.name === name).map((p) => p.message),
  };
}

export type LogLine = [level: string, message: string, details: Record<string, unknown> | undefined];

export function recordingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: string) => (message: string, details?: Record<string, unknown>) => void lines.push([level, message, details]);
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

/**
 * Every string reachable from `value`, one per line: object and array members, Map/Set entries, bytes as
 * latin1 and UTF-8 text, and an Error's own properties (message, stack, cause, code…), enumerable or not.
 */
export function everyText(value: unknown): string {
  const out: string[] = [];
  const seen = new Set<object>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean') out.push(String(v));
    else if (v instanceof Uint8Array) out.push(Buffer.from(v).toString('latin1'), Buffer.from(v).toString('utf8'));
    else if (typeof v === 'object' && v !== null && !seen.has(v)) {
      seen.add(v);
      if (v instanceof Map) {
        for (const [k, x] of v) {
          walk(k);
          walk(x);
        }
      } else if (v instanceof Set) for (const x of v) walk(x);
      else for (const key of Object.getOwnPropertyNames(v)) walk((v as Record<string, unknown>)[key]);
    }
  };
  walk(value);
  return out.join('\n');
}
