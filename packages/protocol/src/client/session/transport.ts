/**
 * One TCP or TLS connection to one server. It knows bytes and frames, nothing about sessions: the session
 * layer gets `onRead()` and then `onFrame(bytes, start, end)` for each complete frame of a read, and exactly one
 * `onClose(error?)`.
 *
 * Nothing here throws out of a socket handler: a dial failure rejects `dial()`, everything later (socket
 * errors, hostile lengths from the frame splitter) ends in `onClose(error)`.
 */
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { ConnectionLossError, ZkError } from '../../errors/errors.js';
import { FrameSplitter, type FrameSink } from '../../codec/frame.js';
import type { Clock } from '../clock.js';
import type { HostAddress } from '../connect-string.js';

export interface TransportHandlers {
  /** A read completed its first whole frame; its frames follow (one call per read: one clock read for all). */
  onRead(): void;
  /** One whole frame, `bytes[start, end)`, in order: valid during this call only (bytes is a reused buffer). */
  onFrame(bytes: Uint8Array, start: number, end: number): void;
  onClose(error: ZkError | undefined): void;
}

export interface DialOptions {
  timeout: number;
  clock: Clock;
  maxPacket: number;
  tls?: ConnectionOptions | undefined;
}

const ENDED = 1;
/** The other side ended the connection (a FIN, a reset), not this client. */
const ENDED_BY_PEER = 2;
/** It ended with a socket error (a reset, a broken pipe, a timeout) rather than the peer's orderly close. */
const ENDED_BROKEN = 4;

/**
 * Whether the handlers of the read being split now were told of it (see frame). Reads are split one at a time;
 * were one to start inside another's frame, the worst is one clock read more.
 */
let readHeard = false;

export class Transport implements FrameSink {
  readonly address: HostAddress;
  private readonly socket: Socket;
  private readonly splitter: FrameSplitter;
  private handlers: TransportHandlers | null = null;
  /** How it ended (ENDED_*, read by name through the accessors below): one field, not three, per connection. */
  private ended = 0;
  /** Frames that arrived before handlers were attached (the server may answer very fast); made when one does. */
  private early: Uint8Array[] | null = null;
  /** A close that happened before handlers were attached, reported on attach. */
  private earlyClose: { error: ZkError | undefined } | null = null;

  private constructor(address: HostAddress, socket: LinkedSocket, maxPacket: number) {
    this.address = address;
    this.socket = socket;
    this.splitter = new FrameSplitter({ maxPacket });
    // The socket's listeners are functions shared by every transport (no closures per connection): they find
    // this transport on the socket, where reads that came before it (plain TCP) wait.
    const early = socket[kLink];
    socket[kLink] = this;
    if (Array.isArray(early)) for (const chunk of early) this.onData(chunk, chunk.byteLength);
    if (early === undefined) socket.on('data', onSocketData);
    socket.on('error', onSocketError);
    socket.on('close', onSocketClose);
  }

  static dial(address: HostAddress, options: DialOptions): Promise<Transport> {
    return new Promise((resolve, reject) => {
      let socket: LinkedSocket;
      const tls = options.tls;
      try {
        if (tls === undefined) {
          socket = netConnect({ host: address.host, port: address.port, onread: { buffer: sharedReadBuffer, callback: onSharedRead } });
          // Plain TCP reads go to onSharedRead: an empty list marks it (and keeps reads before the Transport).
          socket[kLink] = [];
        } else {
          socket = tlsConnect({ servername: isIpLiteral(address.host) ? '' : address.host, ...tls, host: address.host, port: address.port });
        }
      } catch (err) {
        reject(new ConnectionLossError(`cannot dial ${describe(address)}: ${(err as Error).message}`, false, { cause: err }));
        return;
      }
      socket.setNoDelay(true);
      const readyEvent = tls === undefined ? 'connect' : 'secureConnect';
      const clock = options.clock;
      const timer = clock.setTimeout(() => {
        socket.destroy();
        reject(new ConnectionLossError(`connect to ${describe(address)} timed out after ${options.timeout} ms`, false));
      }, options.timeout);
      const onError = (err: Error): void => {
        clock.clearTimeout(timer);
        socket.destroy();
        reject(new ConnectionLossError(`cannot connect to ${describe(address)}: ${err.message}`, false, { cause: err }));
      };
      socket.once('error', onError);
      socket.once(readyEvent, () => {
        clock.clearTimeout(timer);
        socket.off('error', onError);
        resolve(new Transport(address, socket, options.maxPacket));
      });
    });
  }

