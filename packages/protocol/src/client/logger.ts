/**
 * The `logger` client option: the session's story told to the application's logger. It listens like any user
 * would (onStateChange, onConnectFailure), so it sees what they see and costs nothing on the request path; with
 * no logger nothing is attached. NODE_DEBUG=zkts (diagnostics.ts) is independent and keeps printing its lines.
 */
import type { ConnectAttempt } from '../errors/errors.js';
import { debug } from './diagnostics.js';
import type { BackgroundWriteEvent, Logger, SessionState, StateChange } from './types.js';

/** What the logger needs of the client: its listener hooks and the negotiated timeout for the connected line. */
export interface LoggedClient {
  onStateChange(listener: (change: StateChange) => void): () => void;
  onConnectFailure(listener: (attempt: ConnectAttempt) => void): () => void;
  readonly negotiatedTimeout: number;
}

type Level = 'debug' | 'info' | 'warn' | 'error';

/** How much each state matters to someone running the service. */
const LEVEL: Record<SessionState, Level> = {
  idle: 'debug',
  connecting: 'debug',
  connected: 'info',
  'connected-read-only': 'warn',
  suspended: 'warn',
  expired: 'error',
  'auth-failed': 'error',
  closed: 'info',
};

const MESSAGE: Record<SessionState, string> = {
  idle: 'zkts: idle',
  connecting: 'zkts: connecting',
  connected: 'zkts: connected',
  'connected-read-only': 'zkts: connected to a read-only server (writes fail until a read-write server answers)',
  suspended: 'zkts: connection lost, reconnecting (the session may still be alive)',
  expired: 'zkts: session expired (ephemeral nodes and watches are gone; make a new client)',
  'auth-failed': 'zkts: authentication failed (the client is unusable)',
  closed: 'zkts: closed',
};

const hex = (id: bigint): string => `0x${id.toString(16)}`;

/** Calls one logger method; a logger that throws must not break the client, so that is reported to NODE_DEBUG. */
function emit(logger: Logger, level: Level, message: string, details: Record<string, unknown>): void {
  try {
    logger[level]?.(message, details);
  } catch (err) {
    debug('the logger threw: %s', err instanceof Error ? err.message : String(err));
  }
}

/** Reports every state change and failed connection attempt of `client` to `logger` (no-op without one). */
export function attachLogger(client: LoggedClient, logger: Logger | undefined): void {
  if (logger === undefined) return;
  client.onStateChange((change) => {
    const details: Record<string, unknown> = { state: change.state, previous: change.previous, sessionId: hex(change.sessionId) };
    if (change.state === 'connected' || change.state === 'connected-read-only') details.timeout = client.negotiatedTimeout;
    if (change.error !== undefined) details.error = change.error.message;
    emit(logger, LEVEL[change.state], MESSAGE[change.state], details);
  });
  client.onConnectFailure((attempt) => {
    emit(logger, 'warn', `zkts: could not connect to ${attempt.host}: ${attempt.error.message}`, { host: attempt.host, code: attempt.error.code });
  });
}

/**
 * Reports how each background write ended: a warning when it did not finish (failed, gave up, stopped by
 * close() or the session's end), since its node may still be there; debug when it did.
 */
export function logBackgroundWrites(writes: { onEvent(listener: (event: BackgroundWriteEvent) => void): () => void }, logger: Logger | undefined): void {
  if (logger === undefined) return;
  writes.onEvent((event) => {
    if (event.status === 'pending') return;
    const finished = event.status === 'done' || event.status === 'replaced';
    const details: Record<string, unknown> = { kind: event.kind, path: event.path, status: event.status, attempts: event.attempts };
    if (event.error !== undefined) details.error = event.error.message;
    emit(logger, finished ? 'debug' : 'warn', finished ? `zkts: ${event.kind} of ${event.path}: ${event.status}` : `zkts: ${event.kind} of ${event.path} not finished (${event.status}); the node may remain`, details);
  });
}

/**
 * The dispatcher's report of a listener (or watch callback) that threw: to NODE_DEBUG as before, and to the
 * logger as an error, since the application's own code failed.
 */
export function listenerErrors(logger: Logger | undefined): (error: unknown) => void {
  return (error) => {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    debug('a listener threw: %s', text);
    if (logger !== undefined) emit(logger, 'error', 'zkts: a listener threw', { error });
  };
}
