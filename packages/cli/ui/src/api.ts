/**
 * The page's one door to the console's API (src/console/api-types.ts): GETs with the token cookie, POSTs with
 * the CSRF header, and every failure as an ApiError carrying the server's code and words.
 */
import type { ApiErrorBody, Info, NodeInfo } from '../../src/console/api-types.js';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly current: NodeInfo | undefined;
  constructor(status: number, body: ApiErrorBody | undefined, fallback: string) {
    super(body?.error.message ?? fallback);
    this.name = 'ApiError';
    this.status = status;
    this.code = body?.error.code ?? 'INTERNAL';
    this.current = body?.current;
  }
}

let csrf = '';

async function parse<T>(response: Response): Promise<T> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) throw new ApiError(response.status, body as ApiErrorBody | undefined, `${response.status} ${response.statusText}`);
  return body as T;
}

export async function getJson<T>(path: string, params: Record<string, string | number | undefined> = {}, signal?: AbortSignal): Promise<T> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, String(value));
  const qs = query.toString();
  const init: RequestInit = { credentials: 'same-origin' };
  if (signal !== undefined) init.signal = signal;
  return parse<T>(await fetch(qs === '' ? path : `${path}?${qs}`, init));
}

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  return parse<T>(
    await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-zkts-csrf': csrf },
      body: JSON.stringify(body),
    }),
  );
}

export async function loadInfo(): Promise<Info> {
  const info = await getJson<Info>('/api/info');
  csrf = info.csrf;
  return info;
}

/** Node data travels as base64; these keep arbitrary bytes intact (no UTF-8 round trip). */
export function fromBase64(text: string): Uint8Array {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

export function toBase64(bytes: Uint8Array): string {
  let raw = '';
  for (let i = 0; i < bytes.length; i += 0x8000) raw += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(raw);
}
