/**
 * What a session tells the world about its own life, from one place: the counters client.stats() reads, the
 * zkts:connection, zkts:session and zkts:auth channels, the logger's lines (logger.ts), and the failed connect
 * attempts onConnectFailure's listeners hear (attempts.ts). The session calls one method per event. A message is built only when its channel has subscribers, a line only when the client
 * has a logger; none of it is on a request's path. Messages name the auth scheme and its outcome, never a
 * credential.
 */
import type { ConnectAttempt, ZkError } from '../../errors/errors.js';
import type { Clock } from '../clock.js';
import {
  authChannel,
  connectionChannel,
  debug,
  hexId,
  sessionChannel,
  summary,
  type AuthMessage,
  type ConnectionMessage,
  type DialReason,
  type SessionMessage,
} from '../diagnostics.js';
import { SessionLog } from '../logger.js';
import type { Logger } from '../types.js';
import { ConnectFailures } from './attempts.js';

/** Shared by every session (a closure per session would be one more object each). */
const reportListenerError = (error: unknown): void => debug('a connect-attempt listener threw: %s', String(error));

/** The session's counters since the client was made (client.stats()). */
export interface SessionCounters {
  /** Connection attempts. */
  dials: number;
  /** Attempts that gave no connection (refused, unreachable, TLS, no handshake answer). */
  dialFailures: number;
  /** Established connections that closed while the session went on. */
  connectionsLost: number;
  /** Times the session was re-attached on a new connection after one closed. */
  reconnects: number;
  expiries: number;
  /** New sessions opened after an expiry (renewSession). */
  renewals: number;
}

export class SessionReport {
  // The counters (SessionCounters) as fields of the report itself: an object of their own took 72 bytes per session.
  private dials = 0;
  private dialFailures = 0;
  private connectionsLost = 0;
  private reconnects = 0;
  private expiries = 0;
  private renewals = 0;
  /** 'host:port' of the last server that answered a handshake. */
  lastServer: string | undefined = undefined;
  /** The last failure of each host since the last handshake, and their listeners: kept while either exists. */
  private attempts: ConnectFailures | null = null;
  private readonly log: SessionLog | null;
  private readonly clock: Clock;
  /** Connections present a TLS client certificate: each handshake answered is an x509 authentication. */
  private readonly x509: boolean;
  /** The session that expired, until its successor is open (a renewal). */
  private expiredId = 0n;
  /** When the last established connection closed (-1: none since the session was last open). */
  private lostAt = -1;

  constructor(logger: Logger | undefined, clock: Clock, x509: boolean) {
    this.log = logger === undefined ? null : new SessionLog(logger);
    this.clock = clock;
    this.x509 = x509;
  }

  /** A copy: the counters as they are now. */
  get counters(): SessionCounters {
    const { dials, dialFailures, connectionsLost, reconnects, expiries, renewals } = this;
    return { dials, dialFailures, connectionsLost, reconnects, expiries, renewals };
  }

  private get failures(): ConnectFailures {
    return (this.attempts ??= new ConnectFailures(reportListenerError));
  }

  onConnectFailure(listener: (attempt: ConnectAttempt) => void): () => void {
    const attempts = this.failures;
    const off = attempts.on(listener);
    return () => {
      off();
      if (this.attempts === attempts && attempts.empty) this.attempts = null;
    };
  }

  /** A handshake succeeded: earlier failures no longer explain anything, and a session without listeners keeps nothing of them. */
  connectedAgain(): void {
    const attempts = this.attempts;
    if (attempts === null) return;
    attempts.clear();
    if (attempts.empty) this.attempts = null;
  }

  /** A connect attempt starts (`dial`), or its connection is open and the handshake sent (`handshake`). */
  attempting(server: string, step: 'dial' | 'handshake'): void {
    this.failures.started(server, step, this.clock.now());
  }

  /** The last failure of each host since the last handshake, then the attempt under way (attempts.ts). */
  connectFailures(): ConnectAttempt[] {
    return this.failures.list(this.clock.now());
  }

  dialing(sessionId: bigint, server: string, delayMs: number, reason: DialReason): void {
    this.dials++;
    if (connectionChannel.hasSubscribers) connectionChannel.publish({ sessionId, event: 'dialing', server, delayMs, reason } satisfies ConnectionMessage);
    this.log?.dialing(sessionId, server, delayMs, reason);
  }

