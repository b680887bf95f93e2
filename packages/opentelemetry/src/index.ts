/**
 * OpenTelemetry for zkts: {@link instrumentZkts} turns the client's and the recipes' diagnostics channels into
 * spans (a CLIENT span per request; lock waits and holds, election terms, cache loads, queue puts and takes) and
 * metrics, through `@opentelemetry/api` alone; {@link correlateLogger} adds trace ids to log lines.
 *
 * @packageDocumentation
 */
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
