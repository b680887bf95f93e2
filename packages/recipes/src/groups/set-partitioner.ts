/**
 * kazoo's SetPartitioner (kazoo/recipe/partitioner.py): a set of items divided among the members of a party, so
 * that each item is worked on by one member at a time, re-divided whenever members come or go.
 *
 * Layout, as kazoo's, so kazoo and zkts processes split one set together: the members are a ShallowParty at
 * `<path>/party` (`<uuidhex>-<identifier>`), and a member owns an item while it holds a kazoo Lock on
 * `<path>/locks/<item>` (`<uuidhex>__lock__<seq>`). The split is kazoo's default (default-partition.ts) unless a
 * `partition` function is given; every member must use the same one.
 *
 * States, as kazoo's: `allocating` (wait until the membership has not changed for `timeBoundary` ms, then take
 * the locks of our share; a membership change meanwhile gives them back and starts over) → `acquired` → `release`
 * (ownership is in doubt: call release(), or acquired() again, when you have stopped working) → `allocating`…;
 * `failure` once finished, when the client is over, or on an error retrying cannot help.
 *
 * The acquired set carries an AbortSignal that fires the moment ownership is in doubt: the membership changed,
 * the connection was suspended (the session, and with it our locks, may be expiring), the session expired, a
 * lock node of ours was deleted, or release()/finish() was called. A member that stops working on its items when
 * the signal fires never works on an item another member holds: the other can only take the lock after our
 * node is gone, which happens after our session expired, which a client notices as a suspension first.
 *
 * Unlike kazoo, an expired session is not the end: the client renews it, the party node is made again, and after
 * the release the partitioner allocates again in the new session (kazoo goes to FAILURE).
 */
import { joinPath, sleep, systemClock, type Clock } from '@zkts/protocol';

import type { CacheClient } from '../cache/index.js';
import { LockLostError, RecipeArgumentError, RecipeClosedError } from '../errors.js';
import {
  ChangeFeed, checkArg, checkClientAndPath, checkOptions, checkWait, isConnectedState, rules, isConnectionLoss, isSessionGone, openScope, Pulse, settleRemovals, within,
  type OptionRules, type RecipeClient, type WaitOptions,
} from '../internal/index.js';
import { UuidHexLock, type LockHandle } from '../locks/index.js';
import { kazooPartition } from './default-partition.js';
import { ShallowParty } from './party.js';

/** kazoo's PartitionState, in lower case. */
export type PartitionState = 'allocating' | 'acquired' | 'release' | 'failure';

/** Our share of the set while we hold it. Stop working on the items when `signal` fires. */
export interface PartitionSet {
  /** The items this member holds, in partition order. */
  readonly items: readonly string[];
  /** Fires the moment ownership is in doubt (membership change, suspension, expiry, a lock node lost, release, finish). */
  readonly signal: AbortSignal;
}

/** Decides this member's share from the member identifiers and the items (kazoo's `partition_func`). */
export type PartitionFunction = (identifier: string, members: readonly string[], items: readonly string[]) => readonly string[];

/** Options of a SetPartitioner. */
export interface SetPartitionerOptions {
  /** This member's identifier, unique in the party (it goes in the party node's name). Default: a random uuid. */
  identifier?: string;
  /** The split every member uses. Default kazoo's: sorted items, every n-th from our index in the sorted members. */
  partition?: PartitionFunction;
  /** ms the membership must stay unchanged before allocating (kazoo's `time_boundary`, there in seconds). Default 30,000. */
  timeBoundary?: number;
  /** Time source of the time boundary and the waits' timeouts (default: the system clock). */
  clock?: Clock;
}

interface Holding {
  readonly set: PartitionSet;
  readonly controller: AbortController;
  readonly leases: readonly LockHandle[];
}

const DEFAULT_TIME_BOUNDARY_MS = 30_000;

const OPTION_RULES: OptionRules<SetPartitionerOptions> = {
  identifier: rules.nonEmptyString, partition: rules.function, timeBoundary: rules.timeout, clock: rules.clock,
};

