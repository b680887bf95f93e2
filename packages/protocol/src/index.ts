// Public surface of @zkts/protocol.
export * from './errors/index.js';
export * from './jute/index.js';
export * from './records/index.js';
export * from './wire/index.js';
// Transaction logs and snapshots (to move to the codec entry point).
export * from './persistence/index.js';
export * from './client/index.js';
// The records module has a wire-level `ACL` (nullable strings, as Jute allows); the public one is the client's.
export type { ACL } from './client/index.js';
