// A hand-written sliver of the ZooKeeper wire protocol, so the testkit's tests can write and read znodes
// without depending on the client being built next door. Frames are a 4-byte big-endian length + payload.
import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

import type { Socket } from 'node:net';
import type { ConnectionOptions } from 'node:tls';

export const OP = { create: 1, delete: 2, exists: 3, getData: 4, createContainer: 19, createTTL: 21, auth: 100, closeSession: -11 } as const;

function frame(payload: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeInt32BE(payload.length);
  return Buffer.concat([len, payload]);
}

export function int(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
}

export function long(n: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(n);
  return b;
}

export function buffer(data: Buffer): Buffer {
  return Buffer.concat([int(data.length), data]);
}

export function ustring(s: string): Buffer {
  return buffer(Buffer.from(s, 'utf8'));
}

/** ConnectRequest {protocolVersion, lastZxidSeen, timeOut, sessionId, passwd} + readOnly byte. */
export function connectRequest(timeout = 30_000, readOnly = false): Buffer {
  return frame(Buffer.concat([int(0), long(0n), int(timeout), long(0n), buffer(Buffer.alloc(16)), Buffer.from([readOnly ? 1 : 0])]));
}

/** RequestHeader + CreateRequest {path, data, acl=[world:anyone ALL], flags=persistent}. */
export function createRequest(xid: number, path: string, data: string): Buffer {
  const acl = Buffer.concat([int(1), int(31), ustring('world'), ustring('anyone')]);
  return frame(Buffer.concat([int(xid), int(OP.create), ustring(path), buffer(Buffer.from(data)), acl, int(0)]));
}

/** RequestHeader + GetDataRequest {path, watch=false}. */
export function getDataRequest(xid: number, path: string): Buffer {
  return frame(Buffer.concat([int(xid), int(OP.getData), ustring(path), Buffer.from([0])]));
}

export function pingRequest(): Buffer {
  return frame(Buffer.concat([int(-2), int(11)]));
}

/** Splits a byte stream into frame payloads. */
export class Frames {
  #pending = Buffer.alloc(0);
  readonly frames: Buffer[] = [];
  #waiters: (() => void)[] = [];

  push(chunk: Buffer): void {
    this.#pending = Buffer.concat([this.#pending, chunk]);
    while (this.#pending.length >= 4) {
      const len = this.#pending.readInt32BE(0);
      if (this.#pending.length < 4 + len) break;
      this.frames.push(this.#pending.subarray(4, 4 + len));
      this.#pending = this.#pending.subarray(4 + len);
    }
    for (const w of this.#waiters.splice(0)) w();
  }

  /** Resolves with the next unread frame, or rejects after `ms`. */
  async next(ms = 10_000): Promise<Buffer> {
    const deadline = Date.now() + ms;
    while (this.frames.length === 0) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no frame within ${ms} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.frames.shift() as Buffer;
  }
}

/** A reply: ReplyHeader {xid, zxid, err} and the body after it. */
export function parseReply(payload: Buffer): { xid: number; zxid: bigint; err: number; body: Buffer } {
  return { xid: payload.readInt32BE(0), zxid: payload.readBigInt64BE(4), err: payload.readInt32BE(12), body: payload.subarray(16) };
}

/** ConnectResponse: {protocolVersion, timeOut, sessionId, passwd}. */
export function parseConnectResponse(payload: Buffer): { timeOut: number; sessionId: bigint } {
  return { timeOut: payload.readInt32BE(4), sessionId: payload.readBigInt64BE(8) };
}

export interface RawSession extends AsyncDisposable {
  socket: Socket;
  frames: Frames;
  sessionId: bigint;
  closed: Promise<void>;
  create(path: string, data: string): Promise<number>;
  getData(path: string): Promise<{ err: number; data: string }>;
  /** Any request: header {xid, op} + body; resolves with the reply's error code and body. */
  call(op: number, body: Buffer): Promise<{ err: number; body: Buffer }>;
  /** AuthPacket {type 0, scheme, auth} with xid -4. */
  addAuth(scheme: string, auth: string): Promise<number>;
}

/** vector<ACL> with one entry. */
export function acl(perms: number, scheme: string, id: string): Buffer {
  return Buffer.concat([int(1), int(perms), ustring(scheme), ustring(id)]);
}

/** Opens a socket (plain or TLS) and completes the connect handshake. */
export async function openSession(host: string, port: number, tls?: ConnectionOptions, readOnly = false): Promise<RawSession> {
  const socket: Socket = await new Promise((resolve, reject) => {
    const s: Socket = tls
      ? tlsConnect({ host, port, ...tls }, () => resolve(s))
      : netConnect({ host, port }, () => resolve(s));
    s.once('error', reject);
  });
  const frames = new Frames();
  socket.on('data', (c: Buffer) => frames.push(c));
  socket.on('error', () => {
    // Observed through `closed`.
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(connectRequest(30_000, readOnly));
  const { sessionId } = parseConnectResponse(await frames.next());
  let xid = 0;
  return {
    socket,
    frames,
    sessionId,
    closed,
    async create(path, data) {
      socket.write(createRequest(++xid, path, data));
      return parseReply(await frames.next()).err;
    },
    async getData(path) {
      socket.write(getDataRequest(++xid, path));
      const reply = parseReply(await frames.next());
      if (reply.err !== 0) return { err: reply.err, data: '' };
      const len = reply.body.readInt32BE(0);
      return { err: 0, data: reply.body.subarray(4, 4 + Math.max(len, 0)).toString('utf8') };
    },
    async call(op, body) {
      socket.write(frame(Buffer.concat([int(++xid), int(op), body])));
      const reply = parseReply(await frames.next());
      return { err: reply.err, body: reply.body };
    },
    async addAuth(scheme, auth) {
      socket.write(frame(Buffer.concat([int(-4), int(OP.auth), int(0), ustring(scheme), buffer(Buffer.from(auth))])));
      return parseReply(await frames.next()).err;
    },
    async [Symbol.asyncDispose]() {
      if (!socket.destroyed) socket.write(frame(Buffer.concat([int(++xid), int(OP.closeSession)])));
      socket.end();
      socket.destroy();
      await closed;
    },
  };
}

export function hostPort(connectString: string): { host: string; port: number } {
  const [host, port] = connectString.split(',')[0]?.split(':') ?? [];
  return { host: host ?? '127.0.0.1', port: Number(port) };
}
