/**
 * The analysis as one plain object (`--json` prints it as is) and as text for people. Kept apart from the
 * collector so the numbers and their presentation can be tested on their own.
 */
import type { Change, ConnState, SlowRequest, TrafficStats } from './collector.js';
import { nearestRank, roundMs, summarize, type LatencySummary } from './percentiles.js';

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
  totals: TrafficStats['totals'] & { connections: number; sessions: number };
  latency: Record<string, LatencySummary>;
  errors: { err: string; count: number; ops: Record<string, number> }[];
  slowest: (SlowRequest & { session: string | null })[];
  rate: { bucketMs: number; buckets: { t: number; requests: number }[]; peakPerSecond: number };
  fanout: { changes: number; notifications: number; max: number; mean: number; p50: number; p99: number; droppedChanges: number; perChange: ChangeReport[] };
  sessions: SessionTimeline[];
}

const hex = (v: bigint): string => `0x${v.toString(16)}`;

function sessionOf(state: ConnState | undefined): string | null {
  return state?.session === undefined ? null : hex(state.session);
}

function timelines(stats: TrafficStats, origin: number): SessionTimeline[] {
  const bySession = new Map<string, ConnState[]>();
  for (const state of stats.conns.values()) {
    const key = state.session !== undefined ? hex(state.session) : state.requested !== undefined && state.requested !== 0n ? hex(state.requested) : `#${state.conn}`;
    bySession.set(key, [...(bySession.get(key) ?? []), state]);
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
    zxid: change.zxid === undefined ? null : hex(BigInt(change.zxid)),
    time: change.time,
    types: [...change.types],
    paths: [...change.paths],
    fanout: change.woken.size,
    notifications: change.notifications,
    cause: write === undefined ? null : { op: write.op, path: write.path ?? null, conn: write.conn },
  };
}

function rate(stats: TrafficStats): StatsReport['rate'] {
  const seconds = [...stats.perSecond.keys()];
  if (seconds.length === 0) return { bucketMs: 1000, buckets: [], peakPerSecond: 0 };
  const from = Math.min(...seconds);
  const to = Math.max(...seconds);
  // At most 60 buckets of 1, 5, 10, 30, 60, 300… seconds.
  const span = to - from + 1;
  const size = [1, 5, 10, 30, 60, 300, 600, 1800, 3600].find((s) => span / s <= 60) ?? Math.ceil(span / 60);
  const buckets = new Map<number, number>();
  for (const [second, count] of stats.perSecond) {
    const b = Math.floor((second - from) / size);
    buckets.set(b, (buckets.get(b) ?? 0) + count);
  }
  // t: the bucket's start in whole seconds from the first second with a request.
  const list = Array.from({ length: Math.floor((to - from) / size) + 1 }, (_, b) => ({ t: b * size * 1000, requests: buckets.get(b) ?? 0 }));
  return { bucketMs: size * 1000, buckets: list, peakPerSecond: Math.max(...stats.perSecond.values()) };
}

export function buildReport(stats: TrafficStats): StatsReport {
  const origin = stats.first ?? 0;
  const latency: Record<string, LatencySummary> = {};
  for (const op of [...stats.latencies.keys()].sort()) latency[op] = summarize(stats.latencies.get(op) ?? []);
  const errors = [...stats.errors].map(([err, ops]) => ({ err, count: [...ops.values()].reduce((n, v) => n + v, 0), ops: Object.fromEntries(ops) })).sort((a, b) => b.count - a.count);
  const perChange = stats.changes.map((c) => changeReport(stats, c));
  const fanouts = perChange.map((c) => c.fanout).sort((a, b) => a - b);
  const sessions = timelines(stats, origin);
  return {
    type: 'stats',
    span: { start: stats.first ?? null, end: stats.last ?? null, durationMs: roundMs((stats.last ?? origin) - origin) },
    totals: { ...stats.totals, connections: stats.conns.size, sessions: sessions.filter((s) => !s.session.startsWith('#')).length },
    latency,
    errors,
    slowest: stats.slowest.map((s) => ({ ...s, latencyMs: roundMs(s.latencyMs), session: sessionOf(stats.conns.get(s.conn)) })),
    rate: rate(stats),
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
