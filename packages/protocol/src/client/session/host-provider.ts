/**
 * The host list of one client (Java's StaticHostProvider): shuffled once, walked round-robin. After a full
 * cycle through every host without a session the caller waits (~1 s, jittered) before the next round, so a dead
 * ensemble is not hammered.
 *
 * After a working connection drops (or the session expired and a new one is due), the first dial waits a
 * jittered delay (reconnect-delay.ts), so that the sessions of a member that dies spread their reconnects over
 * the survivors instead of arriving together, and a session taken over by another connection is not taken
 * straight back. A connection the network broke is the exception: its server is dialled again at once, within
 * the wait it would have had, and only then do the other hosts follow, with what is left of it.
 *
 * The list can change while the client runs (`update`, after a reconfig or from the application). Moving every
 * client at once would drop every session's connection together, so each client decides by itself, with the
 * probabilities of ZOOKEEPER-1355, whether to move, so that the expected load ends up even:
 *
 *   the ensemble grew, our server stays      move to one of the new servers with probability 1 − old/new
 *   the ensemble grew, our server left       move to one of the new servers
 *   same size or shrank, our server stays    stay
 *   same size or shrank, our server left     move: to a new server with probability pNew, else to a remaining one
 *
 * While moving ("reconfig mode") the next hosts come from the chosen group first, then the other group, then
 * the plain round-robin resumes.
 */
import { abortWith, sleep } from '../cancel.js';
import type { Clock } from '../clock.js';
import type { HostAddress } from '../connect-string.js';
import type { DialReason } from '../diagnostics.js';
import { DEFAULT_RECONNECT_DELAY, MIN_REDIAL_WINDOW_MS, REDIAL_SPACING_MS, ReconnectDelays, type DelayRange, type DropKind } from './reconnect-delay.js';

export { dropKind } from './reconnect-delay.js';

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

const sameHost = (a: HostAddress, b: HostAddress): boolean => a.host === b.host && a.port === b.port;

/** The next dial: where, after how long, and (for the immediate redial of a broken connection) within how long. */
export interface NextDial {
  host: HostAddress;
  delay: number;
  /** A bound on the dial and its handshake, below the usual connect timeout (absent: the usual one). */
  within?: number;
  /** Why this dial happens (zkts:connection's `reason`). */
  reason: DialReason;
}

/** A drop's kind as the reason of the dial after it: a connection closed or broken is `lost`. */
const REASON_OF: Record<DropKind, DialReason> = { closed: 'lost', broken: 'lost', expired: 'expired', contested: 'contested' };

interface Rebalance {
  /** Probability of picking from `fresh` (servers new to the list) rather than `kept`. */
  pNew: number;
  fresh: HostAddress[];
  kept: HostAddress[];
  nextFresh: number;
  nextKept: number;
}

export class HostProvider {
  private list: readonly HostAddress[];
  private index = -1;
  /** Attempts since the last successful connection. */
  private attempts = 0;
  private rebalance: Rebalance | null = null;
  private readonly random: () => number;
  private readonly reconnectDelay: DelayRange;
  /** Made at the first drop: a session that stays connected never waits to redial. */
  private delays: ReconnectDelays | null = null;
  /** The wait before the first dial after a drop (null: no drop since the last dial). */
  private pending: number | null = null;
  /** `prefer` made the next host: the close that follows is a move, not a drop. */
  private preferred = false;
  /** A broken connection's server is being dialled again at once; `until` ends the wait it stands in for. */
  private redial: { until: number; dialled: boolean } | null = null;
  /** null: none yet (not -Infinity, which a field keeps as a heap number of its own). */
  private lastRedialAt: number | null = null;
  /** Why the next dial happens: what came since the last one (a drop, a move), else the next step of a cycle. */
  private why: DialReason = 'first';
  /** The wait before a dial under way (waitToDial): a drop ends it. */
  private waiting: AbortController | null = null;

  constructor(hosts: readonly HostAddress[], shuffle: boolean, random: () => number = Math.random, reconnectDelay: DelayRange = DEFAULT_RECONNECT_DELAY) {
    this.random = random;
    this.reconnectDelay = reconnectDelay;
    // Never changed in place (update() replaces it), so one host needs no copy of the caller's list.
    this.list = hosts.length < 2 ? hosts : shuffle ? shuffled(hosts, random) : hosts.slice();
  }

