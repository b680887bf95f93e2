/**
 * What each host answered while the session had no connection: the last failure per host since the last
 * successful handshake (a refused or unresolvable address, a TLS alert, a handshake that timed out or was
 * closed). A connect() that gives up reports them (ConnectTimeoutError), and listeners hear each one as it
 * happens, so a tool can say at once why nothing connects instead of waiting out its timeout. The attempt
 * under way counts too when a connect() gives up: a silent server is then "no handshake reply" (it accepted the
 * connection and never answered), not "no server answered".
 */
import { ConnectionLossError, type ConnectAttempt, type ZkError } from '../../errors/errors.js';

/** The attempt under way: which host, since when, and whether it is still dialling or awaits the handshake reply. */
interface Trying {
  readonly host: string;
  readonly since: number;
  readonly step: 'dial' | 'handshake';
}

export class ConnectFailures {
  // Both made on first use (an idle session in a pool of thousands has had no failure and has no listener).
  private latest: Map<string, ConnectAttempt> | null = null;
  private listeners: Set<(attempt: ConnectAttempt) => void> | null = null;
  private readonly report: (error: unknown) => void;
  private trying: Trying | null = null;

  constructor(report: (error: unknown) => void) {
    this.report = report;
  }

  /** An attempt starts (`dial`) or its connection is open and the handshake sent (`handshake`). */
  started(host: string, step: Trying['step'], at: number): void {
    this.trying = { host, since: at, step };
  }

  record(host: string, error: ZkError, at: number): void {
    if (this.trying?.host === host) this.trying = null;
    const attempt: ConnectAttempt = { host, error, at };
    // Re-inserted so the map's order is the order of the latest failures.
    const latest = (this.latest ??= new Map());
    latest.delete(host);
    latest.set(host, attempt);
    if (this.listeners === null) return;
    for (const l of [...this.listeners]) {
      try {
        l(attempt);
      } catch (err) {
        this.report(err);
      }
    }
  }

  /** Nothing recorded, nothing under way, nobody listening: nothing would be lost with this object. */
  get empty(): boolean {
    return this.latest === null && this.trying === null && this.listeners === null;
  }

  /** A handshake succeeded: earlier failures no longer explain anything. */
  clear(): void {
    this.latest = null;
    this.trying = null;
  }

  /**
   * Oldest first. With `now`, also the attempt under way, as what it has been so far, for a host that has no
   * finished failure to show (a finished one says more than a retry cut short).
   */
  list(now?: number): ConnectAttempt[] {
    const attempts = this.latest === null ? [] : [...this.latest.values()];
    const trying = this.trying;
    if (now === undefined || trying === null || this.latest?.has(trying.host) === true) return attempts;
    const waited = Math.round(now - trying.since);
    const error = new ConnectionLossError(
      trying.step === 'dial' ? `no connection to ${trying.host} within ${waited} ms` : `no handshake reply from ${trying.host} within ${waited} ms`,
      false,
    );
    return [...attempts, { host: trying.host, error, at: now }];
  }

  on(listener: (attempt: ConnectAttempt) => void): () => void {
    const listeners = (this.listeners ??= new Set());
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.listeners === listeners) this.listeners = null;
    };
  }
}
