/**
 * A script's view of a running console's API for tests: requests with the token header and, for writes, the
 * CSRF header read from /api/info, answers as { status, body } so a test can check refusals as well.
 */
import type { Info } from '../../src/console/api-types.js';
import type { RunningConsole } from '../../src/console/app.js';

export interface ApiAnswer<T = unknown> {
  readonly status: number;
  readonly body: T;
}

export interface ConsoleApi {
  get<T = unknown>(path: string): Promise<ApiAnswer<T>>;
  /** A POST as the page sends it; `headers` adds to (or, set to '', removes) the defaults. */
  post<T = unknown>(path: string, body: unknown, headers?: Record<string, string>): Promise<ApiAnswer<T>>;
}

export async function consoleApi(running: RunningConsole): Promise<ConsoleApi> {
  const base = `http://127.0.0.1:${running.port}`;
  const auth = { authorization: `Token ${running.token}` };
  const answer = async <T>(response: Response): Promise<ApiAnswer<T>> => ({ status: response.status, body: (await response.json()) as T });
  const info = (await answer<Info>(await fetch(`${base}/api/info`, { headers: auth }))).body;
  return {
    get: async (path) => answer(await fetch(`${base}${path}`, { headers: auth })),
    post: async (path, body, extra = {}) => {
      const headers: Record<string, string> = { ...auth, 'content-type': 'application/json', 'x-zkts-csrf': info.csrf };
      for (const [name, value] of Object.entries(extra)) {
        if (value === '') delete headers[name];
        else headers[name] = value;
      }
      return answer(await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }));
    },
  };
}
