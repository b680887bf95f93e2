// A fake ZooKeeper upstream for the fault proxy's unit tests: it speaks ZooKeeper framing and scripts exact frame
// sequences (a notification before every reply, pings, replies cut mid-frame); and a client that reads frames.
import { connect, createServer } from 'node:net';

import { FrameCutter } from '../../src/index.js';

import type { Server, Socket } from 'node:net';

export function frame(...ints: number[]): Buffer {
  const b = Buffer.alloc(4 + ints.length * 4);
  b.writeInt32BE(ints.length * 4);
  ints.forEach((n, i) => b.writeInt32BE(n, 4 + i * 4));
  return b;
}
export const xidOf = (f: Buffer): number => f.readInt32BE(4);

/** Answers the first frame with a fake connect response; every request with a notification, then its reply. */
export function fakeServer(seen: number[]): Promise<Server> {
  const server = createServer((socket) => {
    const cutter = new FrameCutter();
    let first = true;
    socket.on('data', (chunk: Buffer) => {
      const out: Buffer[] = [];
      for (const f of cutter.push(chunk)) {
        if (first) {
          first = false;
          out.push(frame(0, 30_000, 0, 1));
          continue;
        }
        const xid = xidOf(f);
        seen.push(xid);
        // A notification before every reply (pings excepted).
        out.push(...(xid === -2 ? [frame(-2, 0, 0, 0)] : [frame(-1, 0, 0, 0, 1), frame(xid, 0, 0, 0)]));
      }
      // Written in two pieces, cut mid-frame, so the proxy has to reassemble.
      const bytes = Buffer.concat(out);
      const cut = Math.max(0, bytes.length - 10);
      socket.write(bytes.subarray(0, cut));
      setTimeout(() => socket.write(bytes.subarray(cut)), 5);
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export class Client {
  readonly socket: Socket;
  readonly frames: Buffer[] = [];
  readonly closed: Promise<void>;
  readonly #cutter = new FrameCutter();
  #wake: (() => void) | undefined;

  constructor(port: number) {
    this.socket = connect({ host: '127.0.0.1', port });
    this.socket.on('data', (c: Buffer) => {
      this.frames.push(...this.#cutter.push(c));
      this.#wake?.();
    });
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  async next(): Promise<Buffer> {
    while (this.frames.length === 0) {
      await Promise.race([new Promise<void>((r) => (this.#wake = r)), this.closed.then(() => Promise.reject(new Error('closed')))]);
    }
    return this.frames.shift() as Buffer;
  }
}
