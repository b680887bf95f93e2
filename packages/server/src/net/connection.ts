/**
 * One client connection: length-prefixed framing with frames bounded by maxBuffer (a longer length prefix,
 * like any malformed input, closes this connection only), the handshake as the first frame, then requests in
 * order; replies and notifications go out through one reused writer. Back-pressure: while the socket's
 * buffer is full, no further request is handled (not even the rest of a chunk already read) and reading
 * pauses, so a client that does not read its replies stops being served rather than growing the server's
 * memory. Nothing thrown while handling a frame escapes the socket handler.
 */
import { FrameSplitter, JuteWriter, writeReplyHeader, writeWatcherEvent } from '@zkts/protocol/codec';
import type { Socket } from 'node:net';

import type { ClockTimer, Logger } from '../options.js';
import type { ClientConnection, ServerCore } from '../requests/core.js';
import { dispatch } from '../requests/dispatch.js';
import { answer, knownWord } from '../four-letter/commands.js';
import { ConnectionStats } from '../four-letter/stats.js';
import { handshake } from '../session/handshake.js';
import type { AuthId } from '../tree/acl.js';

/** The connection's address as Java's getHostAddress prints it (IPv4-mapped IPv6 unwrapped). */
function hostAddress(socket: Socket): string {
  const addr = socket.remoteAddress ?? '';
  return addr.startsWith('::ffff:') ? addr.slice(7) : addr;
}

let nextConnectionId = 1;
const EMPTY = new Uint8Array(0);

/** A client connection: the ClientConnection the request handlers use, over a socket. */
export class Connection implements ClientConnection {
  readonly id = nextConnectionId++;
  sessionId = 0n;
  sessionTimeout = 0;
  readonly authInfo: AuthId[];
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly stats: ConnectionStats;
  /** The connection's first bytes until four have arrived: a four-letter word, or a frame's length. */
  private firstBytes: Buffer | undefined = Buffer.alloc(0);
  private readonly splitter: FrameSplitter;
  private readonly writer = new JuteWriter(4096);
  private state: 'handshake' | 'open' | 'closing' | 'closed' = 'handshake';
  /** Frames read but not yet handled (waiting for the socket to drain), from `head` on. */
  private queue: Uint8Array[] = [];
  private head = 0;
  /** Closes a connection that has no session yet once it has been quiet for sessionlessConnectionTimeout. */
  private sessionless: ClockTimer | undefined;

  constructor(
    private readonly core: ServerCore,
    private readonly socket: Socket,
    private readonly logger: Logger,
    private readonly onClosed: (conn: Connection) => void,
  ) {
    this.remoteAddress = hostAddress(socket);
    this.remotePort = socket.remotePort ?? 0;
    this.stats = new ConnectionStats(core.options.clock.now());
    core.live.add(this);
    this.authInfo = [{ scheme: 'ip', id: this.remoteAddress }];
    this.splitter = new FrameSplitter({ maxPacket: core.options.maxBuffer });
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('drain', () => {
      if (this.ending()) return;
      socket.resume();
      this.pump();
    });
    socket.on('error', (err) => this.logger.debug(`connection ${this.id}: ${err.message}`));
    socket.on('close', () => this.onSocketClosed());
    this.touchSessionless();
  }

  private touchSessionless(): void {
    const { clock, sessionlessConnectionTimeout } = this.core.options;
    if (this.sessionless !== undefined) clock.clearTimeout(this.sessionless);
    this.sessionless = undefined;
    if (this.state !== 'handshake') return;
    this.sessionless = clock.setTimeout(() => {
      this.logger.warn(`connection ${this.id} from ${this.remoteAddress}: no session after ${sessionlessConnectionTimeout} ms; closing it`);
      this.destroy();
    }, sessionlessConnectionTimeout);
  }

  /** Whether the connection is on its way out (no more requests are processed). */
  private ending(): boolean {
    return this.state === 'closing' || this.state === 'closed';
  }

