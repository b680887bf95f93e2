/**
 * The console's HTTP server (node:http): admission (security.ts), the API route table (router.ts), JSON bodies
 * and error answers (api-error.ts), and the page's static files (static-assets.ts). Nothing a request does can
 * take the process down: every handler's failure becomes an HTTP answer, a broken socket is destroyed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ConsoleApiError, badRequest, toApiError } from './api-error.js';
import { isStreamRoute, type Route } from './router.js';
import { admit, checkWrite, hostsFor, tokenCookie, type Gate } from './security.js';
import { CONTENT_SECURITY_POLICY, loadAssets } from './static-assets.js';

/** A node's data is at most 1 MiB; base64 and JSON around it stay well under this. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface ConsoleServerOptions {
  readonly host: string;
  /** 0: a free port. */
  readonly port: number;
  readonly token: string;
  readonly csrf: string;
  readonly readOnly: boolean;
  readonly routes: readonly Route[];
  readonly assetsDir: string;
}

export interface ConsoleServer {
  /** The URL to open, token included. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
} as const;

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { ...COMMON_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new ConsoleApiError(413, 'BAD_REQUEST', `a request body is limited to ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text === '' ? {} : (JSON.parse(text) as unknown);
  } catch (error) {
    throw badRequest(`the body is not JSON: ${(error as Error).message}`);
  }
}

export async function startConsoleServer(options: ConsoleServerOptions): Promise<ConsoleServer> {
  const assets = await loadAssets(options.assetsDir);
  const table = new Map<string, Route>();
  for (const route of options.routes) table.set(`${route.method} ${route.path}`, route);
  const hosts = new Set<string>();
  const gate: Gate = { token: options.token, csrf: options.csrf, hosts };
  const open = new Set<ServerResponse>();

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://console.invalid');
    const api = url.pathname.startsWith('/api/');
    try {
      const { tokenInUrl } = admit(gate, request, url);
      if (!api) return servePage(url, request, response, tokenInUrl);
      const route = table.get(`${request.method ?? 'GET'} ${url.pathname}`);
      if (route === undefined) throw new ConsoleApiError(404, 'NOT_FOUND', `no API ${request.method ?? ''} ${url.pathname}`);
      let body: unknown;
      if (route.method === 'POST') {
        if (options.readOnly) throw new ConsoleApiError(403, 'READ_ONLY', 'this console was started with --read-only: it makes no writes');
        checkWrite(gate, request);
        body = await readJson(request);
      }
      const aborter = new AbortController();
      response.once('close', () => aborter.abort());
      const context = { query: url.searchParams, body, signal: aborter.signal };
      if (isStreamRoute(route)) {
        route.stream(context, response);
        return;
      }
      sendJson(response, 200, await route.handle(context));
    } catch (thrown) {
      const error = toApiError(thrown);
      if (response.headersSent) {
        response.destroy();
        return;
      }
      if (api) sendJson(response, error.status, error.body());
      else {
        response.writeHead(error.status, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
        response.end(`${error.message}\n`);
      }
    }
  };

  const servePage = (url: URL, request: IncomingMessage, response: ServerResponse, tokenInUrl: boolean): void => {
    if (request.method !== 'GET' && request.method !== 'HEAD') throw new ConsoleApiError(405, 'BAD_REQUEST', 'the page is read with GET');
    const asset = assets.get(url.pathname);
    if (asset === undefined) {
      if (assets.size === 0) throw new ConsoleApiError(500, 'INTERNAL', "the console's page is not built: run `pnpm build` in packages/cli");
      throw new ConsoleApiError(404, 'NOT_FOUND', `no page ${url.pathname}`);
    }
    const headers: Record<string, string | number> = {
      ...COMMON_HEADERS,
      'content-type': asset.type,
      'content-length': asset.bytes.length,
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'cache-control': 'no-cache',
    };
    if (tokenInUrl) headers['set-cookie'] = tokenCookie(options.token);
    response.writeHead(200, headers);
    response.end(request.method === 'HEAD' ? undefined : asset.bytes);
  };

  const server = createServer((request, response) => {
    open.add(response);
    response.once('close', () => open.delete(response));
    handle(request, response).catch(() => response.destroy());
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  for (const name of hostsFor(options.host, port)) hosts.add(name);
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}/?token=${options.token}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of open) response.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
