/**
 * The session's timers, all derived from the negotiated session timeout t (as Java's ClientCnxn does):
 *
 *   handshake     a connection attempt must be answered within the connect timeout, or the next host is tried
 *   ping          when nothing was sent for readTimeout/2 (= t/3), at most 10 s apart; up to a tenth of that
 *                 early when the clock wakes for another session's deadline anyway (deadlines.ts)
 *   read timeout  2/3·t without a frame: the server is frozen or unreachable, drop it and try the next host
 *   expiry        4/3·t without any server contact while a session exists: report `expired` ourselves
 *
 * Each is due at an exact time on the injected Clock. Read timeout and ping share one deadline per connection,
 * kept in the clock's DeadlineQueue (deadlines.ts) with those of every other session on that clock.
 * The connection's `lastHeard`/`lastSent` move on every frame, but timers are not re-armed per frame (that would
 * cost the hot path a clear and a set per reply): a timer that fires early finds the deadline moved and re-arms
 * itself for the new one. The one exception is a ping's answer, at most once per interval (see pingAnswered). So with a manual
 * clock, a test sees each event at exactly the time the rules above give.
 */
import type { Clock, ClockTimer } from '../clock.js';
import { NOT_QUEUED, deadlinesOf, type Deadline, type DeadlineQueue } from './deadlines.js';

export const MAX_PING_INTERVAL = 10_000;

export interface TimerTargets {
  handshakeTimedOut(limit: number): void;
  readTimedOut(silentFor: number, limit: number): void;
  pingDue(): void;
  expired(silentFor: number, limit: number): void;
}

/** What the timers read of a connection (a Connection satisfies it). */
export interface Liveness {
  readonly lastHeard: number;
  readonly lastSent: number;
}

export function readTimeoutOf(negotiated: number): number {
  return (negotiated * 2) / 3;
}

export function pingIntervalOf(negotiated: number): number {
  return Math.min(readTimeoutOf(negotiated) / 2, MAX_PING_INTERVAL);
}

/** How early a ping may leave to share a wake-up with other sessions' (a whole number of ms). */
export function earlyPingOf(negotiated: number): number {
  return Math.floor(pingIntervalOf(negotiated) / 10);
}

export function expiryOf(negotiated: number): number {
  return (negotiated * 4) / 3;
}

export class SessionTimers implements Deadline {
  private readonly clock: Clock;
  private readonly targets: TimerTargets;
  private handshake: ClockTimer | undefined;
  /** Where the connection's one deadline waits: read timeout and ping (see startConnection). */
  private readonly deadlines: DeadlineQueue;
  /** Deadline: when the connection's deadline is due, and its place in the queue (the queue's to write). */
  dueAt = 0;
  slot = NOT_QUEUED;
  /** Deadline: a ping's deadline may run early, a read deadline may not (see armWatch). */
  earlyBy = 0;
  /** What the deadline watches. */
  private conn: Liveness | null = null;
  /**
   * The connection's negotiated timeout; its read timeout and ping interval are worked out from it when used,
   * since a third of a timeout is seldom a whole number and a fraction kept in a field takes a heap number.
   */
  private negotiated = 0;
  private connStart = 0;
  private readTimedOut = false;
  /** The deadline is the read deadline, which comes before the next ping's (see pingAnswered). */
  private watchForRead = false;
  private expiry: ClockTimer | undefined;
  /** When the last ping was asked for: a ping still waiting behind a held batch counts as sent. */
  private lastPing = 0;
  /** Bumped whenever the connection timers stop, so a callback that stopped them does not re-arm them. */
  private generation = 0;

  constructor(clock: Clock, targets: TimerTargets) {
    this.clock = clock;
    this.targets = targets;
    this.deadlines = deadlinesOf(clock);
  }

  /** A connection attempt is waiting for its handshake reply. */
  startHandshake(limit: number): void {
    this.clear('handshake');
    this.handshake = this.clock.setTimeout(() => {
      this.handshake = undefined;
      this.targets.handshakeTimedOut(limit);
    }, limit);
  }

