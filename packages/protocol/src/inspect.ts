/**
 * `@zkts/protocol/inspect`: ZooKeeper traffic made readable. {@link ConversationDecoder} turns the frames of one
 * connection into plain entries (request, reply, event, ping…), {@link ConversationStream} does it from raw TCP
 * chunks, and the formatters render entries as text or JSON.
 *
 * @packageDocumentation
 * @module @zkts/protocol/inspect
 */
// @zkts/protocol/inspect: traffic made readable. ConversationDecoder turns the frames of one connection into
// plain entries (request, reply, event, ping…), ConversationStream does the same from raw TCP chunks, and the
// formatters render entries as text or JSON. Kept out of the client entry: no session needs it. FrameSplitter
// is the codec's own (the client's hot path uses it), re-exported for callers splitting raw chunks themselves.
export * from './inspect/conversation.js';
export * from './inspect/format.js';
export * from './inspect/json.js';
export { FrameSplitter, type FrameSplitterOptions } from './codec/frame.js';
