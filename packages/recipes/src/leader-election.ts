/**
 * Leader election, latch style (Curator LeaderLatch): every participant keeps a protected EPHEMERAL_SEQUENTIAL
 * `latch-` node; the lowest is the leader. Before declaring leadership the leader reads its own node and checks
 * that its ephemeralOwner is our CURRENT session (CURATOR-696: a stale node of an old session must not make us
 * leader). A non-leader watches its predecessor with a data watch; if that node is already gone it lists again,
 * without recreating its own node (CURATOR-644/645 livelock). Our node missing means our place is gone: recreate.
 * Leadership ends on session expiry or close, and on suspension when `lostOn: 'suspended'`.
 */
import { joinPath, sleep, systemClock, type Clock } from '@zkts/protocol';

import { removeNode } from './cleanup.js';
import { enqueue, removeLateDuplicates, sweepPrefix, type Entry, type QueueSpec } from './contender.js';
import { LockLostError, RecipeClosedError } from './errors.js';
import type { LostOn } from './lease.js';
import { indexOfName, sortContenders, type MarkerTable } from './names.js';
import { childrenOrEmpty, readNodes, utf8 } from './nodes.js';
import { Pulse } from './pulse.js';
import { testHooksOf } from './test-hooks.js';
import { openScope, within, type WaitOptions } from './wait.js';
import { isConnectionLoss, isLive, isNoNode, isSessionGone, type RecipeClient } from './zk.js';

/** Options of a LeaderElection. */
export interface LeaderElectionOptions {
  /** Our participant id, stored in our node. Default: a random id. */
  id?: string;
  /** When leadership counts as lost. Default 'expired'. */
  lostOn?: LostOn;
  /** Time source for `awaitLeadership`'s timeout and the retry pause after an error (default: the system clock). */
  clock?: Clock;
}

/** One participant of an election, in queue order. */
export interface ElectionParticipant {
  id: string;
  node: string;
  isLeader: boolean;
}

const LATCH_MARKERS: MarkerTable = { 'latch-': 'write' };

/** Pause after an unexpected error of the election loop before it tries again. */
const RETRY_PAUSE_MS = 200;

/** Latch-style leader election: participants queue as sequential ephemeral nodes, the first is leader, and each watches only the one before it. */
export class LeaderElection implements AsyncDisposable {
  readonly client: RecipeClient;
  readonly path: string;
  readonly id: string;
  private readonly lostOn: LostOn;
  private readonly clock: Clock;
  private entry: Entry | undefined;
  private leader = false;
  private leadership: AbortController | undefined;
  private readonly listeners = new Set<(leader: boolean) => void>();
  private readonly closing = new AbortController();
  /** Fires on every session state change and on close: the loop's waits end on it. */
  private readonly kick = new Pulse();
  /** Fires on every leadership change and on close: awaitLeadership() and changes() wait on it. */
  private readonly changed = new Pulse();
  private loop: Promise<void> | undefined;
  private unsubscribe: (() => void) | undefined;
  /** The last unexpected error of the election loop (it retries after it). */
  lastError: unknown;

  constructor(client: RecipeClient, path: string, options: LeaderElectionOptions = {}) {
    this.client = client;
    this.path = path;
    this.id = options.id ?? globalThis.crypto.randomUUID();
    this.lostOn = options.lostOn ?? 'expired';
    this.clock = options.clock ?? systemClock;
  }

  /** Whether this participant leads now. */
  get isLeader(): boolean {
    return this.leader;
  }

  /** Our node's full path, once created. */
  get node(): string | undefined {
    return this.entry?.path;
  }

  /** Joins the election; resolves once our node exists (leadership may follow at any time). */
  async start(): Promise<void> {
    if (this.loop !== undefined) return;
    this.unsubscribe = this.client.onStateChange((c) => {
      if (!isLive(c.state)) this.setLeader(false);
      else if (c.state === 'suspended' && this.lostOn === 'suspended') this.setLeader(false);
      this.kick.fire();
    });
    this.entry = await this.join();
    this.loop = this.run();
  }

  /**
   * Resolves when we are leader, with an AbortSignal that fires when leadership ends. Rejects on
   * timeout/abort, or if the election is closed first.
   */
  async awaitLeadership(options: WaitOptions = {}): Promise<AbortSignal> {
    const scope = openScope(options, `leadership ${this.path}`, this.clock);
    try {
      for (;;) {
        const changed = this.changed.next();
        if (this.leader && this.leadership !== undefined) return this.leadership.signal;
        if (this.closing.signal.aborted) throw new RecipeClosedError(`leader election ${this.path} closed`);
        await within(scope, changed);
      }
    } finally {
      scope?.dispose();
    }
  }

