/**
 * ZooKeeper servers for tests: {@link startZooKeeper} starts a real one (a local JVM, or a container), or
 * `@zkts/server` in the test's process; {@link startEnsemble} starts several; {@link startFaultProxy} cuts and
 * delays a connection; {@link ManualClock} drives time by hand.
 *
 * @packageDocumentation
 */
export { startEnsemble, startZooKeeper } from './start.js';
export { ManualClock } from './manual-clock.js';
export { LocalZooKeeperServer } from './local-server.js';
export { ZooKeeperNotInstalledError, ServerStartError, UnsupportedOptionError } from './errors.js';
export { EmbeddedZooKeeperServer } from './embedded.js';
export { fourLetter, modeOf, parseMntr } from './four-letter.js';
export { digestCredential } from './digest.js';
export { freePort, freePorts } from './ports.js';
export { probeJavaRuntime, javaRuntime } from './java.js';
export { listTaggedProcesses, reapOrphans, TAG_PROPERTY, RUN_PROPERTY, RUN_ENV } from './processes.js';
export type { Backend, EmbeddedClock, LogLevel, SaslServerOptions, ServerOptions, TlsMaterial, ZooKeeperServer } from './options.js';
export { startKdc, kdcUnavailableReason } from './kdc.js';
export type { Kdc, KdcOptions } from './kdc.js';
export { renderClientJaas, renderServerJaas } from './auth-config.js';
export { issueClientCertificate } from './tls.js';
export type { FourLetterTarget } from './four-letter.js';
export type { JavaRuntime } from './java.js';
export type { TaggedProcess } from './processes.js';
export type { Ensemble, EnsembleOptions } from './ensemble.js';
export { startFaultProxy } from './fault-proxy.js';
export type { FaultProxy } from './fault-proxy.js';
export { FrameCutter } from './frames.js';
export { ContainerZooKeeperServer } from './container.js';
export type { ContainerEnsemble } from './container-ensemble.js';
export {
  dockerUnavailableReason,
  IMAGE_ENV,
  listTaggedContainers,
  LOCAL_ZOOKEEPER_IMAGE,
  reapContainers,
  ZOOKEEPER_IMAGE,
} from './container-runtime.js';
export type { TaggedContainer } from './container-runtime.js';
export { partitionsUnavailableReason } from './container-faults.js';
export { BACKEND_ENV, resolveBackend } from './start.js';
export { InvalidOptionError } from './errors.js';
export { UNKNOWN_OPTION_WARNING } from './option-keys.js';
