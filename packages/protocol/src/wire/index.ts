// Internal barrel of src/wire (framing, multi, opcode tables, conversation decoder). Not an entry point: the
// package exposes these through src/codec.ts and src/inspect.ts; in-repo tools and tests may import it directly.
export * from './frame.js';
export * from './multi.js';
export * from './ops.js';
export * from './json.js';
export * from './conversation.js';
export * from './format.js';
