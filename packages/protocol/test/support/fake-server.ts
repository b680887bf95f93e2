/**
 * A wire-level fake ZooKeeper server for client unit tests: it speaks the framing and the handshake, records
 * every frame the client sends, and lets a test answer (or misbehave) by hand. It can do what a real server
 * cannot be made to do on demand: hostile frames, out-of-order xids, oversized lengths, a missing readOnly
 * byte, silence.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { JuteReader } from '../../src/codec/jute/reader.js';
import { JuteWriter } from '../../src/codec/jute/writer.js';
import { readConnectRequest, writeConnectResponse, type ConnectRequest } from '../../src/codec/records/connect.js';
import { readRequestHeader, writeReplyHeader } from '../../src/codec/records/headers.js';
import { writeWatcherEvent } from '../../src/codec/records/watches.js';
import { FrameSplitter } from '../../src/codec/frame.js';
import { OpCode } from '../../src/codec/records/constants.js';

export interface ReceivedRequest {
  xid: number;
  type: number;
  /** The body after the RequestHeader. */
  body: Uint8Array;
  reader(): JuteReader;
}

export interface HandshakeReply {
  timeOut?: number;
  sessionId?: bigint;
  passwd?: Uint8Array;
  /** undefined: leave the trailing byte out, like a 3.3 server. */
  readOnly?: boolean | undefined;
}

/** What to do with a ConnectRequest: answer (default), close the socket, or stay silent. */
export type HandshakeAction = HandshakeReply | 'close' | 'silent';

export class FakeConnection {
  readonly socket: Socket;
  connect: (ConnectRequest & { readOnly: boolean | undefined }) | undefined;
  readonly requests: ReceivedRequest[] = [];
  /** Every frame in order, the handshake included (kind + xid + op), for order checks. */
  readonly log: { kind: 'connect' | 'request'; xid: number; type: number }[] = [];
  closed = false;
  /** This connection was a four-letter-word probe, not a session. */
  fourLetter = false;
  private readonly w = new JuteWriter();

  constructor(socket: Socket) {
    this.socket = socket;
    socket.on('close', () => {
      this.closed = true;
    });
  }

  /** A reply: header, then the body written by `body` (only sensible when err is 0). */
  reply(xid: number, options: { err?: number; zxid?: bigint; body?: (w: JuteWriter) => void } = {}): void {
    const w = this.w.reset();
    w.beginFrame();
    writeReplyHeader(w, { xid, zxid: options.zxid ?? 0n, err: options.err ?? 0 });
    options.body?.(w);
    w.endFrame();
    this.sendRaw(w.toBytes());
  }

  notify(type: number, path: string, zxid = -1n): void {
    const w = this.w.reset();
    w.beginFrame();
    writeReplyHeader(w, { xid: -1, zxid, err: 0 });
    writeWatcherEvent(w, { type, state: 3, path });
    w.endFrame();
    this.sendRaw(w.toBytes());
  }

  sendRaw(bytes: Uint8Array): void {
    if (!this.closed) this.socket.write(bytes);
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
  }

  sendHandshake(reply: HandshakeReply, request: ConnectRequest): void {
    const w = this.w.reset();
    w.beginFrame();
    writeConnectResponse(
      w,
      {
        protocolVersion: 0,
        timeOut: reply.timeOut ?? request.timeOut,
        sessionId: reply.sessionId ?? (request.sessionId === 0n ? 0x1234n : request.sessionId),
        passwd: reply.passwd ?? new Uint8Array(16).fill(7),
      },
      'readOnly' in reply ? reply.readOnly : false,
    );
    w.endFrame();
    this.sendRaw(w.toBytes());
  }
}

export interface FakeServerOptions {
  /** Decides the handshake; default: answer with the requested timeout. */
  onConnect?: (conn: FakeConnection, request: ConnectRequest & { readOnly: boolean | undefined }) => HandshakeAction;
  /**
   * Called for every request after the handshake, pings and closeSession included unless `autoPing` /
   * `autoClose` handle them. Return nothing: answer with conn.reply(…) when you want to.
   */
  onRequest?: (conn: FakeConnection, request: ReceivedRequest) => void;
  /** Answer pings (default true). */
  autoPing?: boolean;
  /** Answer closeSession and close (default true). */
  autoClose?: boolean;
  /** Answer the `isro` four-letter word with this (default: not a 4lw server, the connection is dropped). */
  isro?: 'rw' | 'ro';
}

export class FakeServer {
  readonly connections: FakeConnection[] = [];
  private readonly server: Server;
  private readonly options: FakeServerOptions;
  port = 0;

  private constructor(options: FakeServerOptions) {
    this.options = options;
    this.server = createServer((socket) => this.accept(socket));
  }

  static async start(options: FakeServerOptions = {}): Promise<FakeServer> {
    const fake = new FakeServer(options);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    const address = fake.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    fake.port = address.port;
    return fake;
  }

  get connectString(): string {
    return `127.0.0.1:${this.port}`;
  }

  get last(): FakeConnection | undefined {
    return this.connections[this.connections.length - 1];
  }

  /** Every request of every connection, with op `type` (pings left out unless asked for). */
  requestsOf(type: number): ReceivedRequest[] {
    return this.connections.flatMap((c) => c.requests.filter((r) => r.type === type));
  }

  private accept(socket: Socket): void {
    const conn = new FakeConnection(socket);
    this.connections.push(conn);
    const splitter = new FrameSplitter();
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      if (conn.connect === undefined && this.options.isro !== undefined && chunk.toString('latin1', 0, 4) === 'isro') {
        conn.fourLetter = true;
        socket.end(this.options.isro);
        return;
      }
      let frames: Uint8Array[];
      try {
        frames = splitter.push(chunk);
      } catch {
        conn.close();
        return;
      }
      for (const frame of frames) this.onFrame(conn, new Uint8Array(frame));
    });
  }

  private onFrame(conn: FakeConnection, frame: Uint8Array): void {
    if (conn.connect === undefined) {
      const request = readConnectRequest(new JuteReader(frame));
      conn.connect = request;
      conn.log.push({ kind: 'connect', xid: 0, type: OpCode.createSession });
      const action = this.options.onConnect?.(conn, request) ?? {};
      if (action === 'close') conn.close();
      else if (action !== 'silent') conn.sendHandshake(action, request);
      return;
    }
    const r = new JuteReader(frame);
    const header = readRequestHeader(r);
    const body = frame.subarray(r.offset);
    const request: ReceivedRequest = { xid: header.xid, type: header.type, body, reader: () => new JuteReader(body) };
    conn.log.push({ kind: 'request', xid: header.xid, type: header.type });
    if (header.type === OpCode.ping && this.options.autoPing !== false) {
      conn.reply(-2);
      return;
    }
    conn.requests.push(request);
    if (header.type === OpCode.closeSession && this.options.autoClose !== false) {
      conn.reply(header.xid);
      setTimeout(() => conn.close(), 10);
      return;
    }
    this.options.onRequest?.(conn, request);
  }

  /** Stops accepting and drops every connection. */
  async close(): Promise<void> {
    for (const c of this.connections) c.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Waits until `predicate` holds (polling every 5 ms), or fails after `timeout`. */
export async function eventually(predicate: () => boolean, timeout = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
