/**
 * The protocol over one transport: the headerless handshake, then request/reply framing, pings, auth packets
 * and notifications, and the write batching. It owns the requests it wrote until their replies (`InFlight`,
 * below): `send` numbers a request, frames it and puts it in flight; `onFrames` reads each reply's header and
 * hands the reply to the oldest request in flight, which must carry its xid (ZooKeeper answers one session's
 * requests in order; anything else breaks the protocol, Java's "Xid out of order"). Everything else it reports to the session
 * through `ConnectionEvents`. It never throws out of a socket handler: any decoding or ordering failure closes
 * the connection with a ProtocolError, and the close fails every request still in flight.
 */
import type { JuteReader } from '../../codec/jute/reader.js';
import { borrowReader, giveBackReader } from './frame-reader.js';
import { JuteWriter } from '../../codec/jute/writer.js';
import { ConnectionLossError, InvalidArgumentError, ProtocolError, ZkError } from '../../errors/errors.js';
import type { Clock } from '../clock.js';
import { readConnectResponse, writeConnectRequest, type ConnectRequest, type ConnectResponse } from '../../codec/records/connect.js';
import { fillReplyHeader, replyHeaderSlot, writeRequestHeader, type ReplyHeader } from '../../codec/records/headers.js';
import { readWatcherEvent, type WatcherEvent } from '../../codec/records/watches.js';
import { OpCode, Xid } from '../../codec/records/constants.js';
import { KeeperCode } from '../../errors/codes.js';
import type { RequestEntry } from '../request.js';
import { requestRecord } from '../requests.js';
import { describe, type Transport, type TransportHandlers } from './transport.js';
import { flushSoon } from './flush-soon.js';
import { InFlight } from './in-flight.js';
import { debug } from '../diagnostics.js';

export type HandshakeResult = ConnectResponse & { readOnly: boolean | undefined };

export interface ConnectionEvents {
  onHandshake(conn: Connection, response: HandshakeResult): void;
  /** The xid of the next request: the session's, so none repeats across its connections. */
  takeXid(): number;
  onNotification(event: WatcherEvent, zxid: bigint): void;
  onAuthReply(err: number): void;
  /** The server answered a ping. */
  onPingReply(): void;
  /** The server answered -124: it demands authentication this connection lacks, and closes it. */
  onAuthRequired(): void;
  /** A normal reply carried zxid > 0. */
  onZxid(zxid: bigint): void;
  /** Exactly once, when the transport is gone (after the requests in flight have failed). */
  onClose(conn: Connection, error: ZkError): void;
}

/** Write coalescing under a deep pipeline (see Connection.flush). */
const HOLD_ABOVE = 256;
const RESUME_BELOW = 128;
const HOLD_MAX_BYTES = 256 * 1024;
/** The out buffer starts just above a handshake (49 bytes) and a ping (12); a busy one grows (doubling) once. */
const CONNECTION_WRITER_SIZE = 64;
/**
 * An idle connection (nothing in flight) gives its out buffer back after each write: thousands of idle sessions
 * share a handful of spares (up to 8, of at most 4 KiB) instead of keeping a writer, buffer and DataView each.
 */
const spareWriters: JuteWriter[] = [];
/** Every reply's header is read into this one object: one frame is handled at a time, nobody keeps it. */
const replyHeader = replyHeaderSlot();
const AUTH_PACKET = requestRecord(OpCode.auth);
/** The bits of Connection.flags (see the accessors there). */
const FLAG_SESSION_MOVED = 1, FLAG_FLUSH_QUEUED = 2, FLAG_PING_ONLY = 4, FLAG_BLOCKED = 8, FLAG_HELD = 16, FLAG_FORCED = 32;
/** The requests that change the tree (the server commits them before it answers). */
const TXN_OPS: ReadonlySet<number> = new Set([
  OpCode.create, OpCode.create2, OpCode.createContainer, OpCode.createTTL, OpCode.delete, OpCode.deleteContainer,
  OpCode.setData, OpCode.setACL, OpCode.multi, OpCode.reconfig,
]);

export type ConnectionPhase = 'handshake' | 'open' | 'closed';

