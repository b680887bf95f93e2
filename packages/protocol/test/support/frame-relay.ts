/**
 * A frame-aware TCP relay in front of a real server for the credential tests: it logs every frame each way
 * with its connection, xid and the time it was received (c2s) or forwarded (s2c), and can hold the server's
 * auth replies (xid -4) for a while before forwarding them, an ordering a real server never makes on demand.
 * The testkit's fault proxy delays whole chunks both ways; here only the auth answers are late, so whether
 * the client reports `connected` before or after them shows.
 */
import { createServer, connect as dial, type Server, type Socket } from 'node:net';
import { FrameCutter } from '@zkts/testkit';

export const AUTH_XID = -4;

export interface RelayedFrame {
  /** 1 for the first proxied connection, and so on. */
  conn: number;
  dir: 'c2s' | 's2c';
  /** Frame index on its connection and direction (0 is the ConnectRequest / ConnectResponse). */
  index: number;
  /** undefined for the handshake frames, which carry none. */
  xid: number | undefined;
  /** A request's opcode (c2s frames after the handshake; undefined otherwise). */
  type: number | undefined;
  /** performance.now() when received from the client (c2s) or written to it (s2c). */
  at: number;
}

export class FrameRelay {
  readonly frames: RelayedFrame[] = [];
  /** ms to hold each auth reply before forwarding it (later frames of the connection wait behind it). */
  holdAuthReplies = 0;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private count = 0;
  port = 0;

  private constructor(private readonly upstream: { host: string; port: number }) {
    this.server = createServer((client) => this.accept(client));
  }

  static async start(upstream: { host: string; port: number }): Promise<FrameRelay> {
    const relay = new FrameRelay(upstream);
    await new Promise<void>((resolve) => relay.server.listen(0, '127.0.0.1', resolve));
    const address = relay.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    relay.port = address.port;
    return relay;
  }

  get connectString(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Frames of connection `conn` going `dir`. */
  of(conn: number, dir: 'c2s' | 's2c'): RelayedFrame[] {
    return this.frames.filter((f) => f.conn === conn && f.dir === dir);
  }

  /** Closes every current connection (new ones are accepted). */
  cut(): void {
    for (const s of this.sockets) s.destroy();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    const conn = ++this.count;
    const upstream = dial(this.upstream.port, this.upstream.host);
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        this.sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    const c2s = new FrameCutter();
    const s2c = new FrameCutter();
    let up = 0;
    let down = 0;
    // s2c frames leave in order; an auth reply delays itself and everything behind it.
    let chain = Promise.resolve();
    client.on('data', (chunk: Buffer) => {
      for (const frame of c2s.push(chunk)) {
        const index = up++;
        const header = index > 0 && frame.length >= 12;
        this.frames.push({ conn, dir: 'c2s', index, xid: index === 0 ? undefined : frame.readInt32BE(4), type: header ? frame.readInt32BE(8) : undefined, at: performance.now() });
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      for (const frame of s2c.push(chunk)) {
        const index = down++;
        const xid = index === 0 ? undefined : frame.readInt32BE(4);
        const copy = Buffer.from(frame);
        const hold = xid === AUTH_XID ? this.holdAuthReplies : 0;
        chain = chain.then(async () => {
          if (hold > 0) await new Promise((resolve) => setTimeout(resolve, hold));
          if (client.destroyed) return;
          this.frames.push({ conn, dir: 's2c', index, xid, type: undefined, at: performance.now() });
          client.write(copy);
        });
      }
    });
  }
}
