// The server's ceiling for one connection, not a client anyone would use: a bare socket that sends frames
// encoded once up front (only the xid and the path's last segment are patched), one write per tick, and reads
// replies by their length prefix without decoding them (only the error code is looked at). No client can do
// less work per request, so what it reaches is what ZooKeeper serves one session on this machine; a real
// client's pipelined figure is read against it.
//
// Only what the get, create+delete and uncontended lock workloads need is here: handshake, create (plain
// `create`, opcode 1, whose reply is the path alone: the least a server answers a create with), delete, getData,
// getChildren and closeSession; and a lock that is the fewest requests a ZooKeeper lock can be (see RawLock).
import { connect as netConnect } from 'node:net';
import type { Socket } from 'node:net';

import type { BenchClient, BenchLock, BenchSession, Done } from '../harness/session.js';
import {
  EPHEMERAL_SEQUENTIAL, OP_CLOSE_SESSION, OP_GET_CHILDREN, OP_GET_DATA, Templates, anyBefore, connectRequest, createRequest, deleteRequest, frame,
  pathRequest, ping, readString, type Reply,
} from './raw-frames.js';

/** A session idle this long sends a ping, as every client does (the server expires a silent one after 30 s). */
const KEEP_ALIVE_MS = 10_000;

/**
 * The least a ZooKeeper lock can do, as zkts's Mutex does it: an ephemeral sequential create and the directory's
 * listing in one write (one round trip), the delete on release (the second). Uncontended only: a node ahead of
 * ours is an error, not a wait. What it reaches is the Node runtime's ceiling for the uncontended Mutex row.
 */
class RawLock implements BenchLock {
  readonly #session: RawSession;
  readonly #dir: string;
  readonly #create: Uint8Array;
  readonly #list: Uint8Array;
  #held = '';

  constructor(session: RawSession, dir: string) {
    this.#session = session;
    this.#dir = dir;
    this.#create = createRequest(0, `${dir}/lock-`, new Uint8Array(0), EPHEMERAL_SEQUENTIAL);
    this.#list = pathRequest(OP_GET_CHILDREN, dir);
  }

  acquire(): Promise<void> {
    return new Promise((resolve, reject) => {
      let created = '';
      this.#session.sendTemplate(this.#create, (e, body) => {
        if (e) reject(e);
        else created = readString(body, 0);
      });
      // The server answers in order: the create's reply has been read when the listing's arrives.
      this.#session.sendTemplate(this.#list, (e, body) => {
        if (e) return reject(e);
        if (created === '') return; // the create failed: already rejected
        if (anyBefore(body, created.slice(this.#dir.length + 1))) return reject(new Error('the raw ceiling lock is uncontended only'));
        this.#held = created;
        resolve();
      });
    });
  }

  release(): Promise<void> {
    return new Promise((resolve, reject) => this.#session.delete(this.#held, (e) => (e ? reject(e) : resolve())));
  }
}

/** The create workloads' payload (workloads.ts PAYLOAD): 100 bytes of 'a'. */
const CREATE_DATA = new Uint8Array(100).fill(0x61);

function sameAsCreateData(data: Uint8Array): boolean {
  if (data.byteLength !== CREATE_DATA.byteLength) return false;
  for (let i = 0; i < data.byteLength; i++) if (data[i] !== 0x61) return false;
  return true;
}

class RawSession implements BenchSession {
  readonly #socket: Socket;
  /** Completions in request order (the server answers in order). */
  readonly #waiting: Reply[] = [];
  #head = 0;
  #xid = 1;
  #out: Uint8Array[] = [];
  #outBytes = 0;
  #flushQueued = false;
  #templates = new Map<string, Uint8Array>();
  #templateData: Uint8Array | undefined;
  readonly #creates = new Templates((path) => createRequest(0, path, CREATE_DATA));
  readonly #deletes = new Templates((path) => deleteRequest(0, path));
  #pending = new Uint8Array(0);
  #handshake: ((error: Error | null) => void) | undefined;
  /** Why the connection is gone (null while it is up): every completion waiting, and every later one, gets it. */
  #lost: Error | null = null;
  #sentSinceTick = false;
  #keepAlive: NodeJS.Timeout | undefined;

  constructor(socket: Socket) {
    this.#socket = socket;
  }

