/**
 * How long a session waits before its first dial after it lost a working connection, so that the sessions of a
 * member that dies do not all dial the survivors in the same millisecond, a blip in the network costs next to
 * nothing, and a session another connection has taken over is not taken straight back.
 *
 *   closed     the server ended the connection in order (it is shutting down, lost its quorum, or was killed
 *              and its kernel closed the socket): every session of that member is likely dropped at once, so
 *              the next dial waits uniform in [min, max] (the `reconnectDelay` option)
 *   expired    the session expired and a new one will be opened: the same wait, since an outage long enough to
 *              expire one session expired all of them
 *   broken     the connection failed under us (a reset, a broken pipe, no reply to our pings): more likely the
 *              network than the server, so the same server is dialled again at once, given no longer than the
 *              wait a `closed` drop would have had; if it does not answer by then, the other hosts follow with
 *              what is left of that wait, so a member that died this way still spreads its sessions
 *   contested  the server closed a connection that had re-attached the session shortly before, or answered a
 *              request with SESSION_MOVED: another connection holds the session. Uniform in [b, 2b] with
 *              b = CONTEST_BASE_MS doubling with every contest in a row, capped at a third of the negotiated
 *              timeout so that, should the other side go away, we are back before the server expires the session.
 *
 * The failed-cycle back-off (every host tried without a session) is the host provider's, unchanged.
 */
import { InvalidArgumentError } from '../../errors/errors.js';
import { describeValue } from '../../errors/option-keys.js';

export interface DelayRange {
  min: number;
  max: number;
}

export type DropKind = 'closed' | 'expired' | 'broken' | 'contested';

/** Chosen from the reconnect-storm bench (bench/README.md, reconnectStorm). */
export const DEFAULT_RECONNECT_DELAY: Readonly<DelayRange> = Object.freeze({ min: 100, max: 1200 });
/** A broken connection's immediate redial gets at least this long, even when the drawn wait is shorter. */
export const MIN_REDIAL_WINDOW_MS = 250;
export const CONTEST_BASE_MS = 1000;
/** Largest accepted `max`: beyond it a session would outwait the longest session timeouts servers grant. */
export const MAX_RECONNECT_DELAY = 60_000;
/** A broken connection's server is dialled again at once at most this often. */
export const REDIAL_SPACING_MS = 2000;
/** A re-attached connection the server closes within this long was, most likely, taken over by another. */
export const CONTEST_WINDOW_MS = 2000;

/**
 * How long one dial and its handshake may take without a `connectTimeout` option: the session timeout over the
 * hosts, as the Java client gives each, but never more than a third of it. A server can take a connection and
 * neither answer nor close it (ZooKeeper 3.8 does with one that arrives while it loads its database after a
 * restart); with one or two hosts, an attempt given the whole timeout (or half) would outlast the session, where
 * a third leaves room to dial again before the server expires it.
 */
export function attemptLimit(sessionTimeout: number, hosts: number): number {
  return Math.max(100, Math.floor(sessionTimeout / Math.max(3, hosts)));
}

/** Validates the option (InvalidArgumentError otherwise); undefined gives the default. */
export function reconnectDelayOption(value: DelayRange | undefined): DelayRange {
  if (value === undefined) return DEFAULT_RECONNECT_DELAY;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError('reconnectDelay', `reconnectDelay must be { min, max } in ms, got ${describeValue(value)}`);
  }
  const { min, max } = value;
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= MAX_RECONNECT_DELAY;
  if (!ok(min) || !ok(max) || min > max) {
    throw new InvalidArgumentError('reconnectDelay', `reconnectDelay needs 0 ≤ min ≤ max ≤ ${MAX_RECONNECT_DELAY} ms, got { min: ${describeValue(min)}, max: ${describeValue(max)} }`);
  }
  return { min, max };
}

export class ReconnectDelays {
  private readonly range: DelayRange;
  private readonly random: () => number;
  /** Contests in a row; a drop of any other kind ends the streak. */
  private contests = 0;

  constructor(range: DelayRange, random: () => number) {
    this.range = range;
    this.random = random;
  }

  /** The wait before the next dial after a drop of `kind`; `negotiated` is the session's timeout (0: none yet). */
  after(kind: DropKind, negotiated: number): number {
    if (kind !== 'contested') {
      this.contests = 0;
      const { min, max } = this.range;
      return Math.round(min + (max - min) * this.random());
    }
    this.contests = Math.min(this.contests + 1, 16);
    const base = CONTEST_BASE_MS * 2 ** (this.contests - 1);
    const wait = base * (1 + this.random());
    const cap = negotiated > 0 ? negotiated / 3 : Number.POSITIVE_INFINITY;
    return Math.round(Math.max(this.range.max, Math.min(wait, cap)));
  }
}

interface DroppedConnection {
  sessionMoved: boolean;
  reattachedAt: number;
  transport: { closedByPeer: boolean; brokenByNetwork: boolean };
}

/** What a connection that dropped after its handshake says about its session. */
export function dropKind(conn: DroppedConnection, now: number): DropKind {
  if (conn.sessionMoved) return 'contested';
  const { closedByPeer, brokenByNetwork } = conn.transport;
  if (!closedByPeer || brokenByNetwork) return 'broken';
  return conn.reattachedAt >= 0 && now - conn.reattachedAt < CONTEST_WINDOW_MS ? 'contested' : 'closed';
}
