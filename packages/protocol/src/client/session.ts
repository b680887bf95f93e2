/**
 * The session layer: one explicit state machine (session-state.ts) driving a loop over the hosts, one
 * Connection at a time, and the timers derived from the negotiated timeout:
 *
 *   ping          when nothing was sent for readTimeout/2 (≈ t/3), at least every 10 s
 *   read timeout  2/3·t without a frame ⇒ the server is frozen or unreachable: drop it, try the next host
 *   expiry        4/3·t without any server contact while a session exists ⇒ report `expired` ourselves
 *   connect       per host: `connectTimeout` option, else t/hostCount (before the first session: requested/hostCount)
 *
 * Re-priming after a connect follows the Java wire order: ConnectRequest, then (once it is answered) every
 * credential, then SetWatches batches, then requests queued while disconnected. After expiry the loop
 * stops for good: the client never opens a replacement session by itself.
 */
import {
  AuthFailedError,
  ClientClosedError,
  ConnectionLossError,
  ServerError,
  SessionExpiredError,
  type ZkError,
} from '../errors/errors.js';
import { KeeperCode } from '../errors/codes.js';
import { EventType, OpCode, PROTOCOL_VERSION, SESSION_PASSWORD_LENGTH } from '../records/constants.js';
import { writeSetWatches, writeSetWatches2, type WatcherEvent } from '../records/watches.js';
import type { HostAddress } from './connect-string.js';
import { Connection, type HandshakeResult } from './connection.js';
import { debug, eventChannel, stateChannel } from './diagnostics.js';
import { Dispatcher } from './dispatcher.js';
import { HostProvider } from './host-provider.js';
import { XidCounter } from './pending-queue.js';
import { probeReadWrite } from './readonly-probe.js';
import type { RequestEntry } from './request.js';
import { canTransition, isConnected, isTerminal } from './session-state.js';
import { describe, Transport } from './transport.js';
import type { ConnectionOptions } from 'node:tls';
import type { EventTypeName, SessionState, StateChange } from './types.js';
import { WatchManager, setWatchesBatches } from './watch-manager.js';

export interface SessionOptions {
  hosts: HostAddress[];
  shuffle: boolean;
  sessionTimeout: number;
  connectTimeout: number | undefined;
  maxPacket: number;
  canBeReadOnly: boolean;
  tls: ConnectionOptions | undefined;
  whileSuspended: 'queue' | 'fail';
  maxQueued: number;
  credentials: { scheme: string; auth: Uint8Array }[];
  sessionId: bigint | undefined;
  sessionPassword: Uint8Array | undefined;
}

interface Credential {
  scheme: string;
  auth: Uint8Array;
}

interface AuthWaiter {
  resolve(): void;
  reject(error: ZkError): void;
}

const MAX_PING_INTERVAL = 10_000;
const EVENT_NAMES: Record<number, EventTypeName> = {
  [EventType.NodeCreated]: 'created',
  [EventType.NodeDeleted]: 'deleted',
  [EventType.NodeDataChanged]: 'dataChanged',
  [EventType.NodeChildrenChanged]: 'childrenChanged',
};

export class Session {
  state: SessionState = 'idle';
  sessionId = 0n;
  password: Uint8Array = new Uint8Array(SESSION_PASSWORD_LENGTH);
  negotiatedTimeout = 0;
  lastZxid = 0n;
  /** Why the session ended (terminal states only). */
  terminalError: ZkError | null = null;
  readonly watches = new WatchManager();
  readonly dispatcher: Dispatcher;
  readonly hosts: HostProvider;

  private readonly options: SessionOptions;
  private readonly xids = new XidCounter();
  private conn: Connection | null = null;
  /** Requests waiting for a connection, oldest first. */
  private outgoing: RequestEntry[] = [];
  private readonly credentials: Credential[] = [];
  /** One slot per auth packet on the wire (FIFO like the replies): who waits for its answer. */
  private authSlots: AuthWaiter[][] = [];
  /** addAuth calls made while disconnected: answered by the first replay. */
  private authWaitersForNextPrime: AuthWaiter[] = [];
  private seenRwServerBefore: boolean;
  /** Last contact with any server for the current session (ms). */
  private lastHeard = 0;
  private tickTimer: ReturnType<typeof setInterval> | null = null;
  private wakeSleep: (() => void) | null = null;
  private readonly listeners = new Set<(change: StateChange) => void>();
  private probe: AbortController | null = null;

