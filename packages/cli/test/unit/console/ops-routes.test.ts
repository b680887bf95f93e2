import { describe, expect, it } from 'vitest';

import type { HistoryPage, MntrHistory, SessionsInfo } from '../../../src/console/api-types.js';
import { ConsoleApiError } from '../../../src/console/api-error.js';
import type { JsonRoute } from '../../../src/console/router.js';
import { opsRoutes, parseHistoryQuery, type HistoryQuery, type OpsDeps } from '../../../src/console/routes/ops.js';

const sessions: SessionsInfo = { words: [], sessions: [], hotPaths: [] };
const mntr: MntrHistory = { available: false, reason: 'not sampled yet', samples: [] };
const page: HistoryPage = { available: true, txns: [], next: null };

function route(deps: OpsDeps, path: string): JsonRoute {
  const found = opsRoutes(deps).find((r) => r.path === path);
  if (found === undefined || !('handle' in found)) throw new Error(`no route ${path}`);
  return found;
}

const call = (deps: OpsDeps, path: string, query = ''): Promise<unknown> =>
  route(deps, path).handle({ query: new URLSearchParams(query), body: undefined, signal: new AbortController().signal });

async function failure(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ConsoleApiError) return { status: error.status, code: error.code };
    throw error;
  }
  throw new Error('expected a failure');
}

const without: OpsDeps = { sessions: async () => sessions, mntr: () => mntr, traffic: () => undefined, history: () => undefined };

describe('ops routes', () => {
  it('answers UNAVAILABLE (409) for traffic without --proxy and history without --data-dir', async () => {
    expect(await failure(call(without, '/api/traffic'))).toEqual({ status: 409, code: 'UNAVAILABLE' });
    expect(await failure(call(without, '/api/history'))).toEqual({ status: 409, code: 'UNAVAILABLE' });
    expect(await call(without, '/api/sessions')).toBe(sessions);
    expect(await call(without, '/api/mntr')).toBe(mntr);
  });

  it('passes the checked history query to the source', async () => {
    const seen: HistoryQuery[] = [];
    const deps: OpsDeps = { ...without, history: async (q) => (seen.push(q), page) };
    expect(await call(deps, '/api/history', 'path=%2Fa%2Fb&session=0x1F&op=delete&limit=5&before=0x100000002')).toBe(page);
    expect(seen).toEqual([{ path: '/a/b', session: '0x1F', op: 'delete', limit: 5, before: '0x100000002' }]);
    expect(parseHistoryQuery(new URLSearchParams('path=&op= '))).toEqual({});
  });

  it('refuses malformed history parameters with BAD_REQUEST (400) naming them', () => {
    for (const [query, name] of [
      ['path=a/b', 'path'],
      ['session=0xzz', 'session'],
      ['op=de;lete', 'op'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=2.5', 'limit'],
      ['before=17', 'before'],
    ] as const) {
      let error: unknown;
      try {
        parseHistoryQuery(new URLSearchParams(query));
      } catch (e) {
        error = e;
      }
      expect(error, query).toBeInstanceOf(ConsoleApiError);
      expect((error as ConsoleApiError).status, query).toBe(400);
      expect((error as ConsoleApiError).message, query).toMatch(new RegExp(`^${name} `));
    }
  });

  it("maps a source's own BAD_REQUEST / UNAVAILABLE failures to the console's answers", async () => {
    const failing = (code: string): OpsDeps => ({
      ...without,
      history: () => Promise.reject(Object.assign(new Error(`${code} from the source`), { code })),
    });
    expect(await failure(call(failing('BAD_REQUEST'), '/api/history'))).toEqual({ status: 400, code: 'BAD_REQUEST' });
    expect(await failure(call(failing('UNAVAILABLE'), '/api/history'))).toEqual({ status: 409, code: 'UNAVAILABLE' });
  });
});
