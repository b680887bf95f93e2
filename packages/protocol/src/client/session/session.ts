/**
 * The session: one explicit state machine (session-state.ts) driving a loop over the hosts, one Connection at
 * a time. It owns everything whose life is the session's: the state and identity (id, password, negotiated
 * timeout, last zxid), the watches (../watches/), the timers (timers.ts), the credentials (auth-replay.ts), the
 * read-only probe, the xids, and the requests that wait for a connection (request-queue.ts); each Connection
 * owns the requests it wrote until their replies (connection.ts). Nothing outside this folder writes any of
 * it: the client reads it through getters and asks for changes through methods.
 *
 * Java's wire order: ConnectRequest, SASL when configured (sasl.ts), every credential (auth-replay.ts), SetWatches,
 * then requests queued while disconnected; `connected` comes once SASL is accepted and every credential answered.
 */
import { AuthFailedError, ClientClosedError, ConnectionLossError, SessionClosedRequireSaslAuthError, SessionExpiredError, ZkError, type ConnectAttempt } from '../../errors/errors.js';
import type { WatcherEvent } from '../../codec/records/watches.js';
import { sessionClock, type Clock } from '../clock.js';
import { debug } from '../diagnostics.js';
import type { Dispatcher } from '../dispatcher.js';
import type { HostAddress } from '../connect-string.js';
import { SessionRequest, type RequestEntry } from '../request.js';
import { setWatches } from '../requests.js';
import type { SessionState, StateChange } from '../types.js';
import { ClientWatches } from '../watches/watches.js';
import { keptSessionOptions, type KeptSessionOptions, type SessionOptions } from './options.js';
import { SessionReport } from './session-report.js';
import { AuthReplay, whenCredentialsAnswered } from './auth-replay.js';
import { closeLimit, closeOnServer, farewell } from './close-session.js';
import { Connection, type ConnectionEvents, type HandshakeResult } from './connection.js';
import { HostProvider, dropKind } from './host-provider.js';
import { attemptLimit } from './reconnect-delay.js';
import { RequestQueue } from './request-queue.js';
import { describe, Transport } from './transport.js';
import { SessionIdentity } from './identity.js';
import { startProbe } from './readonly-probe.js';
import { StateMachine, isConnected, refusalIn } from './session-state.js';
import { authenticate } from './sasl.js';
import { SessionTimers, type TimerTargets } from './timers.js';

export class Session implements ConnectionEvents, TimerTargets {
  private readonly machine: StateMachine;
  private readonly identity: SessionIdentity;
  private endedWith: ZkError | null = null;
  private readonly options: KeptSessionOptions;
  private readonly clock: Clock;
  private readonly dispatcher: Dispatcher;
  /** The session's watches: it delivers notifications, replays them on each connection and ends them. */
  readonly watches: ClientWatches;
  private readonly hosts: HostProvider;
  private readonly queue: RequestQueue;
  /** Made with the first credential (most sessions have none). */
  private auth: AuthReplay | null;
  private readonly timers: SessionTimers;
  private conn: Connection | null = null;
  /** `conn` once it takes the callers' requests (after the handshake, SASL and the session's own requests). */
  private sending: Connection | null = null;
  /** Last contact with any server for the current session (clock time). */
  private lastHeard = 0;
  /** Ends the host loop's back-off sleep and the read-only probe when the session ends; made when first asked for (stopSignal). */
  private stopper: AbortController | null = null;
  private probe: AbortController | null = null;
  /** A renewal is under way: persistent watches hear `resync` once the new session is connected. */
  private renewing = false;
  /** The connection whose SASL exchange is under way: no pings on it until the server has accepted us. */
  private authenticating: Connection | null = null;
  /** Counters, channels, log lines and connect-failure listeners of the session's life (session-report.ts). */
  readonly report: SessionReport;

