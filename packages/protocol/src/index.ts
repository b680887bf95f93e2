// Public surface of @zkts/protocol.
export * from './errors/index.js';
export * from './jute/index.js';
export * from './records/index.js';
export * from './wire/index.js';
export * from './client/index.js';
