/**
 * @zkts/server: an in-process, in-memory ZooKeeper 3.8 standalone server that speaks the real wire protocol.
 * `startServer(options)` resolves with `{ connectString, port, close() }`.
 */
export { startServer, type ZkServer } from './server.js';
export { DEFAULT_MAX_BUFFER, silentLogger, systemClock, type Clock, type ClockTimer, type Logger, type ServerOptions } from './options.js';
