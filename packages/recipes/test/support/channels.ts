// Recording the recipes' tracing channels in tests: every event of a channel, with a copy of its context as it
// was at that event (the context is one object that the recipe updates as it goes), grouped into traces by
// context identity, so concurrent traces can be checked one by one.
import { tracingChannel } from 'node:diagnostics_channel';
import { afterEach } from 'vitest';

export type TraceEvent = 'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error';

const EVENTS: readonly TraceEvent[] = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'];

export interface Seen {
  readonly event: TraceEvent;
  /** Position among all the events every recording saw (across channels), for ordering checks. */
  readonly seq: number;
  /** The context's own fields at this event (`result` left out: it is whatever the traced call resolved). */
  readonly at: Record<string, unknown>;
}

/** One trace: its context object and the events it went through, in order. */
export interface Trace<C extends object> {
  readonly context: C;
  readonly seen: Seen[];
}

export interface Recording<C extends object> {
  /** Every trace begun while recording, in the order of their start events. */
  readonly traces: Trace<C>[];
  stop(): void;
}

const stops: (() => void)[] = [];
let seq = 0;
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** Records the tracing channel `name`, keeping the traces `keep` accepts (at their start). Stopped after the test. */
export function record<C extends object>(name: string, keep: (context: C) => boolean = () => true): Recording<C> {
  const channel = tracingChannel<unknown, C>(name);
  const byContext = new Map<object, Trace<C>>();
  const traces: Trace<C>[] = [];
  const handlers = Object.fromEntries(EVENTS.map((event) => [event, (message: unknown): void => {
    const context = message as C;
    let trace = byContext.get(context);
    if (trace === undefined) {
      if (event !== 'start' || !keep(context)) return;
      trace = { context, seen: [] };
      byContext.set(context, trace);
      traces.push(trace);
    }
    const { result: _result, ...at } = context as Record<string, unknown>;
    trace.seen.push({ event, seq: seq++, at });
  }])) as Record<TraceEvent, (message: unknown) => void>;
  channel.subscribe(handlers);
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    channel.unsubscribe(handlers);
  };
  stops.push(stop);
  return { traces, stop };
}

/** The event names of a trace, in order. */
export function eventsOf(trace: Trace<object> | undefined): TraceEvent[] {
  return trace === undefined ? [] : trace.seen.map((s) => s.event);
}

/** The context's fields at the trace's `event` (the first one of that name). */
export function at(trace: Trace<object> | undefined, event: TraceEvent): Record<string, unknown> | undefined {
  return trace?.seen.find((s) => s.event === event)?.at;
}

/** A trace that succeeded: start and end around the call, then asyncStart and asyncEnd when it settled. */
export const SETTLED: readonly TraceEvent[] = ['start', 'end', 'asyncStart', 'asyncEnd'];
/** A trace that failed after its synchronous part. */
export const FAILED: readonly TraceEvent[] = ['start', 'end', 'error', 'asyncStart', 'asyncEnd'];

/** The sequence number of a trace's `event` (its first), for ordering checks across traces and channels. */
export function seqOf(trace: Trace<object> | undefined, event: TraceEvent): number {
  const found = trace?.seen.find((s) => s.event === event);
  if (found === undefined) throw new Error(`no ${event} event in the trace`);
  return found.seq;
}