  constructor(options: SessionOptions) {
    this.options = keptSessionOptions(options);
    this.clock = sessionClock(options.clock);
    this.dispatcher = options.dispatcher;
    this.machine = new StateMachine(options.dispatcher);
    this.watches = new ClientWatches(options.dispatcher);
    this.hosts = new HostProvider(options.hosts, options.shuffle, options.random, options.reconnectDelay);
    this.queue = new RequestQueue(options.maxQueued);
    this.auth = options.credentials.length > 0 ? new AuthReplay(options.credentials) : null;
    this.report = new SessionReport(options.logger, options.clock, options.tls?.cert !== undefined || options.tls?.pfx !== undefined);
    // The session is the timers' target itself: no adapter object and closures per session.
    this.timers = new SessionTimers(this.clock, this);
    this.identity = new SessionIdentity(options.sessionId === undefined ? undefined : { sessionId: options.sessionId, password: options.sessionPassword });
  }

  // ---- what the client reads ------------------------------------------------------------------------

  get state(): SessionState { return this.machine.state; }

  get renews(): boolean { return this.options.renewSession; }

  /** No state will follow: closed, auth-failed, or expired without renewal. */
  get isOver(): boolean {
    const state = this.machine.state;
    return state === 'closed' || state === 'auth-failed' || (state === 'expired' && !this.options.renewSession);
  }

  get sessionId(): bigint { return this.identity.id; }

  /** A copy: the caller may keep it. */
  get password(): Uint8Array { return this.identity.password.slice(); }

  get negotiatedTimeout(): number { return this.identity.negotiated; }

  get lastZxid(): bigint { return this.identity.highestZxid; }

  /** Requests written on the current connection and not answered yet, and requests waiting for a connection. */
  get load(): { inFlight: number; queued: number } { return { inFlight: this.conn?.pending ?? 0, queued: this.queue.size }; }

  /** Why the session ended (terminal states), else a ClientClosedError. */
  terminalError(): ZkError { return this.endedWith ?? new ClientClosedError(); }

  onStateChange(listener: (change: StateChange) => void): () => void { return this.machine.onChange(listener); }

  /** The last failure of each host since the last handshake, oldest first, then the attempt under way (attempts.ts). */
  connectFailures(): ConnectAttempt[] { return this.report.connectFailures(); }

  onConnectFailure(listener: (attempt: ConnectAttempt) => void): () => void { return this.report.onConnectFailure(listener); }

  // ---- lifecycle -------------------------------------------------------------------------------------

  private transition(to: SessionState, error?: ZkError): void {
    this.machine.move(to, { sessionId: this.identity.id, generation: this.identity.generation }, error);
  }

  start(): void {
    if (this.machine.state !== 'idle') return;
    this.transition('connecting');
    this.lastHeard = this.clock.now();
    void this.runLoop();
  }

  /** Per attempt: the option, else the negotiated (before any session: the requested) timeout's share (attemptLimit). */
  private connectTimeout(): number {
    return this.options.connectTimeout ?? attemptLimit(this.identity.negotiated > 0 ? this.identity.negotiated : this.options.sessionTimeout, this.hosts.size);
  }

  /** Aborted once the session has ended (endedWith), even when asked for afterwards. */
  private get stopSignal(): AbortSignal { const stopper = (this.stopper ??= new AbortController()); if (this.endedWith !== null) stopper.abort(); return stopper.signal; }

  private describeConn(): string { return this.conn?.server ?? 'the server'; }

  /** Dials until a connection is up, then returns: that connection's close runs it again (onClose). */
  private async runLoop(): Promise<void> {
    while (!this.isOver) {
      const { host, delay, within, reason } = this.hosts.next(this.clock.now());
      // A drop during the wait (an expiry) asks for another wait and reason: the next turn takes them.
      if (delay > 0 && !(await this.hosts.waitToDial(delay, this.stopSignal, this.clock))) continue;
      if (this.isOver) return;
      const limit = within === undefined ? this.connectTimeout() : Math.min(within, this.connectTimeout());
      this.report.dialing(this.identity.id, describe(host), delay, reason);
      let transport: Transport;
      this.report.attempting(describe(host), 'dial');
      try {
        transport = await Transport.dial(host, { timeout: limit, maxPacket: this.options.maxPacket, tls: this.options.tls, clock: this.clock });
      } catch (err) {
        this.report.dialFailed(this.identity.id, describe(host), err instanceof ZkError ? err : new ConnectionLossError(String(err), false, { cause: err }));
        continue;
      }
      if (this.isOver) {
        transport.destroy();
        return;
      }
      // Not awaited: an idle session then holds no suspended loop (its generator, promises and reactions).
      return this.runConnection(transport, limit);
    }
  }

