// Framing, multi, opcode tables and the conversation decoder of @zkts/protocol (docs/design/contracts.md §1).
export * from './frame.js';
export * from './multi.js';
export * from './ops.js';
export * from './json.js';
export * from './conversation.js';
export * from './format.js';
