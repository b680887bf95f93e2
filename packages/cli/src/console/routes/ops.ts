/** The operator's views: GET /api/sessions, /api/mntr, /api/traffic, /api/history. */
import type { HistoryPage, MntrHistory, SessionsInfo, TrafficInfo } from '../api-types.js';
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

export function opsRoutes(_deps: OpsDeps): Route[] {
  return [];
}
