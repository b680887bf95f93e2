// Jute records and protocol tables of @zkts/protocol (docs/design/contracts.md §1).
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
