/**
 * `instrumentZkts()`: the package's one switch. It takes the tracer and meter (from the given providers, or the
 * global ones), subscribes to every zkts channel and returns the handle that unsubscribes. Nothing is published
 * by the clients before this runs (they check for subscribers first), and nothing is left listening after
 * `disable()`.
 */
import { metrics, trace, type MeterProvider, type TracerProvider } from '@opentelemetry/api';
import { InvalidArgumentError, checkOptionKeys, describeValue } from '@zkts/protocol';

import { TRACING } from './channels.js';
import { subscribeClientEvents } from './client-events.js';
import { ContextStore } from './context-store.js';
import { createInstruments } from './instruments.js';
import { subscribeRecipes } from './recipes.js';
import { requestHandlers } from './requests.js';
import { onTracing, type Undo } from './subscribe.js';

/** The instrumentation scope spans and metrics are reported under. */
export const INSTRUMENTATION_NAME = '@zkts/opentelemetry';
/** This package's version, reported as the instrumentation scope's version. */
export const INSTRUMENTATION_VERSION = '0.1.0';

/** Options of {@link instrumentZkts}. */
export interface InstrumentZktsOptions {
  /** Where spans go; OpenTelemetry's global tracer provider (`trace.getTracerProvider()`) when absent. */
  tracerProvider?: TracerProvider;
  /** Where metrics go; OpenTelemetry's global meter provider (`metrics.getMeterProvider()`) when absent. */
  meterProvider?: MeterProvider;
}

/** The handle {@link instrumentZkts} returns: `disable()` (or `using`) unsubscribes from every channel. */
export interface ZktsInstrumentation extends Disposable {
  /** False once disabled. */
  readonly enabled: boolean;
  /**
   * Stops listening: no new spans or metric points; the active-requests and client-state counts drop to zero.
   * Spans still open then are never ended, so never exported.
   */
  disable(): void;
  /** The same as `disable()`, for `using instrumentation = instrumentZkts()`. */
  [Symbol.dispose](): void;
}

const KEYS = ['tracerProvider', 'meterProvider'] as const;

function checkProvider(value: unknown, name: string, method: string): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || typeof (value as Record<string, unknown>)[method] !== 'function') {
    throw new InvalidArgumentError(name, `must be an OpenTelemetry ${name === 'tracerProvider' ? 'TracerProvider' : 'MeterProvider'} (an object with ${method}()), got ${describeValue(value)}`);
  }
}

class Instrumentation implements ZktsInstrumentation {
  #undo: Undo | undefined;

  constructor(undo: Undo) {
    this.#undo = undo;
  }

  get enabled(): boolean {
    return this.#undo !== undefined;
  }

  disable(): void {
    const undo = this.#undo;
    this.#undo = undefined;
    undo?.();
  }

  [Symbol.dispose](): void {
    this.disable();
  }
}

/**
 * Turns every zkts client's and recipe's diagnostics channel events in this process into OpenTelemetry spans and
 * metrics: a CLIENT span per request, spans for lock waits and holds, election terms, cache resyncs and queue
 * puts and takes (a recipe's requests are children of its span), and the metrics of the README's table. Call it
 * once at start-up, after the SDK is set up; two calls make two independent instrumentations (say, one per
 * provider).
 *
 * @throws InvalidArgumentError when an option is not what it should be (checked before anything subscribes).
 */
export function instrumentZkts(options?: InstrumentZktsOptions): ZktsInstrumentation {
  checkOptionKeys(options, KEYS, 'instrumentZkts');
  checkProvider(options?.tracerProvider, 'tracerProvider', 'getTracer');
  checkProvider(options?.meterProvider, 'meterProvider', 'getMeter');
  const tracer = (options?.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION);
  const meter = (options?.meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION);
  const instruments = createInstruments(meter);
  const store = new ContextStore();
  store.open();
  const requests = requestHandlers(tracer, instruments, store);
  const undo = [
    onTracing(TRACING.request, requests.handlers),
    subscribeRecipes(tracer, instruments, store),
    subscribeClientEvents(instruments),
  ];
  return new Instrumentation(() => {
    for (const u of undo) u();
    requests.close();
    store.close();
  });
}