  /** Starts one connection; the session itself takes its events (no closures per connection). */
  private runConnection(transport: Transport, handshakeLimit: number): void {
    const conn = new Connection(transport, this, this.options.maxPacket, this.clock);
    this.conn = conn;
    this.timers.startHandshake(handshakeLimit);
    this.report.attempting(describe(transport.address), 'handshake');
    const request = this.identity.connectRequest(this.options.sessionTimeout);
    conn.sendConnect(request, this.options.canBeReadOnly, this.identity.negotiated > 0);
    if (request.sessionId === 0n && this.options.sasl === null) this.auth?.replay(conn);
  }

  // ---- TimerTargets: called by this session's timers only -------------------------------------------

  handshakeTimedOut(limit: number): void {
    this.conn?.close(new ConnectionLossError(`no handshake reply from ${this.describeConn()} within ${limit} ms`, true));
  }
  readTimedOut(silent: number, limit: number): void {
    this.conn?.close(new ConnectionLossError(`nothing heard from ${this.describeConn()} for ${silent} ms (read timeout ${Math.round(limit)} ms)`, true));
  }
  pingDue(): void {
    if (this.authenticating === null) this.conn?.sendPing();
  }
  expired(silent: number, limit: number): void {
    this.expire(new SessionExpiredError(`no server reachable for ${silent} ms (client-side expiry after ${Math.round(limit)} ms)`));
  }

  // ---- ConnectionEvents: called by this session's connections only ---------------------------------

  onNotification(event: WatcherEvent, zxid: bigint): void {
    this.watches.deliver(event, zxid, this.identity.id);
  }
  onAuthRequired(): void {
    this.end('auth-failed', new SessionClosedRequireSaslAuthError());
  }
  takeXid(): number { return this.identity.takeXid(); }
  onZxid(zxid: bigint): void { this.identity.sawZxid(zxid); }
  onPingReply(): void { this.timers.pingAnswered(); }

  onHandshake(conn: Connection, response: HandshakeResult): void {
    if (this.isOver) {
      conn.close();
      return;
    }
    this.report.handshake(response.timeOut > 0 ? response.sessionId : this.identity.id, conn.server);
    if (response.timeOut <= 0) {
      // Closed first, so the renewal's next connection is not mistaken for this one.
      this.conn = null;
      this.auth?.connectionLost(new ConnectionLossError('the server ended the connection at the handshake', false));
      const expired = new SessionExpiredError('the server reports the session expired');
      conn.close(expired);
      this.expire(expired);
      return;
    }
    const previousId = this.identity.adopt(response);
    this.report.adopted(previousId, response.sessionId, response.timeOut, conn.server);
    const readOnly = response.readOnly === true;
    this.lastHeard = this.clock.now();
    this.hosts.connected();
    this.report.connectedAgain();
    this.timers.stopExpiry();
    this.timers.startConnection(conn, this.identity.negotiated);
    // SASL, then the credentials: nothing of the caller's leaves, and the state does not move, until both are done.
    const open = (): void => {
      if (this.conn === conn && !this.isOver) this.open(conn, readOnly);
    };
    const sasl = this.options.sasl;
    if (sasl === null) return whenCredentialsAnswered(this.auth, conn, open);
    this.authenticating = conn;
    void authenticate(sasl, conn).then((error) => {
      if (this.authenticating === conn) this.authenticating = null;
      if (this.conn !== conn || this.isOver) return;
      if (!(error instanceof ConnectionLossError)) this.report.auth(this.identity.id, conn.server, `sasl:${sasl.name}`, error);
      if (error === null) whenCredentialsAnswered(this.auth, conn, open);
      else if (error instanceof ConnectionLossError) conn.close(error);
      else this.end('auth-failed', error);
    });
  }

