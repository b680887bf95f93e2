/**
 * The operator's views: GET /api/sessions, /api/mntr, /api/traffic, /api/history. The routes only check
 * parameters and say UNAVAILABLE (409) for a feature the console was started without; the sources
 * (sources/*.ts) do the work.
 */
import type { StatsReport } from '../../stats/index.js';
import type { HistoryPage, MntrHistory, SessionsInfo, TrafficInfo, TrafficReport } from '../api-types.js';
import { badRequest, ConsoleApiError } from '../api-error.js';
import type { Route } from '../router.js';

export interface HistoryQuery {
  readonly path?: string;
  readonly session?: string;
  readonly op?: string;
  readonly limit?: number;
  readonly before?: string;
}

/** What the sources (four-letter words, the proxy, the dataDir) give; absent ones answer UNAVAILABLE. */
export interface OpsDeps {
  sessions(): Promise<SessionsInfo>;
  mntr(): MntrHistory;
  /** undefined: the console runs without --proxy. */
  traffic(): TrafficInfo | undefined;
  /** undefined: the console runs without --data-dir. */
  history(query: HistoryQuery): Promise<HistoryPage> | undefined;
}

/** The page reads `TrafficInfo.report` as a TrafficReport: this fails to compile when the report drifts from it. */
const reportIsTrafficReport: StatsReport extends TrafficReport ? true : never = true;
void reportIsTrafficReport;

const MAX_LIMIT = 1000;
const HEX_ID = /^0x[0-9a-f]{1,16}$/i;
const DECIMAL_ID = /^\d{1,20}$/;

function unavailable(message: string): ConsoleApiError {
  return new ConsoleApiError(409, 'UNAVAILABLE', message);
}

/** The query's text parameter, trimmed; undefined when absent or empty. */
function text(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name)?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** Checks every parameter here, so a typo is a 400 naming it rather than an empty page. */
export function parseHistoryQuery(query: URLSearchParams): HistoryQuery {
  const out: { -readonly [K in keyof HistoryQuery]: HistoryQuery[K] } = {};
  const path = text(query, 'path');
  if (path !== undefined) {
    if (!path.startsWith('/')) throw badRequest(`path must start with '/', got '${path}'`);
    out.path = path;
  }
  const session = text(query, 'session');
  if (session !== undefined) {
    if (!HEX_ID.test(session) && !DECIMAL_ID.test(session)) throw badRequest(`session must be a session id like 0x1000a2b3c4d0000, got '${session}'`);
    out.session = session;
  }
  const op = text(query, 'op');
  if (op !== undefined) {
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(op)) throw badRequest(`op must be an op name like delete or create2, got '${op}'`);
    out.op = op;
  }
  const limit = text(query, 'limit');
  if (limit !== undefined) {
    const n = /^\d+$/.test(limit) ? Number(limit) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 1 || n > MAX_LIMIT) throw badRequest(`limit must be 1..${MAX_LIMIT}, got '${limit}'`);
    out.limit = n;
  }
  const before = text(query, 'before');
  if (before !== undefined) {
    if (!HEX_ID.test(before)) throw badRequest(`before must be a zxid like 0x100000002, got '${before}'`);
    out.before = before;
  }
  return out;
}

/** A source's own typed failure (`code` BAD_REQUEST / UNAVAILABLE) as the console's answer. */
function fromSource(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'BAD_REQUEST') return badRequest(message);
  if (code === 'UNAVAILABLE') return unavailable(message);
  return error;
}

export function opsRoutes(deps: OpsDeps): Route[] {
  return [
    { method: 'GET', path: '/api/sessions', handle: (): Promise<SessionsInfo> => deps.sessions() },
    { method: 'GET', path: '/api/mntr', handle: async (): Promise<MntrHistory> => deps.mntr() },
    {
      method: 'GET',
      path: '/api/traffic',
      handle: async (): Promise<TrafficInfo> => {
        const info = deps.traffic();
        if (info === undefined) throw unavailable('the console runs without --proxy: start it with --proxy [HOST:]PORT and point clients there');
        return info;
      },
    },
    {
      method: 'GET',
      path: '/api/history',
      handle: async ({ query }): Promise<HistoryPage> => {
        const page = deps.history(parseHistoryQuery(query));
        if (page === undefined) throw unavailable("the console runs without --data-dir: start it with --data-dir DIR (the server's dataDir)");
        try {
          return await page;
        } catch (error) {
          throw fromSource(error);
        }
      },
    },
  ];
}