const fired = (signal: AbortSignal): Promise<void> =>
  signal.aborted ? Promise.resolve() : new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

/** kazoo's SetPartitioner: items split among a ShallowParty's members, each item under a kazoo Lock; a signal per acquired set. */
export class SetPartitioner implements AsyncDisposable {
  readonly client: RecipeClient & CacheClient;
  readonly path: string;
  /** The items to split, as given. */
  readonly items: readonly string[];
  readonly identifier: string;
  private readonly party: ShallowParty;
  private readonly partition: PartitionFunction;
  private readonly timeBoundary: number;
  private readonly clock: Clock;
  private current: PartitionState = 'allocating';
  private holding: Holding | undefined;
  private releasing: Promise<void> | undefined;
  private failure: unknown;
  private readonly feed = new ChangeFeed<PartitionState>();
  /** Fires on every membership change, session state change and on finish: the loop's waits end on it. */
  private readonly kick = new Pulse();
  private generation = 0;
  private readonly closing = new AbortController();
  private loop: Promise<void> | undefined;
  private readonly offs: (() => void)[] = [];

  constructor(client: RecipeClient & CacheClient, path: string, items: Iterable<string>, options: SetPartitionerOptions = {}) {
    checkClientAndPath('SetPartitioner', client, path);
    checkArg('SetPartitioner', 'items', items, rules.iterable);
    const list = [...items];
    for (const item of list) checkArg('SetPartitioner', 'items[]', item, rules.nodeName);
    if (new Set(list).size !== list.length) throw new RecipeArgumentError('SetPartitioner: items must be distinct');
    checkOptions('SetPartitioner', options, OPTION_RULES);
    const timeBoundary = options.timeBoundary ?? DEFAULT_TIME_BOUNDARY_MS;
    this.client = client;
    this.path = path;
    this.items = list;
    this.identifier = options.identifier ?? globalThis.crypto.randomUUID();
    this.partition = options.partition ?? kazooPartition;
    this.timeBoundary = timeBoundary;
    this.clock = options.clock ?? systemClock;
    this.party = new ShallowParty(client, joinPath(path, 'party'), { identifier: this.identifier, clock: this.clock });
  }

  /** The state now. */
  get state(): PartitionState {
    return this.current;
  }

  /** Our share while acquired (also after its signal fired, until released). */
  get acquiredSet(): PartitionSet | undefined {
    return this.holding?.set;
  }

  /** The members as this partitioner last saw them. */
  get members(): string[] {
    return this.party.current;
  }

  /** Joins the party and starts allocating (idempotent); acquired() and states() start it too. */
  start(): void {
    if (this.loop !== undefined || this.closing.signal.aborted) return;
    this.offs.push(
      this.party.onChange(() => {
        this.generation++;
        this.kick.fire();
      }),
      this.client.onStateChange(() => this.kick.fire()),
    );
    this.loop = this.run();
  }

  /**
   * Resolves with our share once acquired (at once if it is). A set whose signal has fired is released first:
   * calling acquired() again says you are done with it. Rejects with RecipeClosedError (the cause says why) in
   * `failure`, and on timeout/abort.
   */
  async acquired(options: WaitOptions = {}): Promise<PartitionSet> {
    checkWait('SetPartitioner.acquired', options);
    this.start();
    const scope = openScope(options, `set partition ${this.path}`, this.clock);
    try {
      for (;;) {
        const changed = this.feed.changed.next();
        if (this.current === 'failure') throw new RecipeClosedError(`set partitioner ${this.path} is over`, { cause: this.failure });
        const holding = this.holding;
        if (holding !== undefined && !holding.set.signal.aborted && this.current === 'acquired') return holding.set;
        await within(scope, holding?.set.signal.aborted === true ? this.release() : changed);
      }
    } finally {
      scope?.dispose();
    }
  }

  /** Every state from now on, until `failure` (included) or the signal. */
  states(options: { signal?: AbortSignal } = {}): AsyncIterableIterator<PartitionState> {
    this.start();
    return this.feed.iterate(options, `set partitioner ${this.path}`, this.clock);
  }

