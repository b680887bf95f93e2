// Jute records and protocol tables, exported through '@zkts/protocol/codec' (see docs/architecture.md).
export * from './constants.js';
export * from './data.js';
export * from './headers.js';
export * from './connect.js';
export * from './create.js';
export * from './node.js';
export * from './children.js';
export * from './acl.js';
export * from './watches.js';
export * from './auth.js';
export * from './config.js';
