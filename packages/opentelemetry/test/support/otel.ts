/**
 * The OpenTelemetry SDK as the tests use it: a tracer provider writing to an in-memory span exporter, a meter
 * provider with a reader the test collects on demand, the async-hooks context manager, and small readers for
 * what came out (spans by name, a metric's data points by attributes).
 */
import { context, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { DataPointType, MeterProvider, MetricReader, type DataPoint, type Histogram, type MetricData } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace';

import { instrumentZkts, type ZktsInstrumentation } from '../../src/index.js';

/** A reader that exports nothing by itself: the test calls `collect()`. */
class CollectingReader extends MetricReader {
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }

  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

export interface Otel {
  readonly spans: InMemorySpanExporter;
  readonly tracerProvider: TracerProvider;
  readonly meterProvider: MeterProvider;
  readonly instrumentation: ZktsInstrumentation;
  /** Finished spans, in the order they ended. */
  finished(): ReadableSpan[];
  /** The metrics collected now, by name. */
  metrics(): Promise<Map<string, MetricData>>;
  /** Disables the instrumentation and shuts both providers down. */
  close(): Promise<void>;
}

let contextManager: AsyncLocalStorageContextManager | undefined;

/** Registers the async-hooks context manager as OpenTelemetry's global one (once per test file). */
export function useContextManager(): void {
  if (contextManager !== undefined) return;
  contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
}

/** `spanProcessors`: more processors, run before the one that keeps the finished spans. */
export function startOtel(options: { spanProcessors?: SpanProcessor[] } = {}): Otel {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [...(options.spanProcessors ?? []), new SimpleSpanProcessor({ exporter: spans })] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const instrumentation = instrumentZkts({ tracerProvider, meterProvider });
  return {
    spans,
    tracerProvider,
    meterProvider,
    instrumentation,
    finished: () => spans.getFinishedSpans(),
    async metrics() {
      const { resourceMetrics } = await reader.collect();
      const out = new Map<string, MetricData>();
      for (const scope of resourceMetrics.scopeMetrics) for (const metric of scope.metrics) out.set(metric.descriptor.name, metric);
      return out;
    },
    async close() {
      instrumentation.disable();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** The one finished span named `name` (fails when there are none or several). */
export function onlySpan(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((s) => s.name === name);
  if (found.length !== 1) throw new Error(`expected one span '${name}', found ${found.length} (${spans.map((s) => s.name).join(', ')})`);
  return found[0] as ReadableSpan;
}

/** Whether `child`'s parent is `parent`. */
export function isChildOf(child: ReadableSpan, parent: ReadableSpan): boolean {
  return child.parentSpanContext?.spanId === parent.spanContext().spanId && child.spanContext().traceId === parent.spanContext().traceId;
}

/** A metric's data points as { attributes, value } (a histogram's value is its count, sum and buckets). */
export function points(metric: MetricData | undefined): { attributes: Attributes; value: number | Histogram }[] {
  if (metric === undefined) return [];
  return (metric.dataPoints as DataPoint<number | Histogram>[]).map((p) => ({ attributes: p.attributes, value: p.value }));
}

/** The sum/gauge value for exactly these attributes, or undefined when there is no such point. */
export function valueAt(metric: MetricData | undefined, attributes: Attributes): number | undefined {
  const point = points(metric).find((p) => sameAttributes(p.attributes, attributes));
  return typeof point?.value === 'number' ? point.value : undefined;
}

/** The histogram point for exactly these attributes, or undefined. */
export function histogramAt(metric: MetricData | undefined, attributes: Attributes): Histogram | undefined {
  if (metric === undefined || metric.dataPointType !== DataPointType.HISTOGRAM) return undefined;
  const point = points(metric).find((p) => sameAttributes(p.attributes, attributes));
  return typeof point?.value === 'object' ? point.value : undefined;
}

export function sameAttributes(a: Attributes, b: Attributes): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && JSON.stringify(a[k]) === JSON.stringify(b[k]));
}