  /** Calls `listener` on every state change; returns the unsubscribe function. */
  onChange(listener: (state: PartitionState) => void): () => void {
    checkArg('SetPartitioner.onChange', 'listener', listener, rules.function);
    return this.feed.on(listener);
  }

  /**
   * Gives our share back (kazoo's `release_set`): the signal fires, the lock nodes are deleted (retried across
   * reconnects), then allocating begins again. Without a share it does nothing.
   */
  async release(): Promise<void> {
    const holding = this.holding;
    if (holding !== undefined && this.releasing === undefined) {
      this.releasing = (async () => {
        holding.controller.abort(new LockLostError(`set partition ${this.path} released`));
        try {
          await Promise.all(holding.leases.map((l) => l.release()));
        } finally {
          this.holding = undefined;
          this.releasing = undefined;
          if (!this.closing.signal.aborted) this.setState('allocating');
        }
      })();
    }
    await this.releasing;
  }

  /** Releases our share and leaves the party for good (kazoo's `finish`): the state becomes `failure`. */
  async finish(): Promise<void> {
    if (!this.closing.signal.aborted) {
      this.closing.abort();
      this.kick.fire();
      for (const off of this.offs.splice(0)) off();
    }
    await this.loop?.catch(() => undefined);
    await this.release();
    await this.party.close();
    this.fail(new RecipeClosedError(`set partitioner ${this.path} finished`));
  }

  /** The same as finish(). */
  [Symbol.asyncDispose](): Promise<void> {
    return this.finish();
  }

  private setState(state: PartitionState): void {
    if (this.current === state || this.current === 'failure') return;
    this.current = state;
    this.feed.emit(state);
    if (state === 'failure') this.feed.end();
  }

  private fail(reason: unknown): void {
    if (this.current === 'failure') return;
    this.failure = reason;
    this.holding?.controller.abort(new LockLostError(`set partition ${this.path} over`, { cause: reason }));
    this.setState('failure');
  }

  private async run(): Promise<void> {
    try {
      await Promise.race([this.party.join({ signal: this.closing.signal }), this.clientOver()]);
      while (!this.closing.signal.aborted) {
        const won = await this.allocate();
        if (won === undefined) continue;
        this.holding = won;
        this.setState('acquired');
        await fired(won.set.signal);
        // release() may have taken it already; otherwise the user must say they stopped working.
        if (this.holding === won && this.releasing === undefined) this.setState('release');
        for (;;) {
          const changed = this.feed.changed.next();
          const kicked = this.kick.next(); // finish() fires it
          if (this.closing.signal.aborted) return;
          if (this.holding !== won && this.releasing === undefined) break;
          await Promise.race([changed, kicked]);
        }
      }
    } catch (e) {
      if (!this.closing.signal.aborted) this.fail(e);
    }
  }

  /** Rejects once the client is closed or refused for good (a join would wait for it forever); never resolves. */
  private clientOver(): Promise<never> {
    return new Promise((_, reject) => {
      const off = this.client.onStateChange((c) => {
        if (c.state !== 'closed' && c.state !== 'auth-failed') return;
        off();
        reject(new RecipeClosedError(`set partitioner ${this.path}: the client is ${c.state}`));
      });
      this.closing.signal.addEventListener('abort', off, { once: true });
    });
  }

  /** The members once they stayed unchanged (and connected) for the time boundary, with us among them. */
  private async stableMembers(): Promise<string[]> {
    const { client } = this;
    for (;;) {
      const kicked = this.kick.next();
      if (this.closing.signal.aborted) throw new RecipeClosedError(`set partitioner ${this.path} finished`);
      if (!isConnectedState(client.state)) {
        await Promise.race([client.connected(), kicked]); // rejects when the client is over: failure
        continue;
      }
      const generation = this.generation;
      const members = this.party.current;
      if (!members.includes(this.identifier)) {
        await kicked; // our node is being made again: it comes back as a membership change
        continue;
      }
      if (await this.unchangedFor(generation)) return members;
    }
  }

