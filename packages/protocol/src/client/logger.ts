/**
 * The `logger` client option: the session's story told to the application's logger, one line per event that
 * matters to whoever runs the service. Each line is whole by itself (the server, the cause, the wait, the
 * session id in hex are in its text), because pino drops the `details` object that console and winston print:
 * pino reads `(message, ...args)` as a format string and its values. `details` repeats the facts as plain
 * values (no bigints) for loggers that keep it. No line carries a credential: causes are error messages, and
 * the client's auth and SASL errors name the scheme, never the secret.
 *
 * Levels: a dial, an authentication, a request are `debug`; connected, reconnected, renewed, closed, a move to
 * another server are `info`; a lost connection, a failed dial, a read-only server, an expiry are `warn`;
 * `error` is for what ends the client against its will (authentication refused) and for a listener that threw.
 * NODE_DEBUG=zkts (diagnostics.ts) is independent and prints its own lines.
 */
import { debug, hexId } from './diagnostics.js';
import type { DialReason } from './diagnostics.js';
import type { BackgroundWriteEvent, Logger } from './types.js';

type Level = 'debug' | 'info' | 'warn' | 'error';
type Details = Record<string, unknown>;

/** '%' doubled: pino and console read the message as a format string (both turn '%%' back into '%'). */
const literal = (text: string): string => text.replaceAll('%', '%%');

/** Calls one logger method; a logger that throws must not break the client, so that goes to NODE_DEBUG. */
function emit(logger: Logger, level: Level, message: string, details: Details): void {
  try {
    logger[level]?.(literal(message), details);
  } catch (err) {
    debug('the logger threw: %s', err instanceof Error ? err.message : String(err));
  }
}

const WHY: Record<DialReason, string> = {
  first: 'first connection',
  lost: 'connection lost',
  contested: 'session held by another connection',
  expired: 'new session after an expiry',
  cycle: 'next server',
  move: 'moving to another server',
};

/** The lines of one session's life, for the client's logger (made only when there is one). */
export class SessionLog {
  private readonly logger: Logger;

  constructor(logger: Logger) {
    this.logger = logger;
  }

  dialing(sessionId: bigint, server: string, delayMs: number, reason: DialReason): void {
    const wait = delayMs > 0 ? ` after waiting ${delayMs} ms` : '';
    emit(this.logger, 'debug', `zkts: dialing ${server}${wait} (${WHY[reason]}, session ${hexId(sessionId)})`, {
      server,
      delayMs,
      reason,
      sessionId: hexId(sessionId),
    });
  }

  dialFailed(sessionId: bigint, server: string, error: { code: string; message: string }): void {
    emit(this.logger, 'warn', `zkts: could not connect to ${server}: ${error.message} (session ${hexId(sessionId)})`, {
      server,
      code: error.code,
      sessionId: hexId(sessionId),
    });
  }

  /** An established connection is gone and the client dials again after `delayMs` (`reason`: lost, contested or move). */
  lost(sessionId: bigint, server: string, cause: { code: string; message: string }, delayMs: number, reason: DialReason): void {
    const level = reason === 'move' ? 'info' : 'warn';
    const what = reason === 'contested' ? ' (another connection holds the session)' : '';
    const message = `zkts: connection to ${server} closed: ${cause.message}${what}; reconnecting in ${delayMs} ms (session ${hexId(sessionId)})`;
    emit(this.logger, level, message, { server, code: cause.code, delayMs, reason, sessionId: hexId(sessionId) });
  }

  /** The client can send requests again; `after` tells what it comes after (a loss, an expiry, nothing). */
  opened(
    sessionId: bigint,
    server: string,
    timeoutMs: number,
    readOnly: boolean,
    after: { lost: { awayMs: number } | null; expiredId: bigint },
  ): void {
    const id = hexId(sessionId);
    const details: Details = { server, sessionId: id, timeoutMs, readOnly };
    let message: string;
    if (after.expiredId !== 0n) {
      details.previousSessionId = hexId(after.expiredId);
      message = `zkts: session ${hexId(after.expiredId)} renewed as ${id} on ${server} (timeout ${timeoutMs} ms)`;
    } else if (after.lost !== null) {
      details.awayMs = after.lost.awayMs;
      message = `zkts: reconnected to ${server} after ${after.lost.awayMs} ms without a connection (session ${id}, timeout ${timeoutMs} ms)`;
    } else {
      message = `zkts: connected to ${server} (session ${id}, timeout ${timeoutMs} ms)`;
    }
    if (readOnly) message += ': a read-only server, writes fail until a read-write server answers';
    emit(this.logger, readOnly ? 'warn' : 'info', message, details);
  }

  expired(sessionId: bigint, cause: { code: string; message: string }, renewing: boolean, lastServer: string | undefined): void {
    const next = renewing ? 'opening a new session (its ephemeral nodes are gone)' : 'the client is unusable: make a new one';
    const where = lastServer === undefined ? '' : `, last server ${lastServer}`;
    emit(this.logger, 'warn', `zkts: session ${hexId(sessionId)} expired: ${cause.message}${where}; ${next}`, {
      sessionId: hexId(sessionId),
      code: cause.code,
      renewing,
      server: lastServer,
    });
  }

  authenticated(sessionId: bigint, server: string, scheme: string, failure: { code: string; message: string } | null): void {
    const outcome = failure === null ? 'accepted' : `refused: ${failure.message}`;
    emit(this.logger, 'debug', `zkts: ${scheme} authentication on ${server} ${outcome} (session ${hexId(sessionId)})`, {
      server,
      scheme,
      outcome: failure === null ? 'ok' : 'failed',
      sessionId: hexId(sessionId),
    });
  }

  authFailed(sessionId: bigint, server: string | undefined, cause: { code: string; message: string }): void {
    const where = server === undefined ? '' : ` on ${server}`;
    emit(this.logger, 'error', `zkts: authentication failed${where}: ${cause.message}; the client is unusable (session ${hexId(sessionId)})`, {
      server,
      code: cause.code,
      sessionId: hexId(sessionId),
    });
  }

  closed(sessionId: bigint): void {
    emit(this.logger, 'info', `zkts: closed (session ${hexId(sessionId)})`, { sessionId: hexId(sessionId) });
  }

  lingering(sessionId: bigint, timeoutMs: number): void {
    emit(this.logger, 'warn', `zkts: closed without reaching a server (session ${hexId(sessionId)}): it ends when its ${timeoutMs} ms timeout runs out, and its ephemeral nodes stay until then`, { sessionId: hexId(sessionId), timeoutMs });
  }
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
    const text = finished ? `zkts: ${event.kind} of ${event.path}: ${event.status}` : `zkts: ${event.kind} of ${event.path} not finished (${event.status}); the node may remain`;
    emit(logger, finished ? 'debug' : 'warn', literal(text), details);
  });
}

/**
 * The dispatcher's report of a listener (or watch callback) that threw: to NODE_DEBUG, and to the logger as an
 * error, since the application's own code failed.
 */
export function listenerErrors(logger: Logger | undefined): (error: unknown) => void {
  if (logger === undefined) return debugListenerError;
  return (error) => {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    debug('a listener threw: %s', text);
    emit(logger, 'error', 'zkts: a listener threw', { error });
  };
}

/** Without a logger every client reports the same way: one function for all of them, not one each. */
function debugListenerError(error: unknown): void {
  debug('a listener threw: %s', error instanceof Error ? (error.stack ?? error.message) : String(error));
}
