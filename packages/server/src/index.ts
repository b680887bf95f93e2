/**
 * A ZooKeeper 3.8 standalone server in TypeScript that speaks the real wire protocol, in memory or on
 * ZooKeeper's own data files: {@link startServer} runs one in your process, for development, tests and demos
 * without Java (no quorum, no replication).
 *
 * @packageDocumentation
 */
export { startServer, type ZkServer } from './server.js';
export { DEFAULT_MAX_BUFFER, silentLogger, systemClock, type Clock, type ClockTimer, type Logger, type ServerOptions, type TlsOptions } from './options.js';
