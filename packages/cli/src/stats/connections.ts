/**
 * The analysis's per-connection state with bounded memory: every open connection is kept, and so are the
 * newest `maxClosed` closed ones (by when they closed); older closed connections are dropped from the
 * per-session timelines but still counted in the totals (connections, and the sessions they belonged to).
 */
import { hexId } from '../ids.js';

export interface ConnState {
  conn: number;
  client: string | undefined;
  start: number;
  end: number | undefined;
  closeReason: string | undefined;
  /** The session asked for in the handshake (0 = a new session). */
  requested: bigint | undefined;
  session: bigint | undefined;
  timeout: number | undefined;
  /** The server refused to resume the session (it had expired). */
  rejected: boolean;
  requests: number;
  pings: number;
  closeSessionAt: number | undefined;
  lastClientFrame: number | undefined;
  /** Longest silence from the client, ms: longer than the session timeout means the session expired. */
  maxClientGap: number;
  connectAt: number | undefined;
}

/** Sessions of dropped connections remembered so a later resume of one is not counted twice. */
const FOLDED_SESSIONS = 10_000;

/** The timeline a connection belongs to: its session, the one it tried to resume, or `#conn`. */
export function sessionKey(state: ConnState): string {
  if (state.session !== undefined) return hexId(state.session);
  if (state.requested !== undefined && state.requested !== 0n) return hexId(state.requested);
  return `#${state.conn}`;
}

function fresh(conn: number, client: string | undefined, time: number): ConnState {
  return {
    conn, client, start: time, end: undefined, closeReason: undefined, requested: undefined, session: undefined, timeout: undefined,
    rejected: false, requests: 0, pings: 0, closeSessionAt: undefined, lastClientFrame: undefined, maxClientGap: 0, connectAt: undefined,
  };
}

export class Connections {
  readonly states = new Map<number, ConnState>();
  /** Closed connections kept, oldest close first. */
  private readonly closed = new Set<number>();
  private readonly maxClosed: number;
  /** Ids of the latest dropped connections: a stray line for one must not bring it back as open. */
  private readonly recentlyDropped = new Set<number>();
  private readonly foldedSessions = new Set<string>();
  private foldedForgotten = 0;
  dropped = 0;

  constructor(maxClosed: number) {
    if (!Number.isInteger(maxClosed) || maxClosed < 0) throw new RangeError(`closed-connection cap must be a non-negative integer, got ${maxClosed}`);
    this.maxClosed = maxClosed;
  }

  open(conn: number, client: string | undefined, time: number): void {
    if (this.states.has(conn) || this.recentlyDropped.has(conn)) return;
    this.states.set(conn, fresh(conn, client, time));
  }

  /** The state a line of `conn` updates (a scratch one, never kept, for a connection already dropped). */
  stateFor(conn: number, time: number): ConnState {
    this.open(conn, undefined, time);
    return this.states.get(conn) ?? fresh(conn, undefined, time);
  }

  /** Marks `conn` closed; returns the connections dropped to stay within the cap. */
  close(conn: number, time: number, reason: string | undefined): ConnState[] {
    const state = this.states.get(conn);
    if (state === undefined) return [];
    state.end = time;
    state.closeReason = reason;
    this.closed.delete(conn);
    this.closed.add(conn);
    const out: ConnState[] = [];
    while (this.closed.size > this.maxClosed) {
      const oldest = this.closed.values().next().value as number;
      this.closed.delete(oldest);
      const gone = this.states.get(oldest);
      this.states.delete(oldest);
      if (gone !== undefined) {
        this.fold(gone);
        out.push(gone);
      }
    }
    return out;
  }

  private fold(state: ConnState): void {
    this.dropped++;
    this.recentlyDropped.add(state.conn);
    if (this.recentlyDropped.size > Math.max(this.maxClosed, 1)) this.recentlyDropped.delete(this.recentlyDropped.values().next().value as number);
    const key = sessionKey(state);
    if (key.startsWith('#') || this.foldedSessions.has(key)) return;
    this.foldedSessions.add(key);
    if (this.foldedSessions.size > FOLDED_SESSIONS) {
      this.foldedSessions.delete(this.foldedSessions.values().next().value as string);
      this.foldedForgotten++;
    }
  }

  /** Every connection seen, dropped ones included. */
  get total(): number {
    return this.states.size + this.dropped;
  }

  /** Distinct sessions seen: those of the kept timelines plus those only dropped connections had. */
  sessions(kept: ReadonlySet<string>): number {
    let both = 0;
    for (const key of kept) if (this.foldedSessions.has(key)) both++;
    return kept.size + this.foldedSessions.size + this.foldedForgotten - both;
  }
}
