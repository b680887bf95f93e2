import { connect, createServer } from 'node:net';

import { FrameCutter, frameXid, MAX_FRAME, NOTIFICATION_XID, PING_XID } from './frames.js';
import { checkNumber, checkTarget, MAX_TIMER_MS, refuse } from './option-checks.js';

import type { Server, Socket } from 'node:net';

/** A TCP proxy in front of a server that can cut, freeze, delay or drop traffic on command, to make the failures a real network makes. */
export interface FaultProxy extends AsyncDisposable {
  readonly host: string;
  readonly port: number;
  readonly connectString: string;
  /** Connections currently proxied. */
  readonly connections: number;
  /** Closes both sides of every current connection now, in order, as a server does (new ones are still accepted). */
  cut(): void;
  /** Resets both sides of every current connection now (a TCP RST), as a broken network path or a middlebox does. */
  reset(): void;
  /** Keeps sockets open but passes nothing either way (new connections too) until restore(): a frozen peer. */
  blackhole(): void;
  /** Holds every chunk ≥ ms before passing it on, in order, both directions. */
  delay(ms: number): void;
  /**
   * Forwards the next client request (not a ping, not the handshake), swallows the server's next reply on
   * that connection (not a ping reply, not a notification) and then cuts it: "write applied, reply lost".
   */
  dropNextReply(): void;
  /** Back to a transparent proxy; what a blackhole held is delivered in order (as TCP would after a heal). */
  restore(): void;
  /** Stops listening and closes every proxied connection. */
  close(): Promise<void>;
}

type Direction = 'c2s' | 's2c';

interface Queued {
  bytes: Buffer;
  releaseAt: number;
}

/** One proxied connection: the client's socket and ours to the upstream server. */
class Pair {
  readonly #proxy: Proxy;
  readonly client: Socket;
  readonly upstream: Socket;
  readonly #cutters = { c2s: new FrameCutter(), s2c: new FrameCutter() };
  readonly #queues: Record<Direction, Queued[]> = { c2s: [], s2c: [] };
  readonly #timers: Record<Direction, NodeJS.Timeout | undefined> = { c2s: undefined, s2c: undefined };
  readonly #handshake = { c2s: false, s2c: false };
  /** Not ZooKeeper framing (a four-letter word): pass chunks through untouched. */
  #raw = false;
  /** A request was forwarded under dropNextReply: swallow the next reply, then cut. */
  #dropping = false;
  #closed = false;
  /** One side ended during a blackhole; the other side is told on restore(). */
  #closeDeferred = false;
  /** Ended after a deferred close: no more forwarding, the sockets are finishing their writes. */
  #closing = false;

