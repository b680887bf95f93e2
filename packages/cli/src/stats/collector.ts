/**
 * Traffic analysis over decoded conversations (`decode --stats`, `proxy --stats`): fed one line at a time,
 * in the order frames were seen, it keeps what the two big debugging questions need —
 *
 *   "why is it slow?"            latency per op, slowest requests, request rate over time, errors per code
 *   "why did everyone wake up?"  watch fan-out: how many sessions each change notified (the herd factor)
 *   "what happened to my session?" per-session timelines: connects, resumes, pings, closes, refused resumes
 *
 * Fan-out groups notifications into changes: one change = one write, however many watches it fired. A
 * ZooKeeper 3.8 server sends notifications with zxid -1, so each notification is matched with the latest
 * write request seen before it that explains it (NodeDeleted P ← delete P, NodeChildrenChanged P ← a create or
 * delete of a child of P, …, multi ops included); servers that do put the zxid in the notification header
 * are grouped by it. Notifications no visible write explains (an ephemeral deleted by a session that ended,
 * a writer outside the capture) are grouped by type and path within a short window.
 *
 * Memory is bounded for a long-running proxy: changes, writes and slow requests are capped (oldest dropped,
 * totals kept); latency samples are all kept up to a cap per op, so percentiles are exact until then and
 * estimated from a uniform sample after (reservoir.ts); closed connections beyond the newest few are folded
 * into the totals (connections.ts); the request rate coarsens its buckets as the span grows (rate.ts); ops
 * and error codes are counted by name up to a cap, further names share one `other` entry.
 */
import type { ConversationLine } from '../conversation.js';
import { hexId } from '../ids.js';
import { Connections, type ConnState } from './connections.js';
import { RequestRate } from './rate.js';
import { buildReport, type StatsReport } from './report.js';
import { hashString, LatencySamples } from './reservoir.js';

export type { ConnState } from './connections.js';

const WRITE_OPS = new Set(['create', 'create2', 'createTTL', 'createContainer', 'delete', 'setData', 'setACL', 'multi', 'closeSession', 'reconfig']);
const MAX_CHANGES = 100_000;
const MAX_WRITES = 100_000;
const SLOWEST = 10;
/** Distinct op names (and error codes) counted apart: unknown opcodes from a garbled peer share `other`. */
const MAX_NAMES = 256;
const OTHER = 'other';
/** Notifications without a zxid: same type and path within this many ms are one change. */
const GROUP_WINDOW_MS = 100;

export interface Change {
  key: string;
  zxid: string | undefined;
  /** The write that caused it, when one in the traffic explains it. */
  cause: Write | undefined;
  time: number;
  types: Set<string>;
  paths: Set<string>;
  /** Sessions (or #conn when the session is unknown) that got a notification. */
  woken: Set<string>;
  notifications: number;
}

export interface Write {
  op: string;
  path: string | undefined;
  conn: number;
  time: number;
}

type EffectKind = 'create' | 'delete' | 'setData';

/** A write request, remembered to explain the notifications it causes. */
interface SeenWrite extends Write {
  id: number;
  xid: number | undefined;
  effects: { kind: EffectKind; path: string }[];
  failed: boolean;
}

const EFFECTS: Record<string, EffectKind> = { create: 'create', create2: 'create', createTTL: 'create', createContainer: 'create', delete: 'delete', setData: 'setData' };
/** Write requests kept to explain notifications, and how far back they may explain one. */
const RECENT_WRITES = 1000;
const EXPLAIN_WINDOW_MS = 10_000;

function parentOf(path: string): string {
  const at = path.lastIndexOf('/');
  return at <= 0 ? '/' : path.slice(0, at);
}

function explains(write: SeenWrite, type: string, path: string): boolean {
  return write.effects.some((e) => {
    switch (type) {
      case 'NodeCreated':
        return e.kind === 'create' && path.startsWith(e.path);
      case 'NodeDeleted':
        return e.kind === 'delete' && path === e.path;
      case 'NodeDataChanged':
        return e.kind === 'setData' && path === e.path;
      case 'NodeChildrenChanged':
        return (e.kind === 'create' || e.kind === 'delete') && parentOf(e.path) === path;
      default:
        return false;
    }
  });
}

function effectsOf(op: string | undefined, path: string | null | undefined, body: Record<string, unknown> | undefined): SeenWrite['effects'] {
  if (op === 'multi') {
    const ops = Array.isArray(body?.['ops']) ? (body['ops'] as Record<string, unknown>[]) : [];
    return ops.flatMap((sub) => effectsOf(typeof sub['op'] === 'string' ? sub['op'] : undefined, typeof sub['path'] === 'string' ? sub['path'] : undefined, undefined));
  }
  const kind = op === undefined ? undefined : EFFECTS[op];
  return kind === undefined || path === null || path === undefined ? [] : [{ kind, path }];
}

export interface SlowRequest {
  conn: number;
  op: string;
  path: string | undefined;
  xid: number | undefined;
  time: number;
  latencyMs: number;
}