  /** Watches, then whatever queued up while we were away; then the state says connected. */
  private open(conn: Connection, readOnly: boolean): void {
    for (const batch of this.watches.replayBatches()) {
      conn.send(new SessionRequest(setWatches(batch, this.identity.highestZxid), (e) => debug('SetWatches failed: %s', (e as Error).message)));
    }
    for (const entry of this.queue.takeAll()) conn.send(entry);
    this.sending = conn;
    this.report.opened(this.identity.id, this.identity.negotiated, readOnly);
    this.transition(readOnly ? 'connected-read-only' : 'connected');
    if (this.renewing) {
      this.renewing = false;
      this.watches.renewed();
    }
    if (readOnly) this.startReadWriteProbe(conn);
  }

  /** A connection is gone (each one once; one runs at a time): the loop's next round follows, as a microtask. */
  onClose(conn: Connection, error: ZkError): void {
    queueMicrotask(() => void this.runLoop());
    if (conn.lastHeard > 0) this.report.connectionClosed(conn.sessionId, conn.server, error);
    if (this.conn !== conn) return;
    this.conn = null;
    this.timers.stopConnection();
    // Closed before the handshake was answered: this host failed to give us a session.
    if (conn.lastHeard === 0 && !this.isOver) this.report.dialFailed(this.identity.id, conn.server, error);
    // The last frame counts as server contact for the client-side expiry (0: no handshake answer, counts for nothing).
    const negotiated = this.identity.negotiated;
    if (conn.lastHeard > this.lastHeard && negotiated > 0) this.lastHeard = conn.lastHeard;
    if (conn.lastHeard > 0 && !this.isOver) {
      const now = this.clock.now();
      const delay = this.hosts.dropped(dropKind(conn, now), negotiated, now);
      // An expiry closes its connection itself, and reports itself.
      if (this.machine.state !== 'expired') this.report.lost(this.identity.id, conn.server, error, delay, this.hosts.nextReason);
    }
    this.probe?.abort();
    this.probe = null;
    this.sending = null;
    this.auth?.connectionLost(error);
    if (isConnected(this.machine.state)) {
      this.transition('suspended', error);
      if (this.options.whileSuspended === 'fail') this.queue.failQueued(() => new ConnectionLossError('not connected (whileSuspended: fail)', false));
    }
    if (this.machine.state === 'suspended' || (this.machine.state === 'connecting' && negotiated > 0)) {
      this.timers.startExpiry(this.lastHeard, negotiated);
    }
  }

  onAuthReply(err: number): void {
    const { scheme, error } = (this.auth ??= new AuthReplay([])).answered(err);
    if (this.conn !== null) this.report.auth(this.identity.id, this.conn.server, scheme, error);
    if (error instanceof AuthFailedError) this.end('auth-failed', error);
  }

  // ---- requests -------------------------------------------------------------------------------------

  /** Routes a request by state: send, queue, or fail. */
  submit(entry: RequestEntry): void {
    const refused = refusalIn(this.machine.state, this.options.whileSuspended);
    if (refused !== null) entry.fail(refused === 'terminal' ? this.terminalError() : refused);
    else if (this.sending !== null) this.sending.send(entry);
    else this.queue.add(entry);
  }

  /** A new host list; if the host provider says move, the loop re-attaches the session on the chosen server. */
  updateServers(hosts: HostAddress[]): boolean {
    const conn = this.conn;
    const current = conn !== null && conn.phase === 'open' ? conn.transport.address : undefined;
    const move = this.hosts.update(hosts, current);
    if (move && conn !== null) conn.close(new ConnectionLossError('moving to another server to rebalance the ensemble', true));
    return move;
  }

