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

let registered = false;

/** Instruments every zkts client in the process until the returned function is called (and awaited). */
export function withOpenTelemetry(): () => Promise<void> {
  if (!registered) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    registered = true;
  }
  const tracerProvider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: spans })] });
  const meterProvider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: points, exportIntervalMillis: 10_000 })] });
  const instrumentation = instrumentZkts({ tracerProvider, meterProvider });
  return async () => {
    instrumentation.disable();
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
  };
}
