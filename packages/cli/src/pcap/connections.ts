/**
 * From a capture to ZooKeeper connections: each TCP connection whose one end uses the server port becomes a
 * `CapturedConnection` with both directions reassembled, as chunks in capture order. Interleaving the two
 * directions by the time their bytes became complete keeps every request ahead of its reply.
 */
import { CliError, ExitCode } from '../exit-codes.js';
import { decodeFrame, isSupportedLinkType } from './packet.js';
import { StreamReassembler } from './reassembly.js';
import { readPcap } from './reader.js';

export type Direction = 'c2s' | 's2c';

export interface StreamChunk {
  readonly dir: Direction;
  /** Milliseconds since the epoch. */
  readonly time: number;
  readonly data: Uint8Array;
}

export interface CapturedConnection {
  readonly id: number;
  readonly client: string;
  readonly server: string;
  readonly start: number;
  readonly chunks: StreamChunk[];
  /** Problems that make the byte stream incomplete: the decoder's output after them may be wrong. */
  readonly problems: string[];
  /** The client's SYN is in the capture: the streams start at their first byte (handshake included). */
  opened: boolean;
}

export interface Capture {
  readonly connections: CapturedConnection[];
  /** Set when the file itself is damaged (e.g. truncated); connections hold what came before. */
  readonly error: string | undefined;
}

interface Tracked {
  readonly connection: CapturedConnection;
  readonly c2s: StreamReassembler;
  readonly s2c: StreamReassembler;
  closed: boolean;
  partial: boolean;
}

export function endpoint(address: string, port: number): string {
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}

export function readCapture(bytes: Uint8Array, serverPort: number): Capture {
  const file = readPcap(bytes);
  if (!isSupportedLinkType(file.linkType)) {
    throw new CliError(ExitCode.DATA_ERROR, `unsupported pcap link type ${file.linkType} (supported: Ethernet, Linux SLL/SLL2, raw IP, null/loopback)`);
  }
  const live = new Map<string, Tracked>();
  const connections: CapturedConnection[] = [];

  const finish = (tracked: Tracked): void => {
    for (const [dir, stream] of [['c2s', tracked.c2s], ['s2c', tracked.s2c]] as const) {
      const stuck = stream.finish();
      if (stuck > 0) tracked.connection.problems.push(`${dir}: ${stuck} bytes after a gap the capture never filled (lost segments)`);
    }
  };

  const open = (key: string, client: string, server: string, time: number): Tracked => {
    const previous = live.get(key);
    if (previous !== undefined) finish(previous);
    const connection: CapturedConnection = { id: connections.length, client, server, start: time, chunks: [], problems: [], opened: false };
    connections.push(connection);
    const tracked: Tracked = {
      connection,
      c2s: new StreamReassembler((data, at) => connection.chunks.push({ dir: 'c2s', time: at, data })),
      s2c: new StreamReassembler((data, at) => connection.chunks.push({ dir: 's2c', time: at, data })),
      closed: false,
      partial: false,
    };
    live.set(key, tracked);
    return tracked;
  };

  for (const record of file.records) {
    const segment = decodeFrame(file.linkType, record.data);
    if (segment === undefined) continue;
    let dir: Direction;
    if (segment.dstPort === serverPort) dir = 'c2s';
    else if (segment.srcPort === serverPort) dir = 's2c';
    else continue;
    const client = dir === 'c2s' ? endpoint(segment.src, segment.srcPort) : endpoint(segment.dst, segment.dstPort);
    const server = dir === 'c2s' ? endpoint(segment.dst, segment.dstPort) : endpoint(segment.src, segment.srcPort);
    const key = `${client} ${server}`;
    let tracked = live.get(key);
    // A fresh SYN on a finished connection's addresses is a new connection (the client port was reused).
    const fresh = segment.syn && !segment.ackFlag && dir === 'c2s';
    if (tracked === undefined || (fresh && (tracked.closed || tracked.c2s.started))) {
      tracked = open(key, client, server, record.time);
    }
    const stream = dir === 'c2s' ? tracked.c2s : tracked.s2c;
    if (segment.syn) stream.syn(segment.seq);
    if (fresh) tracked.connection.opened = true;
    if ((record.truncated || segment.partial) && !tracked.partial) {
      tracked.partial = true;
      tracked.connection.problems.push(`bytes missing from the capture (snaplen too small) at ${new Date(record.time).toISOString()}`);
    }
    const dataSeq = segment.syn ? (segment.seq + 1) >>> 0 : segment.seq;
    stream.segment(dataSeq, segment.payload, record.time);
    if (segment.fin || segment.rst) tracked.closed = true;
  }
  for (const tracked of live.values()) finish(tracked);
  return { connections, error: file.error };
}