export class Connection implements TransportHandlers {
  readonly transport: Transport;
  phase: ConnectionPhase = 'handshake';
  /** Clock time of the last frame received (0: nothing yet, not even the handshake) / sent. */
  lastHeard = 0;
  lastSent: number;
  sessionId = 0n;
  /** Clock time the handshake re-attached the session after a drop (-1: a first connect, a new session, no handshake yet). */
  reattachedAt = -1;
  private askedSession = 0n;
  /** Requests written on this connection and not answered yet; their count is the hold rule's measure of server work. */
  private readonly inFlight = new InFlight();
  /**
   * Outgoing frames written since the last flush. Every frame queued in one tick leaves in one socket.write
   * (one syscall) on process.nextTick, in send order (a request with nothing else in flight leaves at once). While the socket reports back-pressure (write returned
   * false) frames keep accumulating here and the flush waits for 'drain' (each is a request its caller still
   * awaits, so callers bound it).
   */
  private writer: JuteWriter | null = null;
  /** Requests in `writer` not yet handed to the socket (already in flight). */
  private unflushed = 0;
  /** Its yes/no marks (FLAG_*, read and written by name through the accessors below): one field, not six. */
  private flags = 0;
  /** Made the first time the socket pushes back (an idle session never needs it). */
  private drainFn: (() => void) | null = null;
  /** 'host:port', made on first use (traces, reports). */
  private serverText: string | null = null;
  private readonly events: ConnectionEvents;
  private readonly maxPacket: number;
  private readonly clock: Clock;

  constructor(transport: Transport, events: ConnectionEvents, maxPacket: number, clock: Clock) {
    this.transport = transport;
    this.events = events;
    this.maxPacket = maxPacket;
    this.clock = clock;
    this.lastSent = clock.now();
    transport.attach(this);
  }

  /** A reply said SESSION_MOVED: another connection, on another server, holds the session now. */
  get sessionMoved(): boolean { return (this.flags & FLAG_SESSION_MOVED) !== 0; }
  private set sessionMoved(on: boolean) { this.flags = on ? this.flags | FLAG_SESSION_MOVED : this.flags & ~FLAG_SESSION_MOVED; }
  private get flushQueued(): boolean { return (this.flags & FLAG_FLUSH_QUEUED) !== 0; }
  private set flushQueued(on: boolean) { this.flags = on ? this.flags | FLAG_FLUSH_QUEUED : this.flags & ~FLAG_FLUSH_QUEUED; }
  /** What is queued is one ping and nothing else: its flush leaves `lastSent` at the time the ping was asked for. */
  private get pingOnly(): boolean { return (this.flags & FLAG_PING_ONLY) !== 0; }
  private set pingOnly(on: boolean) { this.flags = on ? this.flags | FLAG_PING_ONLY : this.flags & ~FLAG_PING_ONLY; }
  /** The socket pushed back: nothing is written until 'drain'. */
  private get blocked(): boolean { return (this.flags & FLAG_BLOCKED) !== 0; }
  private set blocked(on: boolean) { this.flags = on ? this.flags | FLAG_BLOCKED : this.flags & ~FLAG_BLOCKED; }
  /** A flush was put off because enough requests are already on the wire (see `flush`). */
  private get held(): boolean { return (this.flags & FLAG_HELD) !== 0; }
  private set held(on: boolean) { this.flags = on ? this.flags | FLAG_HELD : this.flags & ~FLAG_HELD; }
  /** The next flush writes even if the hold rule says wait. */
  private get forced(): boolean { return (this.flags & FLAG_FORCED) !== 0; }
  private set forced(on: boolean) { this.flags = on ? this.flags | FLAG_FORCED : this.flags & ~FLAG_FORCED; }

  /** 'host:port' of the server. */
  get server(): string {
    return (this.serverText ??= describe(this.transport.address));
  }

  /** Requests written and not answered yet. */
  get pending(): number {
    return this.inFlight.size;
  }

  /** The out buffer, taken from the spares when this connection holds none. */
  private out(): JuteWriter {
    return (this.writer ??= spareWriters.pop() ?? new JuteWriter(CONNECTION_WRITER_SIZE));
  }

  /** `resuming`: the session had a connection before (not a first connect, even with a given session id). */
  sendConnect(request: ConnectRequest, readOnly: boolean, resuming = false): void {
    const w = this.out();
    w.beginFrame();
    writeConnectRequest(w, request, readOnly);
    this.askedSession = resuming ? request.sessionId : 0n;
    w.endFrame();
    this.queueFlush();
  }