  /**
   * Once the handshake is answered: a ping after a quiet interval (a driver that leaves this session idle between
   * its turns would otherwise lose it to the server's expiry), and a closed socket fails what waits rather than
   * leaving it waiting for ever.
   */
  #watch(): void {
    this.#keepAlive = setInterval(() => {
      if (!this.#sentSinceTick && this.#lost === null) this.#send(ping(), () => undefined);
      this.#sentSinceTick = false;
    }, KEEP_ALIVE_MS);
    this.#keepAlive.unref();
    this.#socket.on('error', (error: Error) => this.#fail(error));
    this.#socket.on('close', () => this.#fail(new Error('raw socket: the connection closed')));
  }

  #fail(error: Error): void {
    clearInterval(this.#keepAlive);
    this.#lost ??= error;
    const waiting = this.#waiting.splice(this.#head);
    this.#waiting.length = 0;
    this.#head = 0;
    for (const done of waiting) done(this.#lost, new Uint8Array(0));
  }

  static async open(connectString: string): Promise<RawSession> {
    const [host = '127.0.0.1', port = '2181'] = (connectString.split(',')[0] ?? '').split(':');
    const sink: { session?: RawSession } = {};
    // Node's cheapest read path: one reused buffer, no stream machinery (as zkts does on plain TCP).
    const socket = netConnect({
      host,
      port: Number(port),
      onread: {
        buffer: Buffer.allocUnsafe(64 * 1024),
        callback: (n: number, buf: Uint8Array) => {
          sink.session?.deliver(buf.subarray(0, n));
          return true;
        },
      },
    });
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const session = new RawSession(socket);
    sink.session = session;
    await new Promise<void>((resolve, reject) => {
      session.#handshake = (e) => (e ? reject(e) : resolve());
      socket.write(connectRequest(30_000));
    });
    session.#watch();
    return session;
  }

  deliver(chunk: Uint8Array): void {
    let buf: Uint8Array = chunk;
    if (this.#pending.byteLength > 0) {
      buf = Buffer.concat([this.#pending, chunk]);
    }
    let at = 0;
    while (buf.byteLength - at >= 4) {
      const len = ((buf[at]! << 24) | (buf[at + 1]! << 16) | (buf[at + 2]! << 8) | buf[at + 3]!) >>> 0;
      if (buf.byteLength - at - 4 < len) break;
      if (this.#handshake) {
        const done = this.#handshake;
        this.#handshake = undefined;
        done(null);
      } else {
        // ReplyHeader: xid, zxid, err. Only err is looked at.
        const err = (buf[at + 16]! << 24) | (buf[at + 17]! << 16) | (buf[at + 18]! << 8) | buf[at + 19]!;
        const done = this.#waiting[this.#head];
        this.#waiting[this.#head++] = undefined as unknown as Reply;
        if (this.#head > 4096 && this.#head * 2 > this.#waiting.length) {
          this.#waiting.splice(0, this.#head);
          this.#head = 0;
        }
        done?.(err === 0 ? null : new Error(`server error ${err}`), buf.subarray(at + 20, at + 4 + len));
      }
      at += 4 + len;
    }
    // A copy (Buffer#slice would be a view into the reused read buffer).
    this.#pending = at < buf.byteLength ? new Uint8Array(buf.subarray(at)) : new Uint8Array(0);
  }

  #send(bytes: Uint8Array, done: Reply): void {
    const lost = this.#lost;
    if (lost !== null) {
      process.nextTick(() => done(lost, new Uint8Array(0)));
      return;
    }
    this.#sentSinceTick = true;
    this.#waiting.push(done);
    this.#out.push(bytes);
    this.#outBytes += bytes.byteLength;
    if (!this.#flushQueued) {
      this.#flushQueued = true;
      process.nextTick(() => {
        this.#flushQueued = false;
        const all = Buffer.allocUnsafe(this.#outBytes);
        let at = 0;
        for (const b of this.#out) {
          all.set(b, at);
          at += b.byteLength;
        }
        this.#out = [];
        this.#outBytes = 0;
        this.#socket.write(all);
      });
    }
  }

  /** A frame encoded once: a copy with the next xid is sent. */
  sendTemplate(template: Uint8Array, done: Reply): void {
    const out = template.slice();
    new DataView(out.buffer).setInt32(4, this.#xid++);
    this.#send(out, done);
  }

  lock(dir: string): BenchLock {
    return new RawLock(this, dir);
  }

  getData(path: string, done: Done): void {
    let template = this.#templates.get(path);
    if (!template) {
      template = pathRequest(OP_GET_DATA, path);
      this.#templates.set(path, template);
    }
    // Patch the xid into the one template: it is copied into the batch before the next call can change it.
    new DataView(template.buffer, template.byteOffset).setInt32(4, this.#xid++);
    this.#send(template.slice(), done);
  }

  create(path: string, data: Uint8Array, done: Done): void {
    // The workloads' payload (100 bytes of 'a', one shared array: checked once) is the template's; anything
    // else (the set-up nodes' empty data) is encoded in full.
    if (data !== this.#templateData) {
      if (!sameAsCreateData(data)) {
        this.#send(createRequest(this.#xid++, path, data), done);
        return;
      }
      this.#templateData = data;
    }
    this.#send(this.#creates.frame(path, this.#xid++), done);
  }

  delete(path: string, done: Done): void {
    this.#send(this.#deletes.frame(path, this.#xid++), done);
  }

  getDataWatch(): void {
    throw new Error('the raw ceiling client only does getData, create, delete and a lock');
  }

  setData(): void {
    throw new Error('the raw ceiling client only does getData, create, delete and a lock');
  }

  getDataBytes(): void {
    throw new Error('the raw ceiling client only does getData, create, delete and a lock');
  }

  getChildrenList(): void {
    throw new Error('the raw ceiling client only does getData, create, delete and a lock');
  }

  countChildren(): Promise<number> {
    return Promise.reject(new Error('the raw ceiling client only does getData, create, delete and a lock'));
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#send(
        frame(8, (v) => {
          v.setInt32(4, this.#xid++);
          v.setInt32(8, OP_CLOSE_SESSION);
          return 12;
        }),
        () => resolve(),
      );
      this.#socket.once('close', () => resolve());
    });
    clearInterval(this.#keepAlive);
    this.#socket.destroy();
  }
}

export const client: BenchClient = {
  id: 'raw',
  label: 'raw socket (ceiling)',
  connect: (connectString) => RawSession.open(connectString),
  watchEventsDelivered: () => 0,
};