  /**
   * The handshake was answered: watch the connection's silence in both directions. One deadline serves both
   * rules, due at whichever comes first (an idle session then wakes once per ping interval, not twice); each
   * rule is checked whenever it passes, so each event still happens at exactly its own deadline.
   */
  startConnection(conn: Liveness, negotiated: number): void {
    this.clear('handshake');
    this.stopConnection();
    this.lastPing = 0;
    this.conn = conn;
    this.negotiated = negotiated;
    this.connStart = this.clock.now();
    this.readTimedOut = false;
    this.armWatch(conn);
  }

  /** The first ping is due an interval after the connection starts, even if the last frame left earlier. */
  private lastOut(conn: Liveness): number {
    return Math.max(conn.lastSent, this.lastPing, this.connStart);
  }

  private armWatch(conn: Liveness): void {
    const readDue = this.readTimedOut ? Infinity : conn.lastHeard + readTimeoutOf(this.negotiated);
    const pingDue = this.lastOut(conn) + pingIntervalOf(this.negotiated);
    this.watchForRead = readDue < pingDue;
    this.earlyBy = this.watchForRead ? 0 : earlyPingOf(this.negotiated);
    this.deadlines.schedule(this, Math.min(readDue, pingDue));
  }

  /**
   * The server answered a ping. A ping that left late (a busy loop runs its timer after the due time) leaves
   * the read deadline, counted from the previous answer, before the next ping's: the deadline is then that one,
   * and this answer has just moved it. Moved here to the deadlines as they are now, the session wakes once per
   * interval rather than once more to find nothing due; every event still comes at its exact deadline.
   */
  pingAnswered(): void {
    const conn = this.conn;
    if (!this.watchForRead || this.slot === NOT_QUEUED || conn === null) return;
    this.armWatch(conn);
  }

  /**
   * Deadline: the connection's deadline passed, or its ping's early window opened while the queue ran for
   * another session (called by the queue only). Whenever it runs, a ping due within its early window leaves now
   * rather than after one more wake-up; the read timeout is always checked against now, never early.
   */
  deadlinePassed(): void {
    const conn = this.conn;
    if (conn === null) return;
    const generation = this.generation;
    if (!this.readTimedOut) {
      const silent = this.clock.now() - conn.lastHeard;
      const limit = readTimeoutOf(this.negotiated);
      if (silent >= limit) {
        this.readTimedOut = true;
        this.targets.readTimedOut(silent, limit);
        if (generation !== this.generation) return;
      }
    }
    const now = this.clock.now();
    if (now + this.earlyBy - this.lastOut(conn) >= pingIntervalOf(this.negotiated)) {
      this.lastPing = now;
      this.targets.pingDue();
      if (generation !== this.generation) return;
    }
    this.armWatch(conn);
  }

  /** The connection is gone (or the session over): no more pings or read timeouts for it. */
  stopConnection(): void {
    this.generation++;
    this.conn = null;
    this.deadlines.cancel(this);
    this.clear('handshake');
  }

  /** No connection serves the session: it expires `limit` ms after `lastHeard` unless a server answers first. */
  startExpiry(lastHeard: number, negotiated: number): void {
    if (this.expiry !== undefined) return;
    const limit = expiryOf(negotiated);
    const check = (): void => {
      const silent = this.clock.now() - lastHeard;
      if (silent >= limit) {
        this.expiry = undefined;
        this.targets.expired(silent, limit);
        return;
      }
      this.expiry = this.clock.setTimeout(check, lastHeard + limit - this.clock.now());
    };
    this.expiry = this.clock.setTimeout(check, lastHeard + limit - this.clock.now());
  }

  stopExpiry(): void {
    this.clear('expiry');
  }

  stopAll(): void {
    this.stopConnection();
    this.stopExpiry();
  }

  private clear(which: 'handshake' | 'expiry'): void {
    const timer = this[which];
    if (timer !== undefined) this.clock.clearTimeout(timer);
    this[which] = undefined;
  }
}