  /** This host gave no connection (dial, TLS or handshake failed). */
  dialFailed(sessionId: bigint, server: string, error: ZkError): void {
    debug('dial %s failed: %s', server, error.message);
    this.failures.record(server, error, this.clock.now());
    this.dialFailures++;
    if (connectionChannel.hasSubscribers) connectionChannel.publish({ sessionId, event: 'dial-failed', server, cause: summary(error) } satisfies ConnectionMessage);
    this.log?.dialFailed(sessionId, server, error);
  }

  /** The server answered the handshake (also when it answered that the session expired). */
  handshake(sessionId: bigint, server: string): void {
    this.lastServer = server;
    if (connectionChannel.hasSubscribers) connectionChannel.publish({ sessionId, event: 'connected', server } satisfies ConnectionMessage);
  }

  /** The handshake gave `sessionId`: a new session unless it is `previousId` again (re-attached). */
  adopted(previousId: bigint, sessionId: bigint, timeoutMs: number, server: string): void {
    if (sessionId === previousId) {
      if (this.lostAt >= 0) this.reconnects++;
    } else {
      if (previousId !== 0n) debug('new session %s replaces read-only session %s', hexId(sessionId), hexId(previousId));
      const renewed = this.expiredId !== 0n;
      if (renewed) this.renewals++;
      if (sessionChannel.hasSubscribers) {
        const message: SessionMessage = { event: renewed ? 'renewed' : 'established', sessionId, timeoutMs };
        const previous = renewed ? this.expiredId : previousId;
        if (previous !== 0n) message.previousSessionId = previous;
        sessionChannel.publish(message);
      }
    }
    if (this.x509) this.auth(sessionId, server, 'x509', null);
  }

  /** An answered connection closed (whatever comes next). */
  connectionClosed(sessionId: bigint, server: string, cause: ZkError): void {
    if (connectionChannel.hasSubscribers) connectionChannel.publish({ sessionId, event: 'closed', server, cause: summary(cause) } satisfies ConnectionMessage);
  }

  /** …and the session goes on: the client dials again after `delayMs`. */
  lost(sessionId: bigint, server: string, cause: ZkError, delayMs: number, reason: DialReason): void {
    this.connectionsLost++;
    if (this.lostAt < 0) this.lostAt = this.clock.now();
    this.log?.lost(sessionId, server, cause, delayMs, reason);
  }

  /** The session is usable again (state connected or connected-read-only). */
  opened(sessionId: bigint, timeoutMs: number, readOnly: boolean): void {
    const lost = this.lostAt < 0 ? null : { awayMs: Math.max(0, this.clock.now() - this.lostAt) };
    this.log?.opened(sessionId, this.lastServer ?? '?', timeoutMs, readOnly, { lost, expiredId: this.expiredId });
    this.lostAt = -1;
    this.expiredId = 0n;
  }

  expired(sessionId: bigint, cause: ZkError, renewing: boolean, timeoutMs: number): void {
    this.expiries++;
    if (sessionChannel.hasSubscribers) sessionChannel.publish({ event: 'expired', sessionId, timeoutMs } satisfies SessionMessage);
    this.log?.expired(sessionId, cause, renewing, this.lastServer);
    this.lostAt = -1;
    if (renewing) this.expiredId = sessionId;
  }

  /** The client is closing: `alreadyOver` when the session had ended before (expired, auth-failed). */
  closed(sessionId: bigint, alreadyOver: boolean): void {
    if (!alreadyOver && sessionId !== 0n && sessionChannel.hasSubscribers) sessionChannel.publish({ event: 'closed', sessionId } satisfies SessionMessage);
    this.log?.closed(sessionId);
  }

  /** close() could not reach a server to end the session: it lives on there until its timeout runs out. */
  lingering(sessionId: bigint, timeoutMs: number): void {
    this.log?.lingering(sessionId, timeoutMs);
  }

  /** Authentication refused: the session is over for this client. */
  authFailed(sessionId: bigint, cause: ZkError): void {
    if (sessionId !== 0n && sessionChannel.hasSubscribers) sessionChannel.publish({ event: 'closed', sessionId } satisfies SessionMessage);
    this.log?.authFailed(sessionId, this.lastServer, cause);
  }

  /** One authentication's outcome on `server` (`failure` null: accepted). */
  auth(sessionId: bigint, server: string, scheme: string, failure: ZkError | null): void {
    if (authChannel.hasSubscribers) {
      const message: AuthMessage = { sessionId, scheme, outcome: failure === null ? 'ok' : 'failed', server };
      if (failure !== null) message.cause = summary(failure);
      authChannel.publish(message);
    }
    this.log?.authenticated(sessionId, server, scheme, failure);
  }
}