  constructor(proxy: Proxy, client: Socket, upstream: Socket) {
    this.#proxy = proxy;
    this.client = client;
    this.upstream = upstream;
    client.on('data', (chunk: Buffer) => this.#receive('c2s', chunk));
    upstream.on('data', (chunk: Buffer) => this.#receive('s2c', chunk));
    // Either side ending or failing ends the pair, like a real connection between the two, but only after
    // what is still queued (delay) was written; during a blackhole the other side must not learn of it at all
    // (a frozen peer sends no FIN), so that waits for restore().
    for (const socket of [client, upstream]) {
      const ended = (): void => this.#sideEnded(socket);
      socket.on('error', ended);
      socket.on('close', ended);
      socket.on('end', ended);
    }
  }

  #sideEnded(socket: Socket): void {
    if (this.#closing) {
      // Both sides are finishing; the pair is done once both are.
      if (this.client.destroyed && this.upstream.destroyed) this.close();
      return;
    }
    socket.destroy();
    this.#closeDeferred = true;
    this.#finishIfFlushed();
  }

  /** After a side ended: once nothing is held or queued, end the other side (after its pending writes). */
  #finishIfFlushed(): void {
    if (!this.#closeDeferred || this.#closed || this.#proxy.blackholed) return;
    if (this.#queues.c2s.length > 0 || this.#queues.s2c.length > 0) return;
    this.#closeDeferred = false;
    this.#closing = true;
    this.client.end();
    this.upstream.end();
    // A peer that never closes its half must not keep the pair forever.
    setTimeout(() => this.close(), 1000).unref();
  }

  #receive(dir: Direction, chunk: Buffer): void {
    if (this.#closed || this.#closing) return;
    if (this.#raw) return this.#enqueue(dir, chunk);
    const cutter = this.#cutters[dir];
    const frames = cutter.push(chunk);
    const declared = cutter.peekLength();
    if (frames.length === 0 && declared !== undefined && (declared < 0 || declared > MAX_FRAME)) {
      // The first bytes are not a plausible length: a four-letter word or another protocol. Stop framing.
      this.#raw = true;
      this.#enqueue(dir, cutter.drain());
      return;
    }
    for (const frame of frames) {
      if (this.#closed) return;
      this.#frame(dir, frame);
    }
  }

  #frame(dir: Direction, frame: Buffer): void {
    // The first frame each way is the connect request / response, never a candidate for dropping.
    if (!this.#handshake[dir]) {
      this.#handshake[dir] = true;
      return this.#enqueue(dir, frame);
    }
    const xid = frameXid(frame);
    if (dir === 'c2s') {
      if (xid !== PING_XID && this.#proxy.takeDropArm()) this.#dropping = true;
      return this.#enqueue(dir, frame);
    }
    if (this.#dropping && xid !== PING_XID && xid !== NOTIFICATION_XID) {
      // The server applied the request; its reply vanishes and the connection dies.
      this.close();
      return;
    }
    this.#enqueue(dir, frame);
  }

  #enqueue(dir: Direction, bytes: Buffer): void {
    if (bytes.length === 0) return;
    const queue = this.#queues[dir];
    const last = queue[queue.length - 1];
    const releaseAt = Math.max(Date.now() + this.#proxy.delayMs, last?.releaseAt ?? 0);
    queue.push({ bytes, releaseAt });
    this.pump(dir);
  }

  /** Writes what is due, in order; re-arms a timer for the rest; writes nothing while blackholed. */
  pump(dir: Direction): void {
    if (this.#closed || this.#proxy.blackholed) return;
    const queue = this.#queues[dir];
    const target = dir === 'c2s' ? this.upstream : this.client;
    const now = Date.now();
    while (queue.length > 0 && (queue[0] as Queued).releaseAt <= now) {
      target.write((queue.shift() as Queued).bytes);
    }
    clearTimeout(this.#timers[dir]);
    this.#timers[dir] = undefined;
    const head = queue[0];
    if (head) this.#timers[dir] = setTimeout(() => this.pump(dir), head.releaseAt - now);
    else this.#finishIfFlushed();
  }

  /** Called on restore(): whatever a delay or blackhole held is due now (and a close it hid follows it). */
  releaseAll(): void {
    for (const dir of ['c2s', 's2c'] as const) {
      for (const item of this.#queues[dir]) item.releaseAt = 0;
      this.pump(dir);
    }
    this.#finishIfFlushed();
  }

  close(): void {
    this.#end(false);
  }

  reset(): void {
    this.#end(true);
  }

  #end(reset: boolean): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timers.c2s);
    clearTimeout(this.#timers.s2c);
    for (const socket of [this.client, this.upstream]) {
      if (reset && !socket.destroyed) socket.resetAndDestroy();
      else socket.destroy();
    }
    this.#proxy.forget(this);
  }
}

class Proxy implements FaultProxy {
  readonly host: string;
  readonly #server: Server;
  readonly #upstream: { host: string; port: number };
  readonly #pairs = new Set<Pair>();
  blackholed = false;
  delayMs = 0;
  #dropArmed = false;

  constructor(server: Server, host: string, upstream: { host: string; port: number }) {
    this.#server = server;
    this.host = host;
    this.#upstream = upstream;
    server.on('connection', (client) => this.#accept(client));
  }

  get port(): number {
    const address = this.#server.address();
    if (address === null || typeof address === 'string') throw new Error('proxy is not listening');
    return address.port;
  }

  get connectString(): string {
    return `${this.host}:${this.port}`;
  }

  get connections(): number {
    return this.#pairs.size;
  }

  #accept(client: Socket): void {
    client.setNoDelay(true);
    const upstream = connect({ host: this.#upstream.host, port: this.#upstream.port });
    upstream.setNoDelay(true);
    this.#pairs.add(new Pair(this, client, upstream));
  }

  forget(pair: Pair): void {
    this.#pairs.delete(pair);
  }

  takeDropArm(): boolean {
    const armed = this.#dropArmed;
    this.#dropArmed = false;
    return armed;
  }

  cut(): void {
    for (const pair of [...this.#pairs]) pair.close();
  }

  reset(): void {
    for (const pair of [...this.#pairs]) pair.reset();
  }

  blackhole(): void {
    this.blackholed = true;
  }

  delay(ms: number): void {
    checkNumber('proxy.delay', 'ms', ms, 0, false);
    if (ms > MAX_TIMER_MS) refuse('proxy.delay', 'ms', `at most ${MAX_TIMER_MS}`, ms);
    this.delayMs = ms;
  }

  dropNextReply(): void {
    this.#dropArmed = true;
  }

  restore(): void {
    this.blackholed = false;
    this.delayMs = 0;
    this.#dropArmed = false;
    for (const pair of this.#pairs) pair.releaseAll();
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.cut();
    await closed;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** A TCP proxy on a free loopback port in front of `upstream`, with switchable faults. */
export async function startFaultProxy(upstream: { host: string; port: number }): Promise<FaultProxy> {
  checkTarget('startFaultProxy', 'upstream', upstream);
  const host = '127.0.0.1';
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  return new Proxy(server, host, upstream);
}