export interface TrafficStatsOptions {
  /** Latencies kept per op; past it the percentiles are estimated from a uniform sample this size. */
  readonly maxSamplesPerOp?: number;
  /** Closed connections kept for the session timelines; older ones are only counted. */
  readonly maxClosedConnections?: number;
  /** Seed of the sampling PRNG: the same traffic and seed give the same report. */
  readonly seed?: number;
}

export const DEFAULT_MAX_SAMPLES_PER_OP = 50_000;
export const DEFAULT_MAX_CLOSED_CONNECTIONS = 1000;
const DEFAULT_SEED = 0x5eed;

/** `name` itself while `map` counts fewer than MAX_NAMES names (or already has it), else `other`. */
function nameIn(map: ReadonlyMap<string, unknown>, name: string): string {
  return map.has(name) || map.size < MAX_NAMES ? name : OTHER;
}

export class TrafficStats {
  readonly connections: Connections;
  readonly latencies = new Map<string, LatencySamples>();
  readonly errors = new Map<string, Map<string, number>>();
  readonly changes: Change[] = [];
  droppedChanges = 0;
  readonly writes = new Map<string, Write>();
  readonly slowest: SlowRequest[] = [];
  totals = { frames: 0, requests: 0, replies: 0, events: 0, pings: 0, errors: 0, decodeErrors: 0 };
  first: number | undefined;
  last: number | undefined;
  private readonly openChange = new Map<string, Change>();
  private readonly recent: SeenWrite[] = [];
  private readonly inFlight = new Map<string, SeenWrite>();
  private writeIds = 0;
  private readonly maxSamples: number;
  private readonly seed: number;
  /** Sessions of dropped connections that a slowest request still names. */
  private readonly retiredSessions = new Map<number, bigint | undefined>();
  readonly rate = new RequestRate();

  constructor(options: TrafficStatsOptions = {}) {
    this.maxSamples = options.maxSamplesPerOp ?? DEFAULT_MAX_SAMPLES_PER_OP;
    this.seed = options.seed ?? DEFAULT_SEED;
    this.connections = new Connections(options.maxClosedConnections ?? DEFAULT_MAX_CLOSED_CONNECTIONS);
  }

  /** The connections kept: every open one and the newest closed ones. */
  get conns(): ReadonlyMap<number, ConnState> {
    return this.connections.states;
  }

  /** A connection opened (before its first line). */
  open(conn: number, client: string | undefined, time: number): void {
    this.connections.open(conn, client, time);
  }

  close(conn: number, time: number, reason?: string): void {
    for (const gone of this.connections.close(conn, time, reason)) {
      if (this.slowest.some((s) => s.conn === gone.conn)) this.retiredSessions.set(gone.conn, gone.session);
    }
  }

  /** The session of a connection, also when it was dropped but a slowest request still names it. */
  sessionOf(conn: number): bigint | undefined {
    return this.conns.get(conn)?.session ?? this.retiredSessions.get(conn);
  }

  add(line: ConversationLine): void {
    const state = this.connections.stateFor(line.conn, line.time);
    const { entry } = line;
    this.first = Math.min(this.first ?? line.time, line.time);
    this.last = Math.max(this.last ?? line.time, line.time);
    if (entry.kind === 'error') {
      this.totals.decodeErrors++;
      return;
    }
    this.totals.frames++;
    if (line.dir === 'c2s') {
      if (state.lastClientFrame !== undefined) state.maxClientGap = Math.max(state.maxClientGap, line.time - state.lastClientFrame);
      state.lastClientFrame = line.time;
    }
    switch (entry.kind) {
      case 'connect': {
        state.connectAt = line.time;
        const id = entry.body?.['sessionId'];
        if (typeof id === 'string') state.requested = BigInt(id);
        return;
      }
      case 'connected': {
        const id = entry.body?.['sessionId'];
        const timeout = entry.body?.['timeOut'];
        if (typeof timeout === 'number') state.timeout = timeout;
        if (entry.body?.['expired'] === true) state.rejected = true;
        else if (typeof id === 'string') state.session = BigInt(id);
        if (state.connectAt !== undefined) this.latency('connect', line.time - state.connectAt);
        return;
      }
      case 'ping':
        if (line.dir === 'c2s') state.pings++;
        else this.totals.pings++;
        if (line.latencyMs !== undefined) this.latency('ping', line.latencyMs);
        return;
      case 'request':
        this.totals.requests++;
        state.requests++;
        if (entry.op === 'closeSession') state.closeSessionAt = line.time;
        this.seeWrite(line);
        this.rate.add(line.time);
        return;
      case 'reply':
        this.reply(line);
        return;
      case 'event':
        this.event(line, state);
        return;
      default:
        return;
    }
  }

  private latency(name: string, ms: number): void {
    const op = nameIn(this.latencies, name);
    let samples = this.latencies.get(op);
    if (samples === undefined) {
      samples = new LatencySamples(this.maxSamples, (this.seed ^ hashString(op)) >>> 0);
      this.latencies.set(op, samples);
    }
    samples.add(ms);
  }