  /**
   * Numbers `entry`, frames it for the next flush and puts it in flight. When it cannot leave (a frame the
   * server would refuse, a record that cannot be encoded) the entry fails and nothing of it stays in the buffer.
   */
  send(entry: RequestEntry): void {
    if (this.phase !== 'open') throw new Error('send on a connection that is not open');
    const xid = this.events.takeXid();
    const w = this.out();
    const start = w.length;
    this.pingOnly = false;
    let size: number;
    try {
      w.beginFrame();
      writeRequestHeader(w, { xid, type: entry.op });
      entry.write(w);
      size = w.endFrameLength();
    } catch (err) {
      // Never leave half a frame behind for the next flush.
      w.truncate(start);
      entry.fail(err instanceof ZkError ? err : new InvalidArgumentError('request', `cannot encode: ${String(err)}`, { cause: err }));
      return;
    }
    // Guarded again here (callers check sizes earlier) so a frame the server would refuse never leaves.
    if (size > this.maxPacket) {
      w.truncate(start);
      entry.fail(new InvalidArgumentError('request', `${size} bytes exceed the max packet of ${this.maxPacket} bytes`));
      return;
    }
    entry.xid = xid;
    entry.phase = 'sent';
    const inFlight = this.inFlight;
    inFlight.push(entry);
    this.unflushed++;
    // Traced only when someone listened as it started (request-trace.ts): the bytes on the wire, prefix included.
    if (entry.trace !== null) entry.trace.written(this.sessionId, xid, this.server, size + 4);
    // Alone on the connection, a read leaves at once: waiting for the tick's batch would only delay the round
    // trip its caller waits on (~1% of a sequential get's latency, measured side by side). A write alone waits
    // for the code that made it to yield (a microtask), so what that code sends with it (a lock's create and
    // getChildren) shares its socket write (a syscall less on both sides), for a fraction of a microsecond of
    // a round trip through the server's commit pipeline. Later requests of the tick batch up behind it.
    if (start === 0 && inFlight.size === 1) {
      if (TXN_OPS.has(entry.op)) this.queueFlushSoon();
      else this.flush();
    } else if (!this.held || w.length >= HOLD_MAX_BYTES) {
      // While held (and below the cap) a flush would only hold again: the reply that ends the hold queues it.
      this.queueFlush();
    }
  }

  sendPing(): void {
    // Frames already waiting to leave (e.g. behind back-pressure) keep the session alive as well as a ping,
    // once they leave: a held batch goes now.
    if (this.writer !== null && this.writer.length > 0) {
      this.release();
      return;
    }
    // A lone ping counts as sent when it was asked for, not when the next tick flushed it (a loaded loop may run
    // that ticks later): the next one is then due exactly an interval after this one was, where the session's
    // timer is armed, instead of a few ms after it and one more wake-up per ping to find that out.
    this.lastSent = this.clock.now();
    this.pingOnly = true;
    this.sendHeaderOnly(Xid.PING, OpCode.ping);
  }

  sendAuth(scheme: string, auth: Uint8Array): void {
    const w = this.out();
    const start = w.length;
    this.pingOnly = false;
    try {
      w.beginFrame();
      writeRequestHeader(w, { xid: Xid.AUTH, type: OpCode.auth });
      AUTH_PACKET.write(w, { type: 0, scheme, auth });
      w.endFrame();
    } catch (err) {
      w.truncate(start);
      throw err;
    }
    this.release();
  }

  private sendHeaderOnly(xid: number, op: number): void {
    const w = this.out();
    w.beginFrame();
    writeRequestHeader(w, { xid, type: op });
    w.endFrameLength();
    this.release();
  }

  private queueFlush(): void {
    if (this.flushQueued || this.blocked) return;
    this.flushQueued = true;
    process.nextTick(flushLater, this);
  }

  /** The flush of a write alone on the connection: once the running code yields, not at the tick's end. */
  private queueFlushSoon(): void {
    if (this.flushQueued || this.blocked) return;
    this.flushQueued = true;
    flushSoon(this);
  }

  /** Ends a hold: what is queued leaves on the next flush whatever is on the wire (pings, auth, resumes). */
  private release(): void {
    this.held = false;
    this.forced = true;
    this.queueFlush();
  }

  /**
   * Writes every queued frame in one socket write, unless the socket asked us to wait for 'drain', or enough
   * requests are on the wire already. Every write to a loopback or LAN socket costs a syscall and wakes the
   * server; a client keeping hundreds of requests in flight would otherwise write a few frames per reply it
   * reads. While at least HOLD_ABOVE requests are unanswered the server has work queued, so new frames wait
   * (up to HOLD_MAX_BYTES) until the replies bring that below RESUME_BELOW: one write then carries the whole
   * batch while the server still has up to RESUME_BELOW requests to work on, so it is not left idle. A held
   * request is behind at least that many others anyway (the server answers one session in order). A due ping
   * or an auth packet ends the hold at once. If the connection drops first, held requests fail like sent ones
   * (ConnectionLossError with outcomeUnknown): a caller cannot tell them apart, and need not.
   */
  flush(): void {
    this.flushQueued = false;
    if (this.blocked) return;
    const w = this.writer;
    if (w === null || w.length === 0) return;
    if (!this.forced && this.inFlight.size - this.unflushed >= HOLD_ABOVE && w.length < HOLD_MAX_BYTES) {
      this.held = true;
      return;
    }
    this.held = false;
    this.forced = false;
    const bytes = w.toBytes();
    w.reset();
    if (this.inFlight.size === 0) this.giveBackWriter(w);
    this.unflushed = 0;
    if (this.pingOnly) this.pingOnly = false;
    else this.lastSent = this.clock.now();
    if (!this.transport.write(bytes)) {
      this.blocked = true;
      this.transport.onceDrain(
        (this.drainFn ??= (): void => {
          this.blocked = false;
          this.flush();
        }),
      );
    }
  }