  constructor(options: SessionOptions, onListenerError: (error: unknown) => void) {
    this.options = options;
    this.hosts = new HostProvider(options.hosts, options.shuffle);
    this.dispatcher = new Dispatcher(onListenerError);
    for (const c of options.credentials) this.credentials.push({ scheme: c.scheme, auth: c.auth });
    if (options.sessionId !== undefined) {
      this.sessionId = options.sessionId;
      this.password = options.sessionPassword ?? new Uint8Array(SESSION_PASSWORD_LENGTH);
    }
    // Re-attaching to a given session: it must have been born on a read-write server to be re-attachable.
    this.seenRwServerBefore = options.sessionId !== undefined;
  }

  // ---- state machine --------------------------------------------------------------------------------

  onStateChange(listener: (change: StateChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private transition(to: SessionState, error?: ZkError): void {
    const previous = this.state;
    if (previous === to) return;
    if (!canTransition(previous, to)) throw new Error(`invalid session transition ${previous} → ${to}`);
    this.state = to;
    const change: StateChange = error === undefined ? { state: to, previous, sessionId: this.sessionId } : { state: to, previous, sessionId: this.sessionId, error };
    debug('state %s → %s (session 0x%s)%s', previous, to, this.sessionId.toString(16), error === undefined ? '' : `: ${error.message}`);
    if (stateChannel.hasSubscribers) stateChannel.publish({ sessionId: this.sessionId, state: to, previous, error });
    // One item per listener, so a listener that throws cannot starve the others.
    for (const l of [...this.listeners]) this.dispatcher.notify(() => l(change));
  }

  // ---- lifecycle ------------------------------------------------------------------------------------

  start(): void {
    if (this.state !== 'idle') return;
    this.transition('connecting');
    this.lastHeard = Date.now();
    this.armTick();
    void this.runLoop();
  }

  private requestedOrNegotiated(): number {
    return this.negotiatedTimeout > 0 ? this.negotiatedTimeout : this.options.sessionTimeout;
  }

  private connectTimeout(): number {
    return this.options.connectTimeout ?? Math.max(100, Math.floor(this.requestedOrNegotiated() / this.hosts.size));
  }

  private armTick(): void {
    if (this.tickTimer !== null) clearInterval(this.tickTimer);
    const every = Math.max(10, Math.min(500, Math.floor(this.requestedOrNegotiated() / 15)));
    this.tickTimer = setInterval(() => this.tick(), every);
  }

  private async runLoop(): Promise<void> {
    while (!isTerminal(this.state)) {
      const { host, delay } = this.hosts.next();
      if (delay > 0) await this.sleep(delay);
      if (isTerminal(this.state)) return;
      let transport: Transport;
      try {
        transport = await Transport.dial(host, { timeout: this.connectTimeout(), maxPacket: this.options.maxPacket, tls: this.options.tls });
      } catch (err) {
        debug('dial %s failed: %s', describe(host), (err as Error).message);
        continue;
      }
      if (isTerminal(this.state)) {
        transport.destroy();
        return;
      }
      await this.runConnection(transport);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakeSleep = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeSleep = done;
    });
  }

  /** Runs one connection until it closes. */
  private runConnection(transport: Transport): Promise<void> {
    return new Promise((resolve) => {
      const openedAt = Date.now();
      const conn: Connection = new Connection(
        transport,
        {
          onHandshake: (response) => this.onHandshake(conn, response),
          onNotification: (event, zxid) => this.onNotification(event, zxid),
          onAuthReply: (err) => this.onAuthReply(err),
          onZxid: (zxid) => {
            if (zxid > this.lastZxid) this.lastZxid = zxid;
          },
          onClose: (error) => {
            this.onConnectionClosed(conn, error);
            resolve();
          },
        },
        this.xids,
        this.options.maxPacket,
      );
      this.conn = conn;
      this.handshakeDeadline = openedAt + this.connectTimeout();
      const reattach = this.seenRwServerBefore && this.sessionId !== 0n;
      conn.sendConnect(
        {
          protocolVersion: PROTOCOL_VERSION,
          lastZxidSeen: this.lastZxid,
          timeOut: this.options.sessionTimeout,
          sessionId: reattach ? this.sessionId : 0n,
          passwd: reattach ? this.password : new Uint8Array(SESSION_PASSWORD_LENGTH),
        },
        this.options.canBeReadOnly,
      );
    });
  }

  private handshakeDeadline = 0;

  private onHandshake(conn: Connection, response: HandshakeResult): void {
    if (isTerminal(this.state)) {
      conn.close();
      return;
    }
    if (response.timeOut <= 0) {
      this.end('expired', new SessionExpiredError('the server reports the session expired'));
      conn.close();
      return;
    }
    const previousId = this.sessionId;
    this.sessionId = response.sessionId;
    this.password = response.passwd === null ? new Uint8Array(SESSION_PASSWORD_LENGTH) : new Uint8Array(response.passwd);
    const timeoutChanged = this.negotiatedTimeout !== response.timeOut;
    this.negotiatedTimeout = response.timeOut;
    const readOnly = response.readOnly === true;
    if (!readOnly) this.seenRwServerBefore = true;
    this.lastHeard = Date.now();
    this.hosts.connected();
    if (timeoutChanged) this.armTick();
    if (previousId !== 0n && previousId !== response.sessionId) {
      debug('new session 0x%s replaces read-only session 0x%s', response.sessionId.toString(16), previousId.toString(16));
    }
    this.prime(conn);
    this.transition(readOnly ? 'connected-read-only' : 'connected');
    if (readOnly) this.startReadWriteProbe(conn);
  }

  /** Credentials, then watches, then whatever queued up while we were away. */
  private prime(conn: Connection): void {
    const waitersForFirst = this.authWaitersForNextPrime;
    this.authWaitersForNextPrime = [];
    this.authSlots = [];
    for (const cred of this.credentials) {
      conn.sendAuth(cred.scheme, cred.auth);
      // addAuth calls made while disconnected learn the outcome from their own credential's reply;
      // they are attached to the last slot, which is theirs (they were appended last).
      this.authSlots.push([]);
    }
    if (waitersForFirst.length > 0) {
      const last = this.authSlots[this.authSlots.length - 1];
      if (last === undefined) for (const w of waitersForFirst) w.resolve();
      else last.push(...waitersForFirst);
    }
    const snapshot = this.watches.snapshot();
    for (const batch of setWatchesBatches(snapshot)) {
      const record = {
        relativeZxid: this.lastZxid,
        dataWatches: batch.data,
        existWatches: batch.exist,
        childWatches: batch.child,
      };
      const entry: RequestEntry = {
        op: batch.needsSetWatches2 ? OpCode.setWatches2 : OpCode.setWatches,
        path: undefined,
        phase: 'queued',
        xid: 0,
        write: (w) => {
          if (batch.needsSetWatches2) {
            writeSetWatches2(w, { ...record, persistentWatches: batch.persistent, persistentRecursiveWatches: batch.persistentRecursive });
          } else {
            writeSetWatches(w, record);
          }
        },
        reply: (header) => {
          if (header.err !== 0) debug('SetWatches failed with %d', header.err);
        },
        fail: () => undefined,
      };
      conn.send(entry);
    }
    const queued = this.outgoing;
    this.outgoing = [];
    for (const entry of queued) conn.send(entry);
  }

  private onConnectionClosed(conn: Connection, error: ZkError): void {
    if (this.conn === conn) this.conn = null;
    // The last frame counts as server contact for the client-side expiry clock (a connection that never
    // answered the handshake has lastHeard 0 and counts for nothing).
    if (conn.lastHeard > this.lastHeard && this.negotiatedTimeout > 0) {
      this.lastHeard = conn.lastHeard;
    }
    this.probe?.abort();
    this.probe = null;
    const slots = this.authSlots;
    this.authSlots = [];
    for (const slot of slots) for (const w of slot) w.reject(new ConnectionLossError(`connection lost before the auth reply: ${error.message}`, true, { cause: error }));
    if (isConnected(this.state)) {
      this.transition('suspended', error);
      if (this.options.whileSuspended === 'fail') this.failOutgoing(() => new ConnectionLossError('not connected (whileSuspended: fail)', false));
    }
  }

  // ---- timers ---------------------------------------------------------------------------------------

  private tick(): void {
    const now = Date.now();
    const conn = this.conn;
    if (conn !== null) {
      if (conn.phase === 'handshake') {
        if (now > this.handshakeDeadline) conn.close(new ConnectionLossError(`no handshake reply from ${describe(conn.transport.address)} within ${this.connectTimeout()} ms`, true));
      } else if (conn.phase === 'open') {
        if (conn.lastHeard > this.lastHeard) this.lastHeard = conn.lastHeard;
        const readTimeout = (this.negotiatedTimeout * 2) / 3;
        if (now - conn.lastHeard > readTimeout) {
          conn.close(new ConnectionLossError(`nothing heard from ${describe(conn.transport.address)} for ${now - conn.lastHeard} ms (read timeout ${Math.round(readTimeout)} ms)`, true));
        } else if (now - conn.lastSent >= Math.min(readTimeout / 2, MAX_PING_INTERVAL)) {
          conn.sendPing();
        }
      }
    }
    if (this.state === 'suspended' || (this.state === 'connecting' && this.negotiatedTimeout > 0)) {
      const expiry = (this.negotiatedTimeout * 4) / 3;
      if (now - this.lastHeard > expiry) {
        this.end('expired', new SessionExpiredError(`no server reachable for ${now - this.lastHeard} ms (client-side expiry after ${Math.round(expiry)} ms)`));
      }
    }
  }

  // ---- frames ---------------------------------------------------------------------------------------

  private onNotification(event: WatcherEvent, zxid: bigint): void {
    const type = EVENT_NAMES[event.type];
    const serverPath = event.path ?? '';
    if (eventChannel.hasSubscribers) eventChannel.publish({ sessionId: this.sessionId, type: type ?? String(event.type), path: serverPath, zxid });
    // The server sends only node events; session events (None) are ours to make, so anything else is ignored.
    if (type === undefined) return;
    const watchers = this.watches.materialize(type, serverPath);
    if (watchers.size === 0) return;
    for (const w of watchers) this.dispatcher.notify(() => w.fire({ type, serverPath, zxid }));
  }

  private onAuthReply(err: number): void {
    const slot = this.authSlots.shift() ?? [];
    if (err === KeeperCode.AUTH_FAILED) {
      const error = new AuthFailedError('the server rejected the credentials');
      for (const w of slot) w.reject(error);
      this.end('auth-failed', error);
      return;
    }
    if (err !== 0) {
      for (const w of slot) w.reject(new ServerError(err));
      return;
    }
    for (const w of slot) w.resolve();
  }

  // ---- requests -------------------------------------------------------------------------------------

  /** Routes a request by state: send, queue, or fail. */
  submit(entry: RequestEntry): void {
    switch (this.state) {
      case 'idle':
        entry.fail(new ConnectionLossError('not connected: call connect() first', false));
        return;
      case 'expired':
      case 'auth-failed':
      case 'closed':
        entry.fail(this.terminalErrorFor());
        return;
      case 'connected':
      case 'connected-read-only':
        if (this.conn !== null && this.conn.phase === 'open') {
          this.conn.send(entry);
          return;
        }
        break;
      case 'suspended':
        if (this.options.whileSuspended === 'fail') {
          entry.fail(new ConnectionLossError('not connected (whileSuspended: fail)', false));
          return;
        }
        break;
      case 'connecting':
        break;
    }
    if (this.outgoing.length >= this.options.maxQueued) {
      entry.fail(new ConnectionLossError(`not connected and ${this.outgoing.length} requests already queued (maxQueued)`, false));
      return;
    }
    this.outgoing.push(entry);
  }

  unqueue(entry: RequestEntry): void {
    const i = this.outgoing.indexOf(entry);
    if (i >= 0) this.outgoing.splice(i, 1);
  }

  private failOutgoing(makeError: () => ZkError): void {
    const queued = this.outgoing;
    this.outgoing = [];
    for (const entry of queued) entry.fail(makeError());
  }

  terminalErrorFor(): ZkError {
    if (this.terminalError !== null) return this.terminalError;
    return new ClientClosedError();
  }

  addAuth(scheme: string, auth: Uint8Array): Promise<void> {
    if (isTerminal(this.state)) return Promise.reject(this.terminalErrorFor());
    if (this.state === 'idle') return Promise.reject(new ConnectionLossError('not connected: call connect() first', false));
    this.credentials.push({ scheme, auth });
    return new Promise<void>((resolve, reject) => {
      const waiter: AuthWaiter = {
        resolve: () => this.dispatcher.complete(resolve),
        reject: (error) => this.dispatcher.complete(() => reject(error)),
      };
      const conn = this.conn;
      if (isConnected(this.state) && conn !== null && conn.phase === 'open') {
        conn.sendAuth(scheme, auth);
        this.authSlots.push([waiter]);
      } else {
        this.authWaitersForNextPrime.push(waiter);
      }
    });
  }

  // ---- read-only ------------------------------------------------------------------------------------

  /** On a read-only server: look for a read-write one with `isro`, backing off 100 ms → 60 s. */
  private startReadWriteProbe(conn: Connection): void {
    if (this.hosts.size < 2) return;
    const controller = new AbortController();
    this.probe = controller;
    const current = conn.transport.address;
    void (async () => {
      let delay = 100;
      while (!controller.signal.aborted) {
        await new Promise((r) => setTimeout(r, delay).unref());
        delay = Math.min(delay * 2, 60_000);
        for (const host of this.hosts.hosts) {
          if (controller.signal.aborted) return;
          if (host.host === current.host && host.port === current.port) continue;
          const rw = await probeReadWrite(host, { timeout: this.connectTimeout(), tls: this.options.tls, signal: controller.signal });
          if (rw && !controller.signal.aborted && this.conn === conn) {
            debug('read-write server found at %s: leaving read-only %s', describe(host), describe(current));
            this.hosts.prefer(host);
            conn.close(new ConnectionLossError('moving to a read-write server', true));
            return;
          }
        }
      }
    })();
  }

  // ---- the end --------------------------------------------------------------------------------------

  /** Moves to a terminal state: everything waiting fails, watchers are told, the loop stops. */
  end(to: 'expired' | 'auth-failed' | 'closed', error: ZkError): void {
    if (this.state === 'closed') return;
    if (isTerminal(this.state)) {
      // close() after expiry/auth failure: everything was already failed with the real reason.
      if (to === 'closed') this.transition('closed');
      return;
    }
    this.terminalError = error;
    this.transition(to, error);
    if (this.tickTimer !== null) clearInterval(this.tickTimer);
    this.tickTimer = null;
    this.probe?.abort();
    this.probe = null;
    this.wakeSleep?.();
    this.failOutgoing(() => error);
    for (const w of this.authWaitersForNextPrime.splice(0)) w.reject(error);
    const watchers = this.watches.takeAll();
    for (const w of watchers) this.dispatcher.notify(() => w.fail(error));
    if (to !== 'closed') this.conn?.close(error);
  }

  /**
   * close(): closes the session on the server when connected (closeSession, then socket close); requests
   * already on the wire still get their replies before the socket goes.
   */
  async close(closeRequest: (conn: Connection) => Promise<void>): Promise<void> {
    if (this.state === 'closed') return;
    const conn = this.conn;
    const wasConnected = isConnected(this.state) && conn !== null && conn.phase === 'open';
    this.end('closed', new ClientClosedError());
    if (wasConnected && conn !== null) {
      try {
        await closeRequest(conn);
      } catch (err) {
        debug('closeSession failed: %s', (err as Error).message);
      }
      conn.end();
      // end() flushes; destroy after a grace period in case the server never closes its side.
      setTimeout(() => conn.close(), 1000).unref();
    } else {
      conn?.close(new ClientClosedError());
    }
  }

  /** The live connection, for closeSession. */
  get connection(): Connection | null {
    return this.conn;
  }
}
