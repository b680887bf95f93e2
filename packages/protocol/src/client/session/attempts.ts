/**
 * What each host answered while the session had no connection: the last failure per host since the last
 * successful handshake (a refused or unresolvable address, a TLS alert, a handshake that timed out or was
 * closed). A connect() that gives up reports them (ConnectTimeoutError), and listeners hear each one as it
 * happens, so a tool can say at once why nothing connects instead of waiting out its timeout.
 */
import type { ConnectAttempt, ZkError } from '../../errors/errors.js';

export class ConnectFailures {
  private readonly latest = new Map<string, ConnectAttempt>();
  private readonly listeners = new Set<(attempt: ConnectAttempt) => void>();
  private readonly report: (error: unknown) => void;

  constructor(report: (error: unknown) => void) {
    this.report = report;
  }

  record(host: string, error: ZkError, at: number): void {
    const attempt: ConnectAttempt = { host, error, at };
    // Re-inserted so the map's order is the order of the latest failures.
    this.latest.delete(host);
    this.latest.set(host, attempt);
    for (const l of [...this.listeners]) {
      try {
        l(attempt);
      } catch (err) {
        this.report(err);
      }
    }
  }

  /** A handshake succeeded: earlier failures no longer explain anything. */
  clear(): void {
    this.latest.clear();
  }

  /** Oldest first. */
  list(): ConnectAttempt[] {
    return [...this.latest.values()];
  }

  on(listener: (attempt: ConnectAttempt) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
