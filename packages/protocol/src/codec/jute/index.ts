export { JuteReader, DEFAULT_MAX_PACKET } from './reader.js';
export { JuteWriter } from './writer.js';
export type { StringEncoding } from './utf8.js';