  get hosts(): readonly HostAddress[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  /**
   * A working connection dropped (see reconnect-delay.ts for the kinds): the next dial waits the delay this
   * returns. `negotiated` is the session's timeout (0: none); `now` the clock's time. A deliberate move
   * (rebalance, read-write server found) waits nothing.
   */
  dropped(kind: DropKind, negotiated: number, now: number): number {
    this.redial = null;
    this.waiting?.abort();
    if (this.rebalance !== null || this.preferred) return 0;
    this.why = REASON_OF[kind];
    const delay = (this.delays ??= new ReconnectDelays(this.reconnectDelay, this.random)).after(kind, negotiated);
    // At most one immediate redial in a while: a server that keeps breaking connections gets the plain wait.
    if (kind === 'broken' && this.index >= 0 && (this.lastRedialAt === null || now - this.lastRedialAt >= REDIAL_SPACING_MS)) {
      this.redial = { until: now + delay, dialled: false };
      this.pending = null;
      return 0;
    }
    this.pending = delay;
    return delay;
  }

  /**
   * Waits `ms` before the dial `next()` gave; false when a drop came meanwhile (the session expired during a
   * cycle's back-off): that drop's wait and reason replace the rest of this one, so `next()` is asked again.
   */
  async waitToDial(ms: number, stop: AbortSignal, clock: Clock): Promise<boolean> {
    const wait = (this.waiting = new AbortController());
    const unlink = abortWith(stop, wait);
    await sleep(ms, { signal: wait.signal }, clock).catch(() => undefined);
    unlink();
    if (this.waiting === wait) this.waiting = null;
    return !wait.signal.aborted;
  }

  /** Why the next dial will happen (see DialReason). */
  get nextReason(): DialReason {
    return this.why;
  }

  /** The next host, and how long to wait before dialling it: the drop's delay, or the back-off once a full cycle failed. */
  next(now: number): NextDial {
    let pending = this.pending;
    const reason = this.why;
    this.pending = null;
    this.preferred = false;
    this.why = 'cycle';
    const redial = this.redial;
    if (redial !== null && !redial.dialled) {
      redial.dialled = true;
      this.lastRedialAt = now;
      return { host: this.list[this.index] as HostAddress, delay: 0, within: Math.max(MIN_REDIAL_WINDOW_MS, redial.until - now), reason };
    }
    if (redial !== null) {
      this.redial = null;
      pending = Math.max(0, redial.until - now);
    }
    const moving = this.nextWhileRebalancing();
    if (moving !== undefined) return { host: moving, delay: 0, reason };
    this.index = (this.index + 1) % this.list.length;
    const cycleDone = this.attempts > 0 && this.attempts % this.list.length === 0;
    this.attempts++;
    const delay = pending ?? (cycleDone ? Math.round(CYCLE_BACKOFF_MS * (0.5 + this.random())) : 0);
    return { host: this.list[this.index] as HostAddress, delay, reason };
  }

  private nextWhileRebalancing(): HostAddress | undefined {
    const r = this.rebalance;
    if (r === null) return undefined;
    const takeNew = this.random() <= r.pNew;
    let host: HostAddress | undefined;
    if (r.nextFresh < r.fresh.length && (takeNew || r.nextKept >= r.kept.length)) host = r.fresh[r.nextFresh++];
    else if (r.nextKept < r.kept.length) host = r.kept[r.nextKept++];
    if (host === undefined) {
      // Tried every host of the new list: back to round-robin.
      this.rebalance = null;
      return undefined;
    }
    this.index = this.list.findIndex((h) => sameHost(h, host));
    return host;
  }

  /** Makes `host` the next one returned, without delay (read-only mode found a read-write server). */
  prefer(host: HostAddress): void {
    const i = this.list.findIndex((h) => sameHost(h, host));
    if (i < 0) return;
    this.rebalance = null;
    this.index = i - 1;
    this.attempts = 0;
    this.pending = null;
    this.redial = null;
    this.preferred = true;
    this.why = 'move';
  }

  /** A connection succeeded: the next failure starts a fresh cycle. */
  connected(): void {
    this.attempts = 0;
    this.rebalance = null;
    this.redial = null;
  }

  /**
   * Replaces the list. `current` is the server the client is connected to (undefined when not connected).
   * Returns true when the client should move: the caller then drops its connection, and `next()` picks the
   * new server.
   */
  update(hosts: readonly HostAddress[], current: HostAddress | undefined): boolean {
    if (hosts.length === 0) throw new RangeError('a host list may not be empty');
    const next = shuffled(hosts, this.random);
    const mine = current ?? this.list[Math.max(0, this.index)];
    const stays = mine !== undefined && next.some((h) => sameHost(h, mine));
    const kept = next.filter((h) => this.list.some((o) => sameHost(o, h)));
    const fresh = next.filter((h) => !this.list.some((o) => sameHost(o, h)));
    const before = this.list.length;
    let pNew: number | undefined;
    if (next.length > before) {
      if (!stays) pNew = 1;
      else if (this.random() <= 1 - before / next.length) pNew = 1;
    } else if (!stays) {
      const pOld = (kept.length * (before - next.length)) / (next.length * (before - kept.length));
      pNew = 1 - pOld;
    }
    this.list = next;
    this.attempts = 0;
    this.redial = null;
    if (pNew === undefined) {
      this.rebalance = null;
      this.index = mine === undefined ? -1 : next.findIndex((h) => sameHost(h, mine));
      return false;
    }
    this.rebalance = { pNew, fresh, kept, nextFresh: 0, nextKept: 0 };
    this.index = -1;
    this.why = 'move';
    return true;
  }
}
