/**
 * Who may talk to the console. The console can read and write a production ZooKeeper with its operator's
 * credentials, so it behaves like Jupyter: it listens on loopback, a random token in the printed URL is required
 * on every request (kept afterwards in an HttpOnly SameSite=Strict cookie), the Host header must name the
 * console itself (a DNS-rebinding page cannot borrow the cookie), and every write also needs a CSRF header that
 * only the console's own page can read and a same-origin (or absent) Origin.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import { ConsoleApiError } from './api-error.js';

export const TOKEN_COOKIE = 'zkts_console';
export const CSRF_HEADER = 'x-zkts-csrf';

export function randomSecret(): string {
  return randomBytes(24).toString('base64url');
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookie(request: IncomingMessage, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export interface Gate {
  readonly token: string;
  readonly csrf: string;
  /** Host header values that name this console (`127.0.0.1:8080`, `localhost:8080`, …). */
  readonly hosts: ReadonlySet<string>;
}

export function hostsFor(bindHost: string, port: number): Set<string> {
  const names = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  names.add(bindHost.includes(':') ? `[${bindHost}]:${port}` : `${bindHost}:${port}`);
  return names;
}

/** Throws unless the request names this console and carries the token. Returns whether it came in the URL. */
export function admit(gate: Gate, request: IncomingMessage, url: URL): { tokenInUrl: boolean } {
  const host = request.headers.host ?? '';
  if (!gate.hosts.has(host.toLowerCase())) {
    throw new ConsoleApiError(403, 'BAD_HOST', `this console answers only to ${[...gate.hosts][0]}, not to Host '${host}'`);
  }
  const fromUrl = url.searchParams.get('token');
  if (fromUrl !== null && same(fromUrl, gate.token)) return { tokenInUrl: true };
  const fromCookie = cookie(request, TOKEN_COOKIE);
  if (fromCookie !== undefined && same(fromCookie, gate.token)) return { tokenInUrl: false };
  const authorization = request.headers.authorization;
  if (authorization !== undefined && /^token\s+/i.test(authorization) && same(authorization.replace(/^token\s+/i, ''), gate.token)) {
    return { tokenInUrl: false };
  }
  throw new ConsoleApiError(401, 'BAD_TOKEN', 'a console token is required: open the URL `zkts console` printed');
}

/** A write must come from the console's page: the CSRF header, a JSON body, and no foreign Origin. */
export function checkWrite(gate: Gate, request: IncomingMessage): void {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = '';
    }
    if (!gate.hosts.has(originHost.toLowerCase())) throw new ConsoleApiError(403, 'BAD_CSRF', `a write from another origin (${origin}) is refused`);
  } else if (origin === 'null') {
    throw new ConsoleApiError(403, 'BAD_CSRF', 'a write from an opaque origin is refused');
  }
  const header = request.headers[CSRF_HEADER];
  if (typeof header !== 'string' || !same(header, gate.csrf)) {
    throw new ConsoleApiError(403, 'BAD_CSRF', `a write needs the ${CSRF_HEADER} header the console's page sends`);
  }
  const type = request.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) throw new ConsoleApiError(415 as number, 'BAD_REQUEST', 'a write takes a JSON body (Content-Type: application/json)');
}

export function tokenCookie(token: string): string {
  return `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}
