/**
 * How long a session waits before its first dial after it lost a working connection, so that the sessions of a
 * member that dies do not all dial the survivors in the same millisecond, and so that a session another
 * connection has taken over is not taken straight back.
 *
 *   lost       an established connection dropped (or the session expired and a new one will be opened):
 *              uniform in [min, max] (the `reconnectDelay` option)
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

export type DropKind = 'lost' | 'contested';

/** Chosen from the reconnect-storm bench (bench/README.md, reconnectStorm). */
export const DEFAULT_RECONNECT_DELAY: Readonly<DelayRange> = Object.freeze({ min: 50, max: 800 });
export const CONTEST_BASE_MS = 1000;
/** Largest accepted `max`: beyond it a session would outwait the longest session timeouts servers grant. */
export const MAX_RECONNECT_DELAY = 60_000;
/** A re-attached connection the server closes within this long was, most likely, taken over by another. */
export const CONTEST_WINDOW_MS = 2000;

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
    if (kind === 'lost') {
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

/** What a connection that dropped after its handshake says about its session. */
export function dropKind(conn: { sessionMoved: boolean; reattachedAt: number; transport: { closedByPeer: boolean } }, now: number): DropKind {
  if (conn.sessionMoved) return 'contested';
  return conn.transport.closedByPeer && conn.reattachedAt >= 0 && now - conn.reattachedAt < CONTEST_WINDOW_MS ? 'contested' : 'lost';
}
