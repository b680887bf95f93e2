/**
 * What a console API route is: a method, an exact path under /api/, and a handler that returns the JSON body
 * (or, for a stream, writes to the response itself). Feature modules export `xxxRoutes(deps): Route[]`; the
 * HTTP layer (http-server.ts) owns authentication, CSRF, read-only refusal, body parsing and error answers, so a
 * route only does its work. Every POST is a write: the HTTP layer refuses it under --read-only before any route
 * runs.
 */
import type { ServerResponse } from 'node:http';

export interface RouteContext {
  readonly query: URLSearchParams;
  /** The parsed JSON body of a POST (undefined for GET). */
  readonly body: unknown;
  /** Aborted when the browser goes away: long reads stop with it. */
  readonly signal: AbortSignal;
}

export interface JsonRoute {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  handle(context: RouteContext): Promise<unknown>;
}

/** A long-lived answer (Server-Sent Events): the route writes headers and events itself. */
export interface StreamRoute {
  readonly method: 'GET';
  readonly path: string;
  stream(context: RouteContext, response: ServerResponse): void;
}

export type Route = JsonRoute | StreamRoute;

export function isStreamRoute(route: Route): route is StreamRoute {
  return 'stream' in route;
}
