export { readCapture, endpoint } from './connections.js';
export type { Capture, CapturedConnection, Direction, StreamChunk } from './connections.js';
export { isPcap, readPcap } from './reader.js';
export type { PcapFile, PcapRecord } from './reader.js';
export { decodeFrame, LinkType } from './packet.js';
export type { TcpSegment } from './packet.js';
export { StreamReassembler } from './reassembly.js';
