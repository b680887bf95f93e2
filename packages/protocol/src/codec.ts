/**
 * `@zkts/protocol/codec`: ZooKeeper's wire format without a session, for proxies, servers, fakes and tools: the
 * Jute reader and writer, a read and write function for every ZooKeeper 3.8 record, the protocol tables, framing,
 * and ZooKeeper's transaction log and snapshot files ({@link readTxnLog}, {@link readSnapshot}).
 *
 * @packageDocumentation
 * @module @zkts/protocol/codec
 */
// @zkts/protocol/codec: the wire format without a session. Jute primitives (JuteReader/JuteWriter), a readX and
// writeX pair for every ZooKeeper 3.8 record, the protocol tables (OpCode, CreateFlags, EventType, Xid…), the
// per-opcode codec table, multi and length-prefix framing. For proxies, servers, fakes and tools; the client
// entry ('@zkts/protocol') exports none of it. Errors the codec throws (ProtocolError, InvalidArgumentError) are
// the client entry's classes.
export { JuteReader, JuteWriter, DEFAULT_MAX_PACKET, type StringEncoding } from './codec/jute/index.js';
export * from './codec/records/index.js';
export * from './codec/frame.js';
export * from './codec/multi.js';
export * from './codec/ops.js';
// Reply headers and multi results carry KeeperException numbers.
export { KeeperCode, serverCodeName, serverCodeMessage, type KeeperCodeName } from './errors/codes.js';
// A reply's code as the error class the client would reject with (SessionExpiredError for -112…).
export { errorFromKeeperCode } from './errors/errors.js';
// ZooKeeper's on-disk formats (transaction logs, snapshots, the txn records) and their damage errors.
export * from './codec/persistence/index.js';
export { DataFileError, type DataFileErrorCode } from './errors/errors.js';
// Checking what a caller gives (the server's options): the one unknown-key policy, the one way a refused value
// is shown, and the error class both use, so a server built on the codec refuses bad input as the client does.
export { InvalidArgumentError } from './errors/errors.js';
export { checkOptionKeys, describeValue, UNKNOWN_OPTION_WARNING } from './errors/option-keys.js';
