/**
 * What each host answered while the session had no connection: the last failure per host since the last
 * successful handshake (a refused or unresolvable address, a TLS alert, a handshake that timed out or was
 * closed). A connect() that gives up reports them (ConnectTimeoutError), and listeners hear each one as it
 * happens, so a tool can say at once why nothing connects instead of waiting out its timeout.
 */
import type { ConnectAttempt, ZkError } from '../../errors/errors.js';

export class ConnectFailures {
  // Both made on first use (an idle session in a pool of thousands has had no failure and has no listener).
  private latest: Map<string, ConnectAttempt> | null = null;
  private listeners: Set<(attempt: ConnectAttempt) => void> | null = null;
  private readonly report: (error: unknown) => void;

  constructor(report: (error: unknown) => void) {
    this.report = report;
  }

  record(host: string, error: ZkError, at: number): void {
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

  /** A handshake succeeded: earlier failures no longer explain anything. */
  clear(): void {
    this.latest = null;
  }

  /** Oldest first. */
  list(): ConnectAttempt[] {
    return this.latest === null ? [] : [...this.latest.values()];
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
