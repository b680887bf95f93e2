/**
 * The decoding proxy's byte path, shared by `zkts proxy` and the console's traffic source: a TCP listener
 * that opens one upstream connection per client, forwards every byte unchanged in both directions (with
 * backpressure), and feeds a copy of each chunk to a ConnectionConversation whose decoded lines go to the
 * caller's tap. The tap sits beside the byte path: bytes are written before they are decoded, and a tap
 * that throws is reported through `tapError` and never stops the forwarding or the process.
 */
import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';

import { ConnectionConversation } from './conversation.js';
import type { ConversationLine } from './conversation.js';
import type { HostPort } from './hosts.js';

/** What a caller does with one proxied connection's decoded conversation. */
export interface ConnectionTap {
  /** Decoded lines, in the order their bytes were seen. */
  lines(lines: readonly ConversationLine[]): void;
  /** The connection ended (`why`: which side closed, or the socket error). */
  closed(time: number, why: string): void;
}

export interface OpenedConnection {
  readonly id: number;
  /** The client's address, `host:port` (`[v6]:port`). */
  readonly client: string;
  /** ms since the epoch */
  readonly start: number;
}

export interface TapProxyOptions {
  readonly listen: HostPort;
  readonly upstream: HostPort;
  /** Called for each accepted client, before its first byte is decoded. */
  readonly open: (connection: OpenedConnection) => ConnectionTap;
  /** A tap threw: the bytes kept flowing; the caller may say so. */
  readonly tapError?: (conn: number, error: unknown) => void;
  /** The clock of the decoded lines' times, ms since the epoch; default the wall clock to the microsecond. */
  readonly now?: () => number;
}

export interface TapProxy {
  /** The address actually bound (port 0 picks a free port). */
  readonly host: string;
  readonly port: number;
  /** `host:port` (`[v6]:port`), for clients. */
  readonly address: string;
  /** Connections being proxied now. */
  readonly connections: number;
  /** Stops accepting, drops every connection and resolves once each one's tap heard it closed. */
  close(): Promise<void>;
}

export class TapProxyListenError extends Error {
  readonly code = 'LISTEN_FAILED';
  /** The system's reason, e.g. `listen EADDRINUSE: address already in use 127.0.0.1:2181`. */
  readonly reason: string;

  constructor(address: string, reason: string) {
    super(`cannot listen on ${address}: ${reason}`);
    this.name = 'TapProxyListenError';
    this.reason = reason;
  }
}

/** Date.now() counts whole milliseconds, and a reply on a local network often comes within one: latencies need finer. */
function wallClockMs(): number {
  return performance.timeOrigin + performance.now();
}

export function addressOf(host: string | undefined, port: number | undefined): string {
  return host?.includes(':') === true ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Starts listening; rejects with TapProxyListenError when the address cannot be bound. */
export async function listenTapProxy(options: TapProxyOptions): Promise<TapProxy> {
  const now = options.now ?? wallClockMs;
  const live = new Map<number, { sockets: Socket[]; closed: Promise<void> }>();
  let nextId = 0;

  const server: Server = createServer((client) => {
    const id = nextId++;
    const start = now();
    const upstreamSocket = connect({ host: options.upstream.host, port: options.upstream.port });
    const conversation = new ConnectionConversation(id, start);
    let tap: ConnectionTap | undefined;
    const guarded = (use: (t: ConnectionTap) => void): void => {
      if (tap === undefined) return;
      try {
        use(tap);
      } catch (error) {
        options.tapError?.(id, error);
      }
    };
    try {
      tap = options.open({ id, client: addressOf(client.remoteAddress, client.remotePort), start });
    } catch (error) {
      options.tapError?.(id, error);
    }
    let markClosed: () => void = () => undefined;
    const closedPromise = new Promise<void>((resolve) => (markClosed = resolve));
    live.set(id, { sockets: [client, upstreamSocket], closed: closedPromise });

    // Bytes first, then the tap: a decoder bug can delay nothing and break nothing.
    client.on('data', (chunk: Buffer) => {
      if (!upstreamSocket.write(chunk)) client.pause();
      const lines = conversation.bytes('c2s', chunk, now());
      if (lines.length > 0) guarded((t) => t.lines(lines));
    });
    upstreamSocket.on('data', (chunk: Buffer) => {
      if (!client.write(chunk)) upstreamSocket.pause();
      const lines = conversation.bytes('s2c', chunk, now());
      if (lines.length > 0) guarded((t) => t.lines(lines));
    });
    upstreamSocket.on('drain', () => client.resume());
    client.on('drain', () => upstreamSocket.resume());
    let closed = false;
    const close = (why: string): void => {
      if (closed) return;
      closed = true;
      client.destroy();
      upstreamSocket.destroy();
      live.delete(id);
      const time = now();
      const tail = conversation.end(time);
      if (tail.length > 0) guarded((t) => t.lines(tail));
      guarded((t) => t.closed(time, why));
      markClosed();
    };
    client.on('end', () => upstreamSocket.end());
    upstreamSocket.on('end', () => client.end());
    client.on('close', () => close('client closed'));
    upstreamSocket.on('close', () => close('upstream closed'));
    client.on('error', (error) => close(`client: ${error.message}`));
    upstreamSocket.on('error', (error) => close(`upstream: ${error.message}`));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(new TapProxyListenError(addressOf(options.listen.host, options.listen.port), error.message)));
    server.listen(options.listen.port, options.listen.host, () => resolve());
  });
  // A listener error after the start (there is none in practice) must not be an unhandled 'error' event.
  server.on('error', () => undefined);
  const bound = server.address();
  const host = typeof bound === 'object' && bound !== null ? bound.address : options.listen.host;
  const port = typeof bound === 'object' && bound !== null ? bound.port : options.listen.port;
  let closing: Promise<void> | undefined;
  return {
    host,
    port,
    address: addressOf(host, port),
    get connections() {
      return live.size;
    },
    close(): Promise<void> {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        const ends = [...live.values()].map((c) => c.closed);
        for (const connection of live.values()) for (const socket of connection.sockets) socket.destroy();
        await Promise.all([stopped, ...ends]);
      })();
      return closing;
    },
  };
}
