export { JuteReader, DEFAULT_MAX_PACKET } from './reader.js';
export { JuteWriter } from './writer.js';
