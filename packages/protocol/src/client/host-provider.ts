/**
 * The host list of one client (Java's StaticHostProvider): shuffled once, walked round-robin. After a full
 * cycle through every host without a session the caller waits `cycleDelay()` (~1 s, jittered) before the
 * next round, so a dead ensemble is not hammered.
 */
import type { HostAddress } from './connect-string.js';

export const CYCLE_BACKOFF_MS = 1000;

export function shuffled<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const a = out[i] as T;
    out[i] = out[j] as T;
    out[j] = a;
  }
  return out;
}

export class HostProvider {
  readonly hosts: readonly HostAddress[];
  private index = -1;
  /** Attempts since the last successful connection. */
  private attempts = 0;

  constructor(hosts: readonly HostAddress[], shuffle: boolean, random: () => number = Math.random) {
    this.hosts = shuffle ? shuffled(hosts, random) : hosts.slice();
  }

  get size(): number {
    return this.hosts.length;
  }

  /** The next host, and how long to wait before dialling it (non-zero once a full cycle failed). */
  next(random: () => number = Math.random): { host: HostAddress; delay: number } {
    this.index = (this.index + 1) % this.hosts.length;
    const cycleDone = this.attempts > 0 && this.attempts % this.hosts.length === 0;
    this.attempts++;
    const delay = cycleDone ? Math.round(CYCLE_BACKOFF_MS * (0.5 + random())) : 0;
    return { host: this.hosts[this.index] as HostAddress, delay };
  }

  /** Makes `host` the next one returned, without delay (read-only mode found a read-write server). */
  prefer(host: HostAddress): void {
    const i = this.hosts.findIndex((h) => h.host === host.host && h.port === host.port);
    if (i < 0) return;
    this.index = i - 1;
    this.attempts = 0;
  }

  /** A connection succeeded: the next failure starts a fresh cycle. */
  connected(): void {
    this.attempts = 0;
  }
}