  /** A caller gave up on a request that is still queued: it is never sent. */
  cancel(entry: RequestEntry): void {
    this.queue.cancel(entry);
  }

  addAuth(scheme: string, auth: Uint8Array): Promise<void> {
    if (this.isOver) return Promise.reject(this.terminalError());
    if (this.machine.state === 'idle') return Promise.reject(new ConnectionLossError('not connected: call connect() first', false));
    return new Promise<void>((resolve, reject) => {
      (this.auth ??= AuthReplay.startedOn(this.sending)).add({ scheme, auth }, this.conn, {
        resolve: () => this.dispatcher.complete(resolve),
        reject: (error) => this.dispatcher.complete(() => reject(error)),
      });
    });
  }

  private startReadWriteProbe(conn: Connection): void {
    if (this.hosts.size < 2) return;
    this.probe = new AbortController();
    startProbe(conn, this.hosts, this.probe.signal, this.stopSignal, { timeout: () => this.connectTimeout(), tls: this.options.tls, clock: this.clock }, () => this.conn === conn);
  }

  // ---- the end --------------------------------------------------------------------------------------

  /**
   * The session is gone. Without renewal that is the end. With it, everything of the old session fails or
   * ends (queued requests, one-shot watches; persistent watches too unless renewWatches), credentials stay
   * for the new session, and the loop goes on to open one: `expired` is followed at once by `connecting`.
   */
  private expire(error: SessionExpiredError): void {
    if (this.isOver) return;
    this.report.expired(this.identity.id, error, this.options.renewSession, this.identity.negotiated);
    if (!this.options.renewSession) return this.end('expired', error);
    this.transition('expired', error);
    this.timers.stopAll();
    this.probe?.abort();
    this.probe = null;
    this.queue.failQueued(() => error);
    this.watches.sessionEnded(error, this.options.renewWatches);
    this.conn?.close(error);
    this.identity.renew();
    this.hosts.dropped('expired', 0, this.clock.now());
    this.renewing = this.options.renewWatches;
    this.transition('connecting');
  }

  /** Moves to a terminal state: everything waiting fails, watchers are told, the loop stops. */
  private end(to: 'expired' | 'auth-failed' | 'closed', error: ZkError): void {
    if (this.machine.state === 'closed') return;
    if (this.isOver) {
      // close() after expiry/auth failure: everything was already failed with the real reason.
      if (to === 'closed') this.transition('closed');
      return;
    }
    this.endedWith = error;
    if (to === 'auth-failed') this.report.authFailed(this.identity.id, error);
    this.transition(to, error);
    this.timers.stopAll();
    this.stopper?.abort();
    this.probe = null;
    this.queue.failQueued(() => error);
    this.auth?.fail(error);
    this.watches.sessionEnded(error, false);
    if (to !== 'closed') this.conn?.close(error);
  }

  /** Ends the session on the server: closeSession on the open connection, else a farewell (close-session.ts). Resolves true when it may still be open there (no server answered in time). */
  async close(): Promise<boolean> {
    if (this.machine.state === 'closed') return false;
    const { conn, identity, clock, options } = this;
    const wasConnected = isConnected(this.machine.state) && conn !== null && conn.phase === 'open';
    const request = identity.connectRequest(options.sessionTimeout);
    const between = !wasConnected && !this.isOver && this.machine.state !== 'expired' && request.sessionId !== 0n && clock.now() - this.lastHeard < identity.negotiated;
    this.report.closed(identity.id, this.isOver);
    this.end('closed', new ClientClosedError());
    if (!wasConnected) conn?.close(new ClientClosedError());
    const ended = wasConnected
      ? await closeOnServer(conn, this, this.dispatcher, clock, identity.negotiated)
      : !between || (await farewell({ hosts: this.hosts.hosts, request, dial: { clock, maxPacket: options.maxPacket, tls: options.tls }, dispatcher: this.dispatcher, takeXid: () => identity.takeXid() }, closeLimit(identity.negotiated)));
    if (!ended) this.report.lingering(identity.id, identity.negotiated);
    return !ended;
  }
}