  /** Nothing in flight, nothing queued: the out buffer goes back to the spares until the next frame. */
  private giveBackWriter(w: JuteWriter): void {
    this.writer = null;
    if (spareWriters.length < 8 && w.capacity <= 4096) spareWriters.push(w);
  }

  /** Drops the connection; the session then fails what was in flight. */
  close(error?: ZkError): void {
    this.transport.destroy(error);
  }

  /** Flushes and closes (after closeSession). */
  end(): void {
    // Whatever is still queued (even behind back-pressure) goes before the FIN.
    const w = this.writer;
    if (w !== null && w.length > 0) {
      const bytes = w.toBytes();
      w.reset();
      this.unflushed = 0;
      this.held = false;
      this.lastSent = this.clock.now();
      this.transport.write(bytes);
    }
    this.transport.end();
  }

  /** TransportHandlers: a read brought whole frames; one clock read for all of them. */
  onRead(): void {
    if (this.phase !== 'closed') this.lastHeard = this.clock.now();
  }

  /** TransportHandlers: one frame, `bytes[start, end)`, valid during this call. */
  onFrame(bytes: Uint8Array, start: number, end: number): void {
    // An earlier frame of the read may have ended the connection (a bad reply): the rest is dropped with it.
    if (this.phase === 'closed') return;
    const r = borrowReader().reset(bytes, start, end, this.maxPacket);
    try {
      if (this.phase === 'handshake') {
        const response = readConnectResponse(r);
        this.phase = 'open';
        this.sessionId = response.sessionId;
        if (this.askedSession !== 0n && response.sessionId === this.askedSession && response.timeOut > 0) this.reattachedAt = this.lastHeard;
        this.events.onHandshake(this, response);
        return;
      }
      this.onReply(fillReplyHeader(r, replyHeader), r);
    } catch (err) {
      const error = err instanceof ZkError ? err : new ProtocolError(`cannot process frame: ${String(err)}`, undefined, { cause: err });
      debug('closing connection: %s', error.message);
      this.close(error);
    } finally {
      giveBackReader(r, bytes);
    }
  }

  private onReply(header: ReplyHeader, r: JuteReader): void {
    switch (header.xid) {
      case Xid.PING:
        // A server enforcing authentication refuses even pings (-124) before it hangs up.
        if (header.err === KeeperCode.SESSION_CLOSED_REQUIRE_SASL_AUTH) this.events.onAuthRequired();
        else this.events.onPingReply();
        return;
      case Xid.AUTH:
        this.events.onAuthReply(header.err);
        return;
      case Xid.NOTIFICATION:
        this.events.onNotification(readWatcherEvent(r), header.zxid);
        return;
    }
    const entry = this.inFlight.take(header);
    if (this.held && this.inFlight.size - this.unflushed < RESUME_BELOW) this.release();
    if (header.zxid > 0n) this.events.onZxid(header.zxid);
    if (header.err === KeeperCode.SESSION_MOVED) this.sessionMoved = true;
    entry.reply(header, r);
    // The request got its own error; the session ends with it too (the SASL step reports its own).
    if (header.err === KeeperCode.SESSION_CLOSED_REQUIRE_SASL_AUTH && entry.op !== OpCode.sasl) this.events.onAuthRequired();
  }

  /** TransportHandlers: the transport is gone (exactly once). */
  onClose(error: ZkError | undefined): void {
    if (this.phase === 'closed') return;
    const wasHandshake = this.phase === 'handshake';
    this.phase = 'closed';
    const cause = error ?? new ConnectionLossError('connection closed', true);
    debug('connection to %s:%d closed%s: %s', this.transport.address.host, this.transport.address.port, wasHandshake ? ' during handshake' : '', cause.message);
    // Written here, so lost with this connection: the outcome is unknown (the server may have applied them).
    for (const entry of this.inFlight.drain()) {
      entry.fail(new ConnectionLossError(`connection lost with the request in flight: ${cause.message}`, true, { cause }));
    }
    this.events.onClose(this, cause);
  }
}

/** nextTick's callback, the connection its argument: no flush closure kept per connection. */
function flushLater(conn: Connection): void {
  conn.flush();
}