  private onData(chunk: Buffer): void {
    if (this.ending()) return;
    if (this.sessionless !== undefined) this.touchSessionless();
    if (this.firstBytes !== undefined) {
      const head = this.firstBytes.length === 0 ? chunk : Buffer.concat([this.firstBytes, chunk]);
      if (head.length < 4) {
        this.firstBytes = head;
        return;
      }
      this.firstBytes = undefined;
      if (this.fourLetterWord(head)) return;
      chunk = head;
    }
    try {
      for (const frame of this.splitter.push(chunk)) this.queue.push(frame);
    } catch (err) {
      this.logger.warn(`connection ${this.id} from ${this.remoteAddress}: ${(err as Error).message}; closing it`);
      this.destroy();
      return;
    }
    this.pump();
  }

  /** NIOServerCnxn.checkFourLetterWord: answers a known word in the first four bytes, then closes. */
  private fourLetterWord(head: Buffer): boolean {
    const word = knownWord(head);
    if (word === undefined) return false;
    this.core.stats.received++;
    this.stats.received++;
    this.logger.info(`processing ${word} command from ${this.remoteAddress}`);
    this.socket.write(answer(this.core, word, this, this.core.live));
    this.close('four-letter word');
    return true;
  }

  /** Handles queued frames in order until the queue is empty or the socket's buffer is full. */
  private pump(): void {
    while (this.head < this.queue.length) {
      if (this.ending()) return;
      if (this.socket.writableNeedDrain) {
        this.socket.pause();
        return;
      }
      const frame = this.queue[this.head] as Uint8Array;
      this.queue[this.head++] = EMPTY;
      if (this.head === this.queue.length) {
        this.queue = [];
        this.head = 0;
      }
      try {
        const start = this.core.options.clock.now();
        const wasHandshake = this.state === 'handshake';
        if (this.state === 'handshake') {
          if (handshake(this.core, this, frame)) this.state = 'open';
          if (this.state !== 'handshake') this.touchSessionless();
        } else {
          dispatch(this.core, this, frame, this.remoteAddress);
        }
        this.core.stats.requestDone(this.stats, frame, wasHandshake, this.core.tree.lastZxid, start, this.core.options.clock.now());
      } catch (err) {
        this.logger.warn(`connection ${this.id}: request failed (${(err as Error).message}); closing it`);
        this.destroy();
        return;
      }
    }
  }

  private send(bytes: Uint8Array): void {
    if (this.state === 'closed' || this.socket.destroyed) return;
    // The writer's view is reused for the next frame: the socket gets its own copy.
    this.socket.write(Buffer.from(bytes));
    this.stats.sent++;
    this.core.stats.packetSent(bytes.length - 4);
  }

  reply(xid: number, zxid: bigint, err: number, body?: (w: JuteWriter) => void): void {
    const w = this.writer.reset();
    w.beginFrame();
    writeReplyHeader(w, { xid, zxid, err });
    if (body !== undefined && err === 0) body(w);
    this.send(w.endFrame());
  }

  sendFrame(write: (w: JuteWriter) => void): void {
    const w = this.writer.reset();
    w.beginFrame();
    write(w);
    this.send(w.endFrame());
  }

  /** A watch event: ReplyHeader{-1, -1, 0} + WatcherEvent{type, SyncConnected, path}. */
  notify(type: number, path: string): void {
    if (this.state !== 'open') return;
    this.reply(-1, -1n, 0, (w) => writeWatcherEvent(w, { type, state: 3, path }));
  }

  close(reason: string): void {
    if (this.state === 'closing' || this.state === 'closed') return;
    this.logger.debug(`connection ${this.id}: closing (${reason})`);
    this.state = 'closing';
    this.core.connectionClosed(this);
    this.socket.end();
    // A peer that never reads would keep a half-closed socket forever.
    setTimeout(() => this.destroy(), 1000).unref();
  }

  /** Drops the connection at once (hostile or broken input, server shutdown). */
  destroy(): void {
    if (this.state !== 'closing' && this.state !== 'closed') this.core.connectionClosed(this);
    if (this.state !== 'closed') this.state = 'closing';
    this.socket.destroy();
  }

  private onSocketClosed(): void {
    this.core.live.delete(this);
    if (this.sessionless !== undefined) this.core.options.clock.clearTimeout(this.sessionless);
    if (this.state !== 'closing') this.core.connectionClosed(this);
    this.state = 'closed';
    this.onClosed(this);
  }
}
