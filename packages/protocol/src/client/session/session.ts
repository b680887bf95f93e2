/**
 * The session: one explicit state machine (session-state.ts) driving a loop over the hosts, one Connection at
 * a time. It owns everything whose life is the session's: the state and identity (id, password, negotiated
 * timeout, last zxid), the timers (timers.ts), the credentials (auth-replay.ts), the read-only probe, and the
 * request pipeline (../pipeline.ts). Nothing outside this folder writes any of it: the client reads it through
 * getters and asks for changes through methods.
 *
 * After a connect the Java wire order is kept: ConnectRequest, then (once it is answered) every credential,
 * then SetWatches batches, then requests queued while disconnected. After expiry the loop stops for good:
 * the client never opens a replacement session by itself.
 */
import { ClientClosedError, ConnectionLossError, SessionExpiredError, ZkError, type ConnectAttempt } from '../../errors/errors.js';
import { PROTOCOL_VERSION, SESSION_PASSWORD_LENGTH } from '../../records/constants.js';
import type { ReplyHeader } from '../../records/headers.js';
import { sleep } from '../cancel.js';
import type { Clock } from '../clock.js';
import { Connection, type HandshakeResult } from '../connection.js';
import { debug, stateChannel } from '../diagnostics.js';
import type { Dispatcher } from '../dispatcher.js';
import { HostProvider } from '../host-provider.js';
import { RequestPipeline } from '../pipeline.js';
import { Call, SessionRequest, type RequestEntry } from '../request.js';
import { closeSession, setWatches } from '../requests.js';
import { describe, Transport } from '../transport.js';
import type { SessionState, StateChange } from '../types.js';
import type { SessionWatches } from '../watches.js';
import type { SessionOptions } from './options.js';
import { ConnectFailures } from './attempts.js';
import { AuthReplay } from './auth-replay.js';
import { seekReadWriteServer } from './readonly-probe.js';
import { canTransition, isConnected, isTerminal } from './session-state.js';
import { SessionTimers } from './timers.js';

/** How long close() waits for the server to close its side after closeSession before dropping the socket. */
const CLOSE_GRACE_MS = 1000;

export class Session {
  private currentState: SessionState = 'idle';
  private id = 0n;
  private passwd: Uint8Array = new Uint8Array(SESSION_PASSWORD_LENGTH);
  private negotiated = 0;
  private highestZxid = 0n;
  private endedWith: ZkError | null = null;

  private readonly options: SessionOptions;
  private readonly clock: Clock;
  private readonly dispatcher: Dispatcher;
  private readonly watches: SessionWatches;
  private readonly hosts: HostProvider;
  private readonly pipeline: RequestPipeline;
  private readonly auth: AuthReplay;
  private readonly timers: SessionTimers;
  private conn: Connection | null = null;
  /** A session was born on a read-write server, so re-attaching to it is possible. */
  private seenRwServerBefore: boolean;
  /** Last contact with any server for the current session (clock time). */
  private lastHeard = 0;
  /** Ends the host loop's back-off sleep and the read-only probe when the session ends. */
  private readonly stopped = new AbortController();
  private probe: AbortController | null = null;
  private readonly listeners = new Set<(change: StateChange) => void>();
  private readonly failures: ConnectFailures;

  constructor(options: SessionOptions) {
    this.options = options;
    this.clock = options.clock;
    this.dispatcher = options.dispatcher;
    this.watches = options.watches;
    this.hosts = new HostProvider(options.hosts, options.shuffle);
    this.pipeline = new RequestPipeline(options.maxQueued);
    this.auth = new AuthReplay(options.credentials);
    this.failures = new ConnectFailures((error) => debug('a connect-attempt listener threw: %s', String(error)));
    this.timers = new SessionTimers(this.clock, {
      handshakeTimedOut: (limit) => this.conn?.close(new ConnectionLossError(`no handshake reply from ${this.describeConn()} within ${limit} ms`, true)),
      readTimedOut: (silent, limit) =>
        this.conn?.close(new ConnectionLossError(`nothing heard from ${this.describeConn()} for ${silent} ms (read timeout ${Math.round(limit)} ms)`, true)),
      pingDue: () => this.conn?.sendPing(),
      expired: (silent, limit) =>
        this.end('expired', new SessionExpiredError(`no server reachable for ${silent} ms (client-side expiry after ${Math.round(limit)} ms)`)),
    });
    if (options.sessionId !== undefined) {
      this.id = options.sessionId;
      this.passwd = options.sessionPassword ?? new Uint8Array(SESSION_PASSWORD_LENGTH);
    }
    // Re-attaching to a given session: it must have been born on a read-write server to be re-attachable.
    this.seenRwServerBefore = options.sessionId !== undefined;
  }