  private seeWrite(line: ConversationLine): void {
    const { entry } = line;
    const effects = effectsOf(entry.op, entry.path, entry.body);
    if (effects.length === 0) return;
    const write: SeenWrite = { id: this.writeIds++, op: entry.op ?? '?', path: entry.path ?? undefined, conn: line.conn, time: line.time, xid: entry.xid, effects, failed: false };
    this.recent.push(write);
    if (this.recent.length > RECENT_WRITES) {
      const old = this.recent.shift() as SeenWrite;
      this.inFlight.delete(`${old.conn}:${old.xid ?? ''}`);
    }
    this.inFlight.set(`${line.conn}:${entry.xid ?? ''}`, write);
  }

  /** A write's reply: did it fail, and which node did a sequential create make? */
  private settleWrite(line: ConversationLine): void {
    const key = `${line.conn}:${line.entry.xid ?? ''}`;
    const write = this.inFlight.get(key);
    if (write === undefined) return;
    this.inFlight.delete(key);
    if (line.entry.err !== undefined && line.entry.err !== 'OK') write.failed = true;
    const created = line.entry.body?.['path'];
    const first = write.effects[0];
    if (write.effects.length === 1 && first?.kind === 'create' && typeof created === 'string') {
      first.path = created;
      write.path = created;
    }
  }

  /** The latest write seen before `time` that explains a notification. */
  private explain(type: string, path: string, time: number): SeenWrite | undefined {
    for (let i = this.recent.length - 1; i >= 0; i--) {
      const write = this.recent[i] as SeenWrite;
      if (time - write.time > EXPLAIN_WINDOW_MS) return undefined;
      if (write.time <= time && !write.failed && explains(write, type, path)) return write;
    }
    return undefined;
  }

  private reply(line: ConversationLine): void {
    const { entry } = line;
    this.totals.replies++;
    this.settleWrite(line);
    const op = entry.op ?? '?';
    if (line.latencyMs !== undefined) {
      this.latency(op, line.latencyMs);
      this.noteSlow({ conn: line.conn, op, path: entry.path ?? undefined, xid: entry.xid, time: line.time, latencyMs: line.latencyMs });
    }
    if (entry.err !== undefined && entry.err !== 'OK') {
      this.totals.errors++;
      const err = nameIn(this.errors, entry.err);
      const byOp = this.errors.get(err) ?? new Map<string, number>();
      const name = nameIn(byOp, op);
      byOp.set(name, (byOp.get(name) ?? 0) + 1);
      this.errors.set(err, byOp);
    } else if (WRITE_OPS.has(op) && entry.zxid !== undefined) {
      this.writes.set(entry.zxid, { op, path: entry.path ?? undefined, conn: line.conn, time: line.time });
      if (this.writes.size > MAX_WRITES) this.writes.delete(this.writes.keys().next().value as string);
    }
  }

  private noteSlow(request: SlowRequest): void {
    if (this.slowest.length === SLOWEST && request.latencyMs <= (this.slowest[SLOWEST - 1] as SlowRequest).latencyMs) return;
    this.slowest.push(request);
    this.slowest.sort((a, b) => b.latencyMs - a.latencyMs);
    if (this.slowest.length > SLOWEST) this.slowest.pop();
    for (const conn of this.retiredSessions.keys()) if (!this.slowest.some((s) => s.conn === conn)) this.retiredSessions.delete(conn);
  }

  private event(line: ConversationLine, state: ConnState): void {
    const { entry } = line;
    this.totals.events++;
    const type = String(entry.body?.['type'] ?? '?');
    // State-only notifications (type None) change no node.
    if (type === 'None') return;
    const path = entry.path ?? '';
    const zxid = entry.zxid !== undefined && entry.zxid !== '-1' && entry.zxid !== '0' ? entry.zxid : undefined;
    const cause = zxid === undefined ? this.explain(type, path, line.time) : undefined;
    const key = zxid !== undefined ? `z${zxid}` : cause !== undefined ? `w${cause.id}` : `${type} ${path}`;
    let change = this.openChange.get(key);
    if (change !== undefined && zxid === undefined && cause === undefined && line.time - change.time > GROUP_WINDOW_MS) change = undefined;
    if (change === undefined) {
      change = { key, zxid, cause, time: line.time, types: new Set(), paths: new Set(), woken: new Set(), notifications: 0 };
      this.openChange.set(key, change);
      this.changes.push(change);
      if (this.changes.length > MAX_CHANGES) {
        const dropped = this.changes.shift() as Change;
        if (this.openChange.get(dropped.key) === dropped) this.openChange.delete(dropped.key);
        this.droppedChanges++;
      }
    }
    change.types.add(type);
    change.paths.add(path);
    change.notifications++;
    change.woken.add(state.session === undefined ? `#${line.conn}` : hexId(state.session));
  }

  report(): StatsReport {
    return buildReport(this);
  }
}
