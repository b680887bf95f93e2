// A wire-level ZooKeeper session for the conformance suite: it sends exactly the frames a scenario asks for
// (no client-side validation, no automatic pings) and keeps every frame the server sends, replies and
// notifications, in arrival order, so both servers can be compared frame for frame.
import { connect as netConnect, type Socket } from 'node:net';
import {
  FrameSplitter,
  JuteReader,
  JuteWriter,
  readConnectResponse,
  readReplyHeader,
  readWatcherEvent,
  responseReaderFor,
  writeConnectRequest,
  writeRequestFrame,
  type ConnectResponse,
  type RequestBody,
  type RequestOpCode,
  type WatcherEvent,
} from '@zkts/protocol/codec';

/** One frame the server sent after the handshake. */
export type Incoming =
  | { kind: 'reply'; xid: number; op: number; zxid: bigint; err: number; body: unknown }
  | { kind: 'event'; event: WatcherEvent }
  | { kind: 'closed' };

export interface HandshakeOptions {
  timeout?: number;
  sessionId?: bigint;
  passwd?: Uint8Array;
  lastZxidSeen?: bigint;
  readOnly?: boolean | undefined;
}

export type Handshake = { kind: 'connected'; response: ConnectResponse & { readOnly: boolean | undefined } } | { kind: 'refused' };

function hostPort(connectString: string): { host: string; port: number } {
  const i = connectString.lastIndexOf(':');
  return { host: connectString.slice(0, i), port: Number(connectString.slice(i + 1)) };
}

export class RawSession {
  readonly frames: Incoming[] = [];
  private readonly splitter = new FrameSplitter({ maxPacket: 16 * 1024 * 1024 });
  private readonly pending = new Map<number, number>();
  private waiters: (() => void)[] = [];
  private handshakeFrame: Uint8Array | undefined;
  private nextXid = 1;
  closed = false;
  response: (ConnectResponse & { readOnly: boolean | undefined }) | undefined;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      this.closed = true;
      this.frames.push({ kind: 'closed' });
      this.wake();
    });
  }

  static async open(connectString: string, options: HandshakeOptions = {}): Promise<{ session: RawSession; handshake: Handshake }> {
    const { host, port } = hostPort(connectString);
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = netConnect({ host, port }, () => resolve(s));
      s.once('error', reject);
    });
    const session = new RawSession(socket);
    const w = new JuteWriter();
    w.beginFrame();
    writeConnectRequest(
      w,
      {
        protocolVersion: 0,
        lastZxidSeen: options.lastZxidSeen ?? 0n,
        timeOut: options.timeout ?? 4000,
        sessionId: options.sessionId ?? 0n,
        passwd: options.passwd ?? new Uint8Array(16),
      },
      'readOnly' in options ? options.readOnly : false,
    );
    socket.write(Buffer.from(w.endFrame()));
    const handshake = await session.awaitHandshake();
    return { session, handshake };
  }

  private async awaitHandshake(): Promise<Handshake> {
    await this.until(() => this.handshakeFrame !== undefined || this.closed, 'the connect response');
    if (this.handshakeFrame === undefined) return { kind: 'refused' };
    this.response = readConnectResponse(new JuteReader(this.handshakeFrame));
    return { kind: 'connected', response: this.response };
  }

  private onData(chunk: Buffer): void {
    for (const frame of this.splitter.push(chunk)) {
      if (this.handshakeFrame === undefined) {
        this.handshakeFrame = frame.slice();
        continue;
      }
      const r = new JuteReader(frame.slice(), { maxLength: 16 * 1024 * 1024 });
      const h = readReplyHeader(r);
      if (h.xid === -1) {
        this.frames.push({ kind: 'event', event: readWatcherEvent(r) });
        continue;
      }
      const op = h.xid === -2 ? 11 : h.xid === -4 ? 100 : (this.pending.get(h.xid) ?? -999);
      this.pending.delete(h.xid);
      let body: unknown = null;
      if (h.err === 0 && r.remaining > 0) {
        const read = responseReaderFor(op);
        body = read === undefined || read === null ? { trailing: r.remaining } : read(r);
      }
      this.frames.push({ kind: 'reply', xid: h.xid, op, zxid: h.zxid, err: h.err, body });
    }
    this.wake();
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  async until(predicate: () => boolean, what: string, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!predicate()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Sends a request; resolves with its reply (or `closed` when the connection ends first). */
  async call<O extends RequestOpCode>(op: O, body: RequestBody<O>, xid?: number): Promise<Incoming> {
    const x = op === 11 ? -2 : (xid ?? this.nextXid++);
    if (op !== 11) this.pending.set(x, op);
    const start = this.frames.length;
    const w = new JuteWriter();
    this.socket.write(Buffer.from(writeRequestFrame(w, x, op, body, { maxPacket: 16 * 1024 * 1024 })));
    return this.awaitReply(start, x);
  }

  /** The first reply with `xid` (or the close) at or after frame index `start`. */
  async awaitReply(start: number, xid: number): Promise<Incoming> {
    const find = (): Incoming | undefined => this.frames.slice(start).find((f) => (f.kind === 'reply' && f.xid === xid) || f.kind === 'closed');
    await this.until(() => find() !== undefined, `the reply to xid ${xid}`);
    return find() as Incoming;
  }

  /** Sends a request frame built by hand (any header, any body). */
  sendFrame(payload: Uint8Array, expectOp?: { xid: number; op: number }): number {
    if (expectOp !== undefined) this.pending.set(expectOp.xid, expectOp.op);
    const out = new Uint8Array(4 + payload.byteLength);
    new DataView(out.buffer).setInt32(0, payload.byteLength);
    out.set(payload, 4);
    const start = this.frames.length;
    this.socket.write(Buffer.from(out));
    return start;
  }

  /** Sends bytes as they are (a raw payload gets its length prefix unless `framed` is false). */
  sendRaw(bytes: Uint8Array): void {
    this.socket.write(Buffer.from(bytes));
  }

  /** A ping: every frame the server queued before it has arrived when it returns. */
  async flush(): Promise<void> {
    if (this.closed) return;
    await this.call(11, null);
  }

  /** Waits until the server has closed the connection. */
  async awaitClose(ms = 10_000): Promise<void> {
    await this.until(() => this.closed, 'the connection to close', ms);
  }

  destroy(): void {
    this.socket.destroy();
  }
}
