/**
 * `client.stats()`: what a health endpoint can expose as it is, without OpenTelemetry. Plain numbers and
 * strings (ids in hex), so JSON.stringify writes it. Counting costs a request one typed-array increment and a
 * failure one map update; everything else (state, in flight, watches) is read when stats() is called.
 */
import { opName } from '../codec/records/constants.js';
import { hexId } from './diagnostics.js';
import { operationName } from './request-trace.js';
import type { SessionCounters } from './session/session-report.js';
import type { SessionState } from './types.js';
import type { WatchCounts } from './watches/watch-manager.js';

/** A snapshot of one client (see ZkClient.stats). Counters run from the client's creation. */
export interface ClientStats extends SessionCounters {
  state: SessionState;
  /** '0x…' ('0x0' before the first session). */
  sessionId: string;
  /** 'host:port' of the last server that answered a handshake (undefined before any). */
  lastServer: string | undefined;
  /** ms, 0 until connected. */
  negotiatedTimeout: number;
  /** Requests made by operation ('getData', 'create', 'multi'…): each try of a retried one, and one refused at once (client closed), count. */
  requests: Record<string, number>;
  /** Failed requests by ZkError code ('NO_NODE', 'CONNECTION_LOSS', 'TIMEOUT'…). */
  errors: Record<string, number>;
  /** Requests written on the current connection and not answered yet. */
  inFlight: number;
  /** Requests waiting for a connection. */
  queued: number;
  /** Watches armed on the server, by kind: the paths this session watches. */
  watches: WatchCounts;
}

/** Opcodes of the requests the API sends are 1..107: one slot each. */
const OP_SLOTS = 128;

/** The request and failure counters of one client (Call and OpContext count; stats() reads). */
export class RequestStats {
  /**
   * Made on the first request: 1 KiB outside the heap that a session which only pings (one of thousands in a
   * pool) never needs.
   */
  private sent: Float64Array | null = null;
  /** Made on the first failure. */
  private byCode: Map<string, number> | null = null;

  request(op: number): void {
    const slot = op & (OP_SLOTS - 1);
    const sent = (this.sent ??= new Float64Array(OP_SLOTS));
    sent[slot] = (sent[slot] as number) + 1;
  }

  failed(error: unknown): void {
    const code = (error as { code?: unknown } | null)?.code;
    const key = typeof code === 'string' ? code : 'UNKNOWN';
    const byCode = (this.byCode ??= new Map());
    byCode.set(key, (byCode.get(key) ?? 0) + 1);
  }

  /** By operation name, in name order. */
  requests(): Record<string, number> {
    const counts = new Map<string, number>();
    const sent = this.sent;
    if (sent === null) return {};
    for (let op = 0; op < OP_SLOTS; op++) {
      const n = sent[op] ?? 0;
      if (n === 0) continue;
      const name = operationName(opName(op));
      counts.set(name, (counts.get(name) ?? 0) + n);
    }
    return sortedRecord(counts);
  }

  /** By code, in code order. */
  errors(): Record<string, number> {
    return this.byCode === null ? {} : sortedRecord(this.byCode);
  }
}

function sortedRecord(counts: ReadonlyMap<string, number>): Record<string, number> {
  return Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** What stats() reads of the session. */
export interface SessionStatsSource {
  readonly state: SessionState;
  readonly sessionId: bigint;
  readonly negotiatedTimeout: number;
  readonly report: { readonly counters: SessionCounters; readonly lastServer: string | undefined };
  readonly load: { inFlight: number; queued: number };
  readonly watches: { counts(): WatchCounts };
}

export function clientStats(session: SessionStatsSource, requests: RequestStats): ClientStats {
  const { inFlight, queued } = session.load;
  return {
    state: session.state,
    sessionId: hexId(session.sessionId),
    lastServer: session.report.lastServer,
    negotiatedTimeout: session.negotiatedTimeout,
    requests: requests.requests(),
    errors: requests.errors(),
    inFlight,
    queued,
    watches: session.watches.counts(),
    ...session.report.counters,
  };
}
