// Public surface of @zkts/protocol. Sections are filled in by the codec and client modules.
export * from './errors/index.js';
export * from './jute/index.js';
