/**
 * The analysis as one plain object (`--json` prints it as is) and as text for people. Kept apart from the
 * collector so the numbers and their presentation can be tested on their own.
 */
import { hexId, hexIdText } from '../ids.js';
import type { Change, SlowRequest, TrafficStats } from './collector.js';
import { sessionKey, type ConnState } from './connections.js';
import { nearestRank, roundMs, type LatencySummary } from './percentiles.js';
import type { RateReport } from './rate.js';

export interface SessionEvent {
  t: number;
  conn: number;
  what: string;
}

export interface SessionTimeline {
  session: string;
  timeoutMs: number | undefined;
  connections: number;
  reconnects: number;
  requests: number;
  pings: number;
  /** How the session ended, as far as the traffic shows. */
  outcome: 'closed' | 'expired' | 'open' | 'disconnected';
  events: SessionEvent[];
}

export interface ChangeReport {
  zxid: string | null;
  time: number;
  types: string[];
  paths: string[];
  /** Sessions notified: the herd factor of this change. */
  fanout: number;
  notifications: number;
  cause: { op: string; path: string | null; conn: number } | null;
}

export interface StatsReport {
  type: 'stats';
  span: { start: number | null; end: number | null; durationMs: number };
  /**
   * `connections` and `sessions` count everything seen; `droppedConnections` (present only when some were
   * dropped) says how many closed connections are in the totals but no longer in `sessions`.
   */
  totals: TrafficStats['totals'] & { connections: number; sessions: number; droppedConnections?: number };
  /** Per op; an op whose percentiles are estimated from a sample has `sampled: true` (see LatencySummary). */
  latency: Record<string, LatencySummary>;
  errors: { err: string; count: number; ops: Record<string, number> }[];
  slowest: (SlowRequest & { session: string | null })[];
  rate: RateReport;
  fanout: { changes: number; notifications: number; max: number; mean: number; p50: number; p99: number; droppedChanges: number; perChange: ChangeReport[] };
  sessions: SessionTimeline[];
}

const session = (id: bigint | undefined): string | null => (id === undefined ? null : hexId(id));

function timelines(stats: TrafficStats, origin: number): SessionTimeline[] {
  const bySession = new Map<string, ConnState[]>();
  for (const state of stats.conns.values()) {
    const key = sessionKey(state);
    const list = bySession.get(key);
    if (list === undefined) bySession.set(key, [state]);
    else list.push(state);
  }
  const out: SessionTimeline[] = [];
  for (const [session, conns] of bySession) {
    conns.sort((a, b) => a.start - b.start);
    const events: SessionEvent[] = [];
    const at = (time: number): number => roundMs(time - origin);
    let outcome: SessionTimeline['outcome'] = 'open';
    for (const c of conns) {
      const resume = c.requested !== undefined && c.requested !== 0n;
      events.push({ t: at(c.connectAt ?? c.start), conn: c.conn, what: `connect from ${c.client ?? '?'} (${resume ? 'resume' : 'new session'})` });
      if (c.rejected) {
        events.push({ t: at(c.connectAt ?? c.start), conn: c.conn, what: 'refused: the session had expired' });
        outcome = 'expired';
      } else if (c.session !== undefined) {
        events.push({ t: at(c.connectAt ?? c.start), conn: c.conn, what: `established, timeout ${c.timeout ?? '?'} ms` });
      }
      if (c.pings > 0) events.push({ t: at(c.lastClientFrame ?? c.start), conn: c.conn, what: `${c.pings} ping(s), ${c.requests} request(s); longest client silence ${roundMs(c.maxClientGap)} ms` });
      if (c.timeout !== undefined && c.timeout > 0 && c.maxClientGap > c.timeout) {
        events.push({ t: at(c.lastClientFrame ?? c.start), conn: c.conn, what: `client silent longer than the session timeout (${roundMs(c.maxClientGap)} > ${c.timeout} ms)` });
      }
      if (c.closeSessionAt !== undefined) {
        events.push({ t: at(c.closeSessionAt), conn: c.conn, what: 'closeSession' });
        outcome = 'closed';
      }
      if (c.end !== undefined) {
        events.push({ t: at(c.end), conn: c.conn, what: `connection closed${c.closeReason === undefined ? '' : ` (${c.closeReason})`}` });
        if (c.closeSessionAt === undefined && !c.rejected) outcome = 'disconnected';
      }
    }
    const accepted = conns.filter((c) => !c.rejected).length;
    out.push({
      session,
      timeoutMs: conns.find((c) => c.timeout !== undefined && c.timeout > 0)?.timeout,
      connections: conns.length,
      reconnects: Math.max(0, accepted - 1),
      requests: conns.reduce((n, c) => n + c.requests, 0),
      pings: conns.reduce((n, c) => n + c.pings, 0),
      outcome,
      events: events.sort((a, b) => a.t - b.t),
    });
  }
  return out;
}

function changeReport(stats: TrafficStats, change: Change): ChangeReport {
  const write = change.cause ?? (change.zxid === undefined ? undefined : stats.writes.get(change.zxid));
  return {
    zxid: change.zxid === undefined ? null : hexIdText(change.zxid),
    time: change.time,
    types: [...change.types],
    paths: [...change.paths],
    fanout: change.woken.size,
    notifications: change.notifications,
    cause: write === undefined ? null : { op: write.op, path: write.path ?? null, conn: write.conn },
  };
}

export function buildReport(stats: TrafficStats): StatsReport {
  const origin = stats.first ?? 0;
  const latency: Record<string, LatencySummary> = {};
  for (const [op, samples] of [...stats.latencies].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) latency[op] = samples.summary();
  const errors = [...stats.errors].map(([err, ops]) => ({ err, count: [...ops.values()].reduce((n, v) => n + v, 0), ops: Object.fromEntries(ops) })).sort((a, b) => b.count - a.count);
  const perChange = stats.changes.map((c) => changeReport(stats, c));
  const fanouts = perChange.map((c) => c.fanout).sort((a, b) => a - b);
  const sessions = timelines(stats, origin);
  const keptSessions = new Set(sessions.map((s) => s.session).filter((s) => !s.startsWith('#')));
  const dropped = stats.connections.dropped;
  const totals: StatsReport['totals'] = { ...stats.totals, connections: stats.connections.total, sessions: stats.connections.sessions(keptSessions) };
  if (dropped > 0) totals.droppedConnections = dropped;
  return {
    type: 'stats',
    span: { start: stats.first ?? null, end: stats.last ?? null, durationMs: roundMs((stats.last ?? origin) - origin) },
    totals,
    latency,
    errors,
    slowest: stats.slowest.map((s) => ({ ...s, latencyMs: roundMs(s.latencyMs), session: session(stats.sessionOf(s.conn)) })),
    rate: stats.rate.report(),
    fanout: {
      changes: perChange.length,
      notifications: perChange.reduce((n, c) => n + c.notifications, 0),
      max: fanouts[fanouts.length - 1] ?? 0,
      mean: fanouts.length === 0 ? 0 : roundMs(fanouts.reduce((n, v) => n + v, 0) / fanouts.length),
      p50: fanouts.length === 0 ? 0 : nearestRank(fanouts, 50),
      p99: fanouts.length === 0 ? 0 : nearestRank(fanouts, 99),
      droppedChanges: stats.droppedChanges,
      perChange,
    },
    sessions,
  };
}