  /** Calls `listener` on every change of leadership; returns the unsubscribe function. */
  onChange(listener: (leader: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Leadership changes as an async iterable (true: became leader, false: lost it), until closed or broken off. */
  async *changes(options: { signal?: AbortSignal } = {}): AsyncIterableIterator<boolean> {
    const queue: boolean[] = [];
    const off = this.onChange((v) => queue.push(v));
    const scope = openScope(options, `leadership changes ${this.path}`, this.clock);
    try {
      for (;;) {
        const changed = this.changed.next();
        while (queue.length > 0) yield queue.shift() as boolean;
        if (this.closing.signal.aborted || scope?.cancelled === true) return;
        try {
          await within(scope, changed);
        } catch {
          return; // broken off by the caller's signal
        }
      }
    } finally {
      off();
      scope?.dispose();
    }
  }

  /** Participants in election order; the first is the leader. */
  async participants(): Promise<ElectionParticipant[]> {
    const sorted = sortContenders(await childrenOrEmpty(this.client, this.path), LATCH_MARKERS);
    const read = await readNodes(this.client, sorted.map((c) => joinPath(this.path, c.name)));
    return read.map(({ path, data }, i) => ({ id: utf8(data), node: path, isLeader: i === 0 }));
  }

  /** Leaves the election: gives up leadership and deletes our node. */
  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    this.closing.abort();
    this.kick.fire();
    this.setLeader(false);
    this.changed.fire();
    this.unsubscribe?.();
    await this.loop?.catch(() => undefined);
    const entry = this.entry;
    this.entry = undefined;
    if (entry !== undefined) await removeNode(this.client, { path: entry.path }, entry.sessionId);
    if (entry?.uncertain !== undefined) await sweepPrefix(this.client, entry.uncertain, entry.sessionId);
  }

  /** The same as close(): leaves the election. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  private spec(): QueueSpec {
    return {
      client: this.client, dir: this.path, marker: 'latch-', markers: LATCH_MARKERS, decide: () => ({ granted: true }),
      data: this.id, hooks: testHooksOf(this), what: `leader election ${this.path}`,
    };
  }

  /** Creates our node; close() cancels a create still under way (its node is then removed by enqueue). */
  private async join(): Promise<Entry> {
    const scope = openScope({ signal: this.closing.signal }, `leader election ${this.path}`);
    try {
      return (await enqueue(this.spec(), scope)).entry;
    } finally {
      scope?.dispose();
    }
  }

  private setLeader(value: boolean): void {
    if (value === this.leader) return;
    this.leader = value;
    if (value) {
      this.leadership = new AbortController();
    } else {
      this.leadership?.abort(new LockLostError(`leadership of ${this.path} lost`));
      this.leadership = undefined;
    }
    for (const l of [...this.listeners]) {
      try {
        l(value);
      } catch {
        // a listener's failure is its own; the election goes on
      }
    }
    this.changed.fire();
  }

  private async run(): Promise<void> {
    const { client } = this;
    while (!this.closing.signal.aborted) {
      const kicked = this.kick.next();
      try {
        if (!isLive(client.state)) {
          this.setLeader(false);
          return; // the session is over for this client; a new client needs a new election object
        }
        if (client.state !== 'connected' && client.state !== 'connected-read-only') {
          if (this.lostOn === 'suspended') this.setLeader(false);
          await Promise.race([client.connected(), kicked]);
          continue;
        }
        let entry = this.entry;
        if (entry === undefined || entry.sessionId !== client.sessionId) {
          this.setLeader(false);
          entry = await this.join();
          this.entry = entry;
        }
        const { children } = await client.getChildren(this.path);
        const sorted = sortContenders(children, LATCH_MARKERS);
        removeLateDuplicates(client, this.path, sorted, entry);
        const ourIndex = indexOfName(sorted, entry.name);
        if (ourIndex < 0) {
          this.setLeader(false);
          this.entry = undefined; // our node is gone: recreate (our old place cannot come back)
          continue;
        }
        if (ourIndex === 0) {
          const own = await client.getData(entry.path, { watch: true }).catch((e: unknown) => {
            if (isNoNode(e)) return undefined;
            throw e;
          });
          if (own === undefined) {
            this.setLeader(false);
            this.entry = undefined;
            continue;
          }
          const { stat, watch } = own;
          if (stat.ephemeralOwner !== client.sessionId) {
            this.setLeader(false);
            this.entry = undefined;
            continue;
          }
          this.setLeader(true);
          await Promise.race([watch ?? kicked, kicked]);
          continue;
        }
        this.setLeader(false);
        const pred = sorted[ourIndex - 1];
        if (pred === undefined) continue;
        await testHooksOf(this)?.afterGetChildren?.({ children, watch: pred.name });
        try {
          const { watch } = await client.getData(joinPath(this.path, pred.name), { watch: true });
          await Promise.race([watch ?? kicked, kicked]);
        } catch (e) {
          if (!isNoNode(e)) throw e; // NoNode: list again, keep our node
        }
      } catch (e) {
        if (this.closing.signal.aborted) return;
        if (isSessionGone(e)) {
          this.setLeader(false);
          if (!isLive(client.state)) return;
          continue;
        }
        if (isConnectionLoss(e)) {
          if (this.lostOn === 'suspended') this.setLeader(false);
          continue;
        }
        this.lastError = e;
        // The pause ends early on a kick; the timer then runs out on its own (or at close) and leaves nothing behind.
        const pause = sleep(RETRY_PAUSE_MS, { signal: this.closing.signal }, this.clock).catch(() => undefined);
        await Promise.race([pause, kicked]);
      }
    }
  }
}
