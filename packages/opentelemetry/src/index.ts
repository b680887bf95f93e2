// @zkts/opentelemetry: OpenTelemetry spans, metrics and log correlation for zkts clients and recipes, from their
// diagnostics channels, through @opentelemetry/api alone (the application brings the SDK). Every name is listed on
// purpose; test/unit/exports.test.ts pins the list.
export {
  instrumentZkts,
  INSTRUMENTATION_NAME,
  INSTRUMENTATION_VERSION,
  type InstrumentZktsOptions,
  type ZktsInstrumentation,
} from './instrument.js';
export { correlateLogger } from './logs.js';