  /** Waits out the time boundary; false as soon as the membership changes, the connection goes or we finish. */
  private async unchangedFor(generation: number): Promise<boolean> {
    const timer = new AbortController();
    const boundary = sleep(this.timeBoundary, { signal: timer.signal }, this.clock).then(() => true, () => false);
    try {
      for (;;) {
        const kicked = this.kick.next();
        if (await Promise.race([boundary, kicked.then(() => false)])) return true;
        if (generation !== this.generation || !isConnectedState(this.client.state) || this.closing.signal.aborted) return false;
      }
    } finally {
      timer.abort(); // no timer outlives the wait
    }
  }

  /** One allocation: our share's locks, all of them, with the membership unchanged meanwhile; undefined to start over. */
  private async allocate(): Promise<Holding | undefined> {
    const { client } = this;
    const members = await this.stableMembers();
    const generation = this.generation;
    const share = [...this.partition(this.identifier, members, this.items)];
    // One controller per lock rather than one signal shared by all: a share of many items would otherwise hang
    // as many listeners on one signal.
    const controllers = share.map(() => new AbortController());
    let stopped = false;
    const stop = (): void => {
      stopped = true;
      const reason = new LockLostError(`set partition ${this.path}: membership or connection changed`);
      for (const c of controllers) c.abort(reason);
    };
    const offs = [
      this.party.onChange(stop),
      client.onStateChange((c) => void (isConnectedState(c.state) || stop())),
    ];
    this.closing.signal.addEventListener('abort', stop, { once: true });
    const leases: LockHandle[] = [];
    const locks: UuidHexLock[] = [];
    let unexpected: unknown;
    try {
      await Promise.all(
        share.map(async (item, i) => {
          const lock = new UuidHexLock(client, joinPath(this.path, 'locks', item), {
            data: this.identifier, lostOn: 'suspended', onExpiry: 'reject', clock: this.clock,
          });
          locks.push(lock);
          try {
            leases.push(await lock.acquire({ signal: (controllers[i] as AbortController).signal }));
          } catch (e) {
            // A reason to start over (our own stop, a connection or session change) or one that retrying cannot fix.
            if (!stopped && !isConnectionLoss(e) && !isSessionGone(e) && !(e instanceof LockLostError)) unexpected ??= e;
            stop();
          }
        }),
      );
    } finally {
      for (const off of offs) off();
      this.closing.signal.removeEventListener('abort', stop);
    }
    // A stop that cut a lock's create short leaves its removal running: the next try (or close) comes after it.
    await Promise.all(locks.map((lock) => settleRemovals(client, lock)));
    const lost = leases.some((l) => l.lost.aborted);
    if (stopped || lost || generation !== this.generation || !isConnectedState(client.state)) {
      await Promise.all(leases.map((l) => l.release()));
      if (unexpected !== undefined) throw unexpected;
      return undefined;
    }
    return this.hold(share, leases);
  }

  /** Our share is held: its signal fires on the first sign that it may not be. */
  private hold(items: string[], leases: LockHandle[]): Holding {
    const controller = new AbortController();
    const doubt = (why: string) => (): void => controller.abort(new LockLostError(`set partition ${this.path}: ${why}`));
    const offs = [this.party.onChange(doubt('the membership changed'))];
    for (const lease of leases) {
      const onLost = doubt(`lock ${lease.node} lost`);
      lease.lost.addEventListener('abort', onLost, { once: true });
      offs.push(() => lease.lost.removeEventListener('abort', onLost));
    }
    const onClosing = doubt('finished');
    this.closing.signal.addEventListener('abort', onClosing, { once: true });
    offs.push(() => this.closing.signal.removeEventListener('abort', onClosing));
    controller.signal.addEventListener('abort', () => offs.forEach((off) => off()), { once: true });
    return { set: { items, signal: controller.signal }, controller, leases };
  }
}
