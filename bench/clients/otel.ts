// The OpenTelemetry set-up the bench measures the instrumentation with: the real SDK as a service runs it (the
// async-hooks context manager, a batch span processor, a periodic metric reader), exporting nowhere, so the
// figure is what @zkts/opentelemetry and the SDK cost the client's process, not an exporter's I/O.
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';
import { instrumentZkts } from '@zkts/opentelemetry';

const SUCCESS = 0;
const spans: SpanExporter = { export: (_batch, done) => done({ code: SUCCESS }), shutdown: async () => undefined };
const points: PushMetricExporter = { export: (_metrics, done) => done({ code: SUCCESS }), forceFlush: async () => undefined, shutdown: async () => undefined };

/**
 * Instruments every zkts client in the process until the returned function is called (and awaited). With
 * `sdk: false` the instrumentation reports to the API's no-op providers (no SDK registered), which isolates what
 * the package's own subscribers cost.
 */
export function withOpenTelemetry(options: { sdk?: boolean } = {}): () => Promise<void> {
  if (options.sdk === false) {
    const instrumentation = instrumentZkts();
    return async () => instrumentation.disable();
  }
  // Registered for this client's rounds only: once its AsyncLocalStorage is entered (the batch processor does),
  // Node's promise hooks cost every promise in the process, and the rounds without the package must not pay it.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const tracerProvider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: spans })] });
  const meterProvider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: points, exportIntervalMillis: 10_000 })] });
  const instrumentation = instrumentZkts({ tracerProvider, meterProvider });
  return async () => {
    instrumentation.disable();
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    context.disable();
  };
}
