/**
 * Ending a session on the server: closeSession, then the socket. The session's listeners have heard 'closed'
 * before the request leaves; requests already on the wire still get their replies first (the server answers in
 * order), and the socket is dropped after a grace period in case the server never closes its side.
 *
 * A session whose connection is down when close() comes (a cut, a restarting server) is still open on the
 * server, and so are its ephemeral nodes: a lock, a leader's claim, a queue's receipt, which the caller closed
 * to give up. Java's client and kazoo leave it to expire. Here close() makes one more connection that reattaches
 * the session and ends it (a farewell), trying each host in turn within the same time limit as a closeSession.
 */
import type { ConnectRequest } from '../../codec/records/connect.js';
import type { WatcherEvent } from '../../codec/records/watches.js';
import { ConnectionLossError, type ZkError } from '../../errors/errors.js';
import type { Clock, ClockTimer } from '../clock.js';
import type { HostAddress } from '../connect-string.js';
import { debug } from '../diagnostics.js';
import type { Dispatcher } from '../dispatcher.js';
import { Call, type Canceller } from '../request.js';
import { closeSession } from '../requests.js';
import { Connection, type ConnectionEvents, type HandshakeResult } from './connection.js';
import { Transport, type DialOptions } from './transport.js';

/** How long close() waits for the server to close its side after closeSession before dropping the socket. */
const CLOSE_GRACE_MS = 1000;

/** The time close() gives the server to end the session: a closeSession's reply, or a whole farewell. */
export function closeLimit(negotiated: number): number {
  return Math.min(2000, Math.max(100, negotiated));
}

/** Resolves true once the server answered closeSession (the session and its ephemeral nodes are gone). */
export async function closeOnServer(conn: Connection, canceller: Canceller, dispatcher: Dispatcher, clock: Clock, negotiated: number): Promise<boolean> {
  const call = new Call<void>(closeSession(), { dispatcher, canceller, clock, stats: null }, { timeout: closeLimit(negotiated) });
  // The session's listeners hear 'closed' before the server does: a lock's `lost` or a leader's signal must fire
  // before the ephemeral nodes go and someone else can take over. A listener may be waiting a turn behind a reply
  // (dispatcher.ts), so the request takes its place behind them in the same queue.
  dispatcher.notify(() => conn.send(call));
  let ended = true;
  try {
    await call.promise;
  } catch (err) {
    ended = false;
    debug('closeSession failed: %s', (err as Error).message);
  }
  conn.end();
  // end() flushes; destroy after the grace period.
  clock.setTimeout(() => conn.close(), CLOSE_GRACE_MS, { unref: true });
  return ended;
}

/** What a farewell needs of the session it ends. */
export interface FarewellOf {
  readonly hosts: readonly HostAddress[];
  /** The handshake that reattaches the session (its id and password). */
  readonly request: ConnectRequest;
  readonly dial: Omit<DialOptions, 'timeout'>;
  readonly dispatcher: Dispatcher;
  /** The session's xids, so the closeSession's never repeats one of its earlier requests. */
  takeXid(): number;
}

/**
 * Ends a session between connections (see the header): each host in turn, `limit` ms in all, shared among them.
 * Resolves true once the server ended the session (closeSession answered, or its handshake said the session had
 * expired already), false when no host did in time (the session then ends when its timeout runs out).
 */
export async function farewell(of: FarewellOf, limit: number): Promise<boolean> {
  const clock = of.dial.clock;
  const deadline = clock.now() + limit;
  for (let i = 0; i < of.hosts.length; i++) {
    // An equal share of what is left for each host still to try: a frozen host (it accepts, then never
    // answers) must not take the time of the ones after it.
    const share = Math.floor((deadline - clock.now()) / (of.hosts.length - i));
    if (share <= 0) break;
    const hostDeadline = clock.now() + share;
    let transport: Transport;
    try {
      transport = await Transport.dial(of.hosts[i] as HostAddress, { ...of.dial, timeout: share });
    } catch (err) {
      debug('farewell: dial failed: %s', (err as Error).message);
      continue;
    }
    if (await new Farewell(of, transport, hostDeadline).ended) return true;
  }
  return false;
}

/** One farewell connection: handshake, closeSession, done; closed at the deadline whatever it got to. */
class Farewell implements ConnectionEvents, Canceller {
  readonly ended: Promise<boolean>;
  private settle!: (ended: boolean) => void;
  private readonly of: FarewellOf;
  private readonly timer: ClockTimer;

  constructor(of: FarewellOf, transport: Transport, deadline: number) {
    this.of = of;
    this.ended = new Promise((resolve) => (this.settle = resolve));
    const { clock, maxPacket } = of.dial;
    const conn = new Connection(transport, this, maxPacket, clock);
    this.timer = clock.setTimeout(() => conn.close(new ConnectionLossError('no farewell before the close time limit', true)), Math.max(0, deadline - clock.now()), { unref: true });
    conn.sendConnect(of.request, false, true);
  }

  onHandshake(conn: Connection, response: HandshakeResult): void {
    if (response.timeOut <= 0) {
      // The server had expired the session already: it is over, which is what close() wanted.
      this.finish(conn, true);
      return;
    }
    const { clock } = this.of.dial;
    const call = new Call<void>(closeSession(), { dispatcher: this.of.dispatcher, canceller: this, clock, stats: null }, undefined);
    conn.send(call);
    call.promise.then(
      () => this.finish(conn, true),
      (err: unknown) => debug('farewell: closeSession failed: %s', (err as Error).message),
    );
  }

  private finish(conn: Connection, ended: boolean): void {
    this.of.dial.clock.clearTimeout(this.timer);
    this.settle(ended);
    conn.end();
    this.of.dial.clock.setTimeout(() => conn.close(), CLOSE_GRACE_MS, { unref: true });
  }

  onClose(_conn: Connection, error: ZkError): void {
    this.of.dial.clock.clearTimeout(this.timer);
    debug('farewell: connection closed: %s', error.message);
    this.settle(false); // no-op after finish()
  }

  takeXid(): number {
    return this.of.takeXid();
  }

  onAuthRequired(): void {
    // A server that demands SASL first refuses even closeSession: the session will expire on its own.
  }

  // Nothing else of the session is this connection's business.
  onNotification(_event: WatcherEvent, _zxid: bigint): void {}
  onAuthReply(_err: number): void {}
  onPingReply(): void {}
  onZxid(_zxid: bigint): void {}
  cancel(): void {}
}