  attach(handlers: TransportHandlers): void {
    this.handlers = handlers;
    const early = this.early;
    this.early = null;
    if (early !== null) {
      handlers.onRead();
      for (const frame of early) handlers.onFrame(frame, 0, frame.byteLength);
    }
    if (this.earlyClose !== null) {
      this.handlers = null;
      handlers.onClose(this.earlyClose.error);
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Closed by the server's side (or the network), not by `destroy`/`end` here. */
  get closedByPeer(): boolean {
    return (this.ended & ENDED_BY_PEER) !== 0;
  }

  /** Ended by a socket error (the network or the peer's kernel broke it), not by the peer's orderly close. */
  get brokenByNetwork(): boolean {
    return (this.ended & ENDED_BROKEN) !== 0;
  }

  private get closed(): boolean {
    return (this.ended & ENDED) !== 0;
  }

  /** false: the socket's buffer is full, wait for `onceDrain` before writing more (the bytes were taken). */
  write(bytes: Uint8Array): boolean {
    if (this.closed) return true;
    return this.socket.write(bytes);
  }

  /** Runs `listener` once the socket drained (never if it closes first: onClose says it all). */
  onceDrain(listener: () => void): void {
    if (this.closed) return;
    this.socket.once('drain', listener);
  }

  /** Closes after flushing what was written (used after closeSession). */
  end(): void {
    if (this.closed) return;
    this.socket.end();
  }

  /** Drops the connection now; `onClose` runs with `error` (or a plain connection-loss). */
  destroy(error?: ZkError): void {
    this.finish(error ?? new ConnectionLossError('connection dropped by client', true));
    this.socket.destroy();
  }

  /** `chunk[0, length)` was read (into the shared read buffer: valid only during this call). */
  deliver(chunk: Uint8Array, length: number): void {
    this.onData(chunk, length);
  }

  private onData(chunk: Uint8Array, length: number): void {
    if (this.closed) return;
    readHeard = false;
    try {
      this.splitter.each(chunk, length, this);
    } catch (err) {
      const error = err instanceof ZkError ? err : new ConnectionLossError(`bad frame: ${String(err)}`, true, { cause: err });
      this.destroy(error);
    }
  }

  /** FrameSink: one whole frame of the current read. */
  frame(bytes: Uint8Array, start: number, end: number): void {
    const handlers = this.handlers;
    if (handlers === null) {
      // Kept past this call (until attach): copied, the read buffer is reused (a Buffer's slice would be a view).
      if (!this.closed) (this.early ??= []).push(new Uint8Array(bytes.subarray(start, end)));
      return;
    }
    if (!readHeard) {
      readHeard = true;
      handlers.onRead();
    }
    handlers.onFrame(bytes, start, end);
  }

  /** The socket's error or close listener (shared, see the constructor). */
  peerEnded(error: ZkError, broken: boolean): void {
    if (!this.closed) this.ended |= broken ? ENDED_BY_PEER | ENDED_BROKEN : ENDED_BY_PEER;
    this.finish(error);
  }

  private finish(error: ZkError | undefined): void {
    if (this.closed) return;
    this.ended |= ENDED;
    const handlers = this.handlers;
    this.handlers = null;
    if (handlers === null) this.earlyClose = { error };
    else handlers.onClose(error);
  }
}

/** Bytes read per socket read on plain TCP: what libuv suggests for a stream read. */
const READ_BUFFER_SIZE = 64 * 1024;

/**
 * The one read buffer of every plain-TCP connection in the process. A read is handled to the end before the
 * loop runs another socket's callback, and nothing of it outlives the call (see onSharedRead), so connections can
 * share it: 1,000 sessions then touch one 64 KiB buffer instead of a page or two of 1,000 of them.
 */
const sharedReadBuffer = Buffer.allocUnsafe(READ_BUFFER_SIZE);
/**
 * The same bytes as a plain Uint8Array, made once: frames are handed on as ranges of it, and the fields read from
 * them are plain views, where each Buffer subarray runs Node's FastBuffer constructor.
 */
const sharedReadBytes = new Uint8Array(sharedReadBuffer.buffer, sharedReadBuffer.byteOffset, READ_BUFFER_SIZE);

/** A socket and what it belongs to: its Transport, or (plain TCP, before there is one) the reads so far. */
const kLink = Symbol('zkts.transport');
type LinkedSocket = Socket & { [kLink]?: Transport | Uint8Array[] };

/**
 * Plain TCP reads land in one buffer (net's `onread`), reused for every read: no 64 KiB allocation per read and
 * no stream machinery per chunk. Frames handed to `onFrame` are therefore ranges that live only for that call;
 * everything the client keeps (reply data, passwords, early frames, partial frames) is copied. TLS sockets have
 * no `onread`, so they keep 'data' events. `this` is the socket.
 */
function onSharedRead(this: LinkedSocket, bytesRead: number, buffer: Uint8Array): boolean {
  const bytes = buffer === sharedReadBuffer ? sharedReadBytes : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const link = this[kLink];
  if (link instanceof Transport) link.deliver(bytes, bytesRead);
  else if (link !== undefined) link.push(bytes.slice(0, bytesRead));
  return true;
}

function onSocketData(this: LinkedSocket, chunk: Buffer): void {
  const link = this[kLink];
  if (link instanceof Transport) link.deliver(chunk, chunk.byteLength);
}

function onSocketError(this: LinkedSocket, err: Error): void {
  const link = this[kLink];
  if (link instanceof Transport) link.peerEnded(new ConnectionLossError(`socket error: ${err.message}`, true, { cause: err }), true);
}

function onSocketClose(this: LinkedSocket): void {
  const link = this[kLink];
  if (link instanceof Transport) link.peerEnded(new ConnectionLossError('connection closed by server', true), false);
}

function isIpLiteral(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

/**
 * 'host:port' labels, one string per server in the process (up to 1,024 servers): the sessions of a pool name
 * the same servers, and each keeps its server's label (client, connection, report).
 */
const labels = new Map<string, Map<number, string>>();

export function describe(address: HostAddress): string {
  let byPort = labels.get(address.host);
  let label = byPort?.get(address.port);
  if (label === undefined) {
    label = address.host.includes(':') ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`;
    if (byPort === undefined && labels.size < 1024) labels.set(address.host, (byPort = new Map()));
    byPort?.set(address.port, label);
  }
  return label;
}

/** One address record per server in the process (up to 1,024), shared by the sessions of a pool as the labels are. */
const addresses = new Map<string, HostAddress>();

export function sharedAddress(address: HostAddress): HostAddress {
  const label = describe(address);
  let shared = addresses.get(label);
  if (shared === undefined) {
    shared = { host: address.host, port: address.port };
    if (addresses.size < 1024) addresses.set(label, shared);
  }
  return shared;
}

/** The one-host list of each shared address: every session of a pool on one server holds the same list. */
const singleHostLists = new Map<HostAddress, readonly HostAddress[]>();

/** `hosts` as shared addresses; a one-host list is shared too (nobody changes a host list in place). */
export function sharedHosts(hosts: readonly HostAddress[]): readonly HostAddress[] {
  const only = hosts.length === 1 ? hosts[0] : undefined;
  if (only === undefined) return hosts.map(sharedAddress);
  const address = sharedAddress(only);
  let list = singleHostLists.get(address);
  if (list === undefined) {
    list = Object.freeze([address]);
    if (singleHostLists.size < 1024) singleHostLists.set(address, list);
  }
  return list;
}