  // ---- what the client reads ------------------------------------------------------------------------

  get state(): SessionState {
    return this.currentState;
  }

  get sessionId(): bigint {
    return this.id;
  }

  /** A copy: the caller may keep it. */
  get password(): Uint8Array {
    return this.passwd.slice();
  }

  get negotiatedTimeout(): number {
    return this.negotiated;
  }

  get lastZxid(): bigint {
    return this.highestZxid;
  }

  /** Why the session ended (terminal states), else a ClientClosedError. */
  terminalError(): ZkError {
    return this.endedWith ?? new ClientClosedError();
  }

  onStateChange(listener: (change: StateChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The last failure of each host since the last handshake, oldest first. */
  connectFailures(): ConnectAttempt[] {
    return this.failures.list();
  }

  onConnectFailure(listener: (attempt: ConnectAttempt) => void): () => void {
    return this.failures.on(listener);
  }

  // ---- state machine --------------------------------------------------------------------------------

  private transition(to: SessionState, error?: ZkError): void {
    const previous = this.currentState;
    if (previous === to) return;
    if (!canTransition(previous, to)) throw new Error(`invalid session transition ${previous} → ${to}`);
    this.currentState = to;
    const sessionId = this.id;
    const change: StateChange = error === undefined ? { state: to, previous, sessionId } : { state: to, previous, sessionId, error };
    debug('state %s → %s (session 0x%s)%s', previous, to, sessionId.toString(16), error === undefined ? '' : `: ${error.message}`);
    if (stateChannel.hasSubscribers) stateChannel.publish({ sessionId, state: to, previous, error });
    // One item per listener, so a listener that throws cannot starve the others.
    for (const l of [...this.listeners]) this.dispatcher.notify(() => l(change));
  }

  start(): void {
    if (this.currentState !== 'idle') return;
    this.transition('connecting');
    this.lastHeard = this.clock.now();
    void this.runLoop();
  }

  private requestedOrNegotiated(): number {
    return this.negotiated > 0 ? this.negotiated : this.options.sessionTimeout;
  }

  private connectTimeout(): number {
    return this.options.connectTimeout ?? Math.max(100, Math.floor(this.requestedOrNegotiated() / this.hosts.size));
  }

  private describeConn(): string {
    return this.conn === null ? 'the server' : describe(this.conn.transport.address);
  }

  private async runLoop(): Promise<void> {
    const stop = this.stopped.signal;
    while (!isTerminal(this.currentState)) {
      const { host, delay } = this.hosts.next();
      if (delay > 0) await sleep(delay, { signal: stop }, this.clock).catch(() => undefined);
      if (isTerminal(this.currentState)) return;
      let transport: Transport;
      try {
        transport = await Transport.dial(host, { timeout: this.connectTimeout(), maxPacket: this.options.maxPacket, tls: this.options.tls, clock: this.clock });
      } catch (err) {
        debug('dial %s failed: %s', describe(host), (err as Error).message);
        this.failures.record(describe(host), err instanceof ZkError ? err : new ConnectionLossError(String(err), false, { cause: err }), this.clock.now());
        continue;
      }
      if (isTerminal(this.currentState)) {
        transport.destroy();
        return;
      }
      await this.runConnection(transport);
    }
  }

  /** Runs one connection until it closes. */
  private runConnection(transport: Transport): Promise<void> {
    return new Promise((resolve) => {
      const conn: Connection = new Connection(
        transport,
        {
          onHandshake: (response) => this.onHandshake(conn, response),
          onNotification: (event, zxid) => this.watches.deliver(event, zxid, this.id),
          onAuthReply: (err) => this.onAuthReply(err),
          takeReply: (header: ReplyHeader) => this.pipeline.take(header),
          onZxid: (zxid) => {
            if (zxid > this.highestZxid) this.highestZxid = zxid;
          },
          onClose: (error) => {
            this.onConnectionClosed(conn, error);
            resolve();
          },
        },
        this.options.maxPacket,
        this.clock,
      );
      this.conn = conn;
      this.timers.startHandshake(this.connectTimeout());
      const reattach = this.seenRwServerBefore && this.id !== 0n;
      conn.sendConnect(
        {
          protocolVersion: PROTOCOL_VERSION,
          lastZxidSeen: this.highestZxid,
          timeOut: this.options.sessionTimeout,
          sessionId: reattach ? this.id : 0n,
          passwd: reattach ? this.passwd : new Uint8Array(SESSION_PASSWORD_LENGTH),
        },
        this.options.canBeReadOnly,
      );
    });
  }

  private onHandshake(conn: Connection, response: HandshakeResult): void {
    if (isTerminal(this.currentState)) {
      conn.close();
      return;
    }
    if (response.timeOut <= 0) {
      this.end('expired', new SessionExpiredError('the server reports the session expired'));
      conn.close();
      return;
    }
    const previousId = this.id;
    this.id = response.sessionId;
    this.passwd = response.passwd === null ? new Uint8Array(SESSION_PASSWORD_LENGTH) : new Uint8Array(response.passwd);
    this.negotiated = response.timeOut;
    const readOnly = response.readOnly === true;
    if (!readOnly) this.seenRwServerBefore = true;
    this.lastHeard = this.clock.now();
    this.hosts.connected();
    this.failures.clear();
    this.timers.stopExpiry();
    this.timers.startConnection(conn, this.negotiated);
    if (previousId !== 0n && previousId !== response.sessionId) {
      debug('new session 0x%s replaces read-only session 0x%s', response.sessionId.toString(16), previousId.toString(16));
    }
    // Credentials, then watches, then whatever queued up while we were away.
    this.auth.replay(conn);
    for (const batch of this.watches.replayBatches()) {
      this.pipeline.prime(conn, new SessionRequest(setWatches(batch, this.highestZxid), (e) => debug('SetWatches failed: %s', (e as Error).message)));
    }
    this.pipeline.open(conn);
    this.transition(readOnly ? 'connected-read-only' : 'connected');
    if (readOnly) this.startReadWriteProbe(conn);
  }

  private onConnectionClosed(conn: Connection, error: ZkError): void {
    if (this.conn !== conn) return;
    this.conn = null;
    this.timers.stopConnection();
    // Closed before the handshake was answered: this host failed to give us a session.
    if (conn.lastHeard === 0 && !isTerminal(this.currentState)) this.failures.record(describe(conn.transport.address), error, this.clock.now());
    // The last frame counts as server contact for the client-side expiry clock (a connection that never
    // answered the handshake has lastHeard 0 and counts for nothing).
    if (conn.lastHeard > this.lastHeard && this.negotiated > 0) this.lastHeard = conn.lastHeard;
    this.probe?.abort();
    this.probe = null;
    this.pipeline.lost(error);
    this.auth.connectionLost(error);
    if (isConnected(this.currentState)) {
      this.transition('suspended', error);
      if (this.options.whileSuspended === 'fail') this.pipeline.failQueued(() => new ConnectionLossError('not connected (whileSuspended: fail)', false));
    }
    if (this.currentState === 'suspended' || (this.currentState === 'connecting' && this.negotiated > 0)) {
      this.timers.startExpiry(this.lastHeard, this.negotiated);
    }
  }

  private onAuthReply(err: number): void {
    const failure = this.auth.answered(err);
    if (failure !== undefined) this.end('auth-failed', failure);
  }

  // ---- requests -------------------------------------------------------------------------------------

  /** Routes a request by state: send, queue, or fail. */
  submit(entry: RequestEntry): void {
    switch (this.currentState) {
      case 'idle':
        entry.fail(new ConnectionLossError('not connected: call connect() first', false));
        return;
      case 'expired':
      case 'auth-failed':
      case 'closed':
        entry.fail(this.terminalError());
        return;
      case 'suspended':
        if (this.options.whileSuspended === 'fail') {
          entry.fail(new ConnectionLossError('not connected (whileSuspended: fail)', false));
          return;
        }
        break;
      case 'connecting':
      case 'connected':
      case 'connected-read-only':
        break;
    }
    this.pipeline.submit(entry);
  }

  /** A caller gave up on a request that is still queued: it is never sent. */
  cancel(entry: RequestEntry): void {
    this.pipeline.cancel(entry);
  }

  addAuth(scheme: string, auth: Uint8Array): Promise<void> {
    if (isTerminal(this.currentState)) return Promise.reject(this.terminalError());
    if (this.currentState === 'idle') return Promise.reject(new ConnectionLossError('not connected: call connect() first', false));
    return new Promise<void>((resolve, reject) => {
      const conn = this.conn;
      const open = isConnected(this.currentState) && conn !== null && conn.phase === 'open';
      this.auth.add({ scheme, auth }, open ? conn : null, {
        resolve: () => this.dispatcher.complete(resolve),
        reject: (error) => this.dispatcher.complete(() => reject(error)),
      });
    });
  }

  private startReadWriteProbe(conn: Connection): void {
    if (this.hosts.size < 2) return;
    const controller = new AbortController();
    this.probe = controller;
    const current = conn.transport.address;
    void seekReadWriteServer({
      hosts: this.hosts.hosts,
      current,
      timeout: () => this.connectTimeout(),
      tls: this.options.tls,
      clock: this.clock,
      signal: AbortSignal.any([controller.signal, this.stopped.signal]),
      found: (host) => {
        if (this.conn !== conn) return;
        debug('read-write server found at %s: leaving read-only %s', describe(host), describe(current));
        this.hosts.prefer(host);
        conn.close(new ConnectionLossError('moving to a read-write server', true));
      },
    });
  }

  // ---- the end --------------------------------------------------------------------------------------

  /** Moves to a terminal state: everything waiting fails, watchers are told, the loop stops. */
  private end(to: 'expired' | 'auth-failed' | 'closed', error: ZkError): void {
    if (this.currentState === 'closed') return;
    if (isTerminal(this.currentState)) {
      // close() after expiry/auth failure: everything was already failed with the real reason.
      if (to === 'closed') this.transition('closed');
      return;
    }
    this.endedWith = error;
    this.transition(to, error);
    this.timers.stopAll();
    this.stopped.abort();
    this.probe = null;
    this.pipeline.failQueued(() => error);
    this.auth.fail(error);
    this.watches.failAll(error);
    if (to !== 'closed') this.conn?.close(error);
  }

  /**
   * Closes the session on the server when connected (closeSession, then socket close); requests already on the
   * wire still get their replies before the socket goes.
   */
  async close(): Promise<void> {
    if (this.currentState === 'closed') return;
    const conn = this.conn;
    const wasConnected = isConnected(this.currentState) && conn !== null && conn.phase === 'open';
    this.end('closed', new ClientClosedError());
    if (!wasConnected || conn === null) {
      conn?.close(new ClientClosedError());
      return;
    }
    const call = new Call<void>(closeSession(), this.dispatcher, { timeout: Math.min(2000, Math.max(100, this.negotiated)) }, this.pipeline, this.clock);
    this.pipeline.prime(conn, call);
    try {
      await call.promise;
    } catch (err) {
      debug('closeSession failed: %s', (err as Error).message);
    }
    conn.end();
    // end() flushes; destroy after a grace period in case the server never closes its side.
    this.clock.setTimeout(() => conn.close(), CLOSE_GRACE_MS, { unref: true });
  }
}
