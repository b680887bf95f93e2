/**
 * The session table (org.apache.zookeeper.server.SessionTrackerImpl + ExpiryQueue): ids made as ZooKeeper
 * makes them (the server id in the top byte, here 0, over a counter seeded from the clock), a 16-byte random
 * password per session, and expiry in buckets of one tick: a session touched at `now` with timeout `t` expires
 * at the first tick boundary after `now + t`. Expiry runs on the injected clock and hands each expired session
 * to `onExpire` (which submits its closeSession transaction).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

import type { Clock, ClockTimer } from '../options.js';
import { CONTAINER_EPHEMERAL_OWNER } from '../tree/ephemeral-type.js';

/** One session. */
export interface Session {
  readonly id: bigint;
  /** The negotiated timeout of the connection that last (re)attached it. */
  timeout: number;
  readonly password: Uint8Array;
  /** Set once its closeSession is under way (expiry or the client's request). */
  closing: boolean;
  /** The tick boundary it expires at unless touched. */
  expiresAt: number;
}

/** SessionTrackerImpl.initializeNextSessionId: ((time << 24) >>> 8) | (serverId << 56), skipping the container marker. */
export function initialSessionId(time: number, serverId = 0): bigint {
  const shifted = BigInt.asUintN(64, BigInt(Math.trunc(time)) << 24n) >> 8n;
  let id = BigInt.asIntN(64, shifted | (BigInt(serverId) << 56n));
  if (id === CONTAINER_EPHEMERAL_OWNER) id += 1n;
  return id;
}

/** Sessions by id, with their expiry buckets. */
export class SessionTracker {
  private readonly sessions = new Map<bigint, Session>();
  private readonly buckets = new Map<number, Set<bigint>>();
  private nextId: bigint;
  private timer: ClockTimer | undefined;
  private timerDue = Infinity;
  private stopped = false;
  /** How a new session's password is made: random unless persistence derives it as ZooKeeper does. */
  makePassword: (id: bigint) => Uint8Array = () => new Uint8Array(randomBytes(16));

  constructor(
    private readonly clock: Clock,
    private readonly tickTime: number,
    private readonly onExpire: (session: Session) => void,
  ) {
    this.nextId = initialSessionId(clock.now());
  }

  /** ExpiryQueue.roundToNextInterval. */
  private roundToNextTick(time: number): number {
    return (Math.floor(time / this.tickTime) + 1) * this.tickTime;
  }

  /** createSession: a new id and password, tracked with `timeout`. */
  create(timeout: number): Session {
    const id = this.nextId;
    this.nextId = BigInt.asIntN(64, this.nextId + 1n);
    const session: Session = { id, timeout, password: this.makePassword(id), closing: false, expiresAt: 0 };
    this.sessions.set(id, session);
    this.touch(id, timeout);
    return session;
  }

  /** A session restored from a dataDir (SessionTrackerImpl's constructor): tracked again with its timeout. */
  restore(id: bigint, timeout: number): Session {
    const session: Session = { id, timeout, password: this.makePassword(id), closing: false, expiresAt: 0 };
    this.sessions.set(id, session);
    this.touch(id, timeout);
    return session;
  }

  get(id: bigint): Session | undefined {
    return this.sessions.get(id);
  }

  /** All live sessions. */
  all(): IterableIterator<Session> {
    return this.sessions.values();
  }

  /** ZooKeeperServer.checkPasswd. */
  passwordMatches(session: Session, password: Uint8Array | null): boolean {
    return password !== null && password.byteLength === session.password.byteLength && timingSafeEqual(password, session.password);
  }

  /** touchSession: moves the expiry; false for an unknown or closing session. */
  touch(id: bigint, timeout: number): boolean {
    const session = this.sessions.get(id);
    if (session === undefined || session.closing) return false;
    const expiresAt = this.roundToNextTick(this.clock.now() + timeout);
    if (expiresAt === session.expiresAt) return true;
    this.leaveBucket(session);
    session.expiresAt = expiresAt;
    let bucket = this.buckets.get(expiresAt);
    if (bucket === undefined) {
      bucket = new Set();
      this.buckets.set(expiresAt, bucket);
    }
    bucket.add(id);
    this.schedule(expiresAt);
    return true;
  }

  /** setSessionClosing. */
  setClosing(id: bigint): void {
    const session = this.sessions.get(id);
    if (session !== undefined) session.closing = true;
  }

  /** removeSession (when its closeSession transaction is applied). */
  remove(id: bigint): void {
    const session = this.sessions.get(id);
    if (session === undefined) return;
    this.leaveBucket(session);
    this.sessions.delete(id);
  }

  /** Stops the expiry timer (server shutdown). */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private leaveBucket(session: Session): void {
    const bucket = this.buckets.get(session.expiresAt);
    if (bucket === undefined) return;
    bucket.delete(session.id);
    if (bucket.size === 0) this.buckets.delete(session.expiresAt);
  }

  private schedule(due: number): void {
    if (this.stopped || due >= this.timerDue) return;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = this.clock.setTimeout(() => this.expireDue(), Math.max(0, due - this.clock.now()), { unref: true });
  }

  /** Expires every bucket whose time has come, earliest first; then waits for the next. */
  private expireDue(): void {
    this.timer = undefined;
    this.timerDue = Infinity;
    const now = this.clock.now();
    const due = [...this.buckets.keys()].filter((t) => t <= now).sort((a, b) => a - b);
    for (const t of due) {
      const bucket = this.buckets.get(t);
      this.buckets.delete(t);
      for (const id of bucket ?? []) {
        const session = this.sessions.get(id);
        if (session === undefined || session.closing) continue;
        session.closing = true;
        this.onExpire(session);
      }
    }
    let next = Infinity;
    for (const t of this.buckets.keys()) next = Math.min(next, t);
    if (next !== Infinity) this.schedule(next);
  }
}
