/**
 * A node that stays (Curator's PersistentNode): once started, it keeps one node of ours at `path` for as long
 * as it runs, the basis for service registration. It is created again when someone deletes it and, for the
 * ephemeral modes, when a renewed session replaces the one that owned it; its current path is observable
 * (`currentPath`, `onChange`, `changes()`), since a sequential or protected node gets a new name each time.
 * close() (or `await using`) deletes it, retried across reconnects (a guaranteed delete).
 *
 * Layout: as Curator's. With protection (the default for the sequential modes) the node is named
 * `<parent>/_c_<uuid>-<name>[<seq>]`, so a create whose reply was lost is found again by its uuid instead of
 * being made twice; parents are created as containers. Differences from Curator, each on purpose:
 * - an ephemeral at a fixed path that exists but belongs to another session is not adopted (Curator overwrites
 *   its data and calls it ours); we wait for it to go and then create ours;
 * - a sequential node is always re-created as a new sequential node (Curator turns it into a plain node).
 *
 * Across faults: on `suspended` nothing changes (the node may well still exist); on `expired` an ephemeral
 * node is gone with its session (`currentPath` becomes undefined at once) and is created again in the renewed
 * session; a persistent node outlives the session and is kept.
 */
import { basename, joinPath, parentPath, systemClock, type ACL, type Clock } from '@zkts/protocol';

import { RecipeClosedError } from '../errors.js';
import {
  aclRule, withAcl,
  ChangeFeed, checkArg, checkClientAndPath, checkOptions, checkpoint, checkWait, rules, type OptionRules, childrenAfterSync, ensureDir, isConnectedState, isConnectionLoss, isExpiry, isLive,
  isNodeExists, isNoNode, isSessionGone, KeepAlive, openScope, protectedPrefix, removeNode, removeSoon, retrying, within,
  type CreateMode, type Data, type RecipeClient, type Scope, type Stat, type WaitOptions,
} from '../internal/index.js';

/** The kinds of node a PersistentNode keeps. */
export type PersistentNodeMode = 'ephemeral' | 'ephemeral-sequential' | 'persistent' | 'persistent-sequential' | 'container';

/** Options of a PersistentNode. */
export interface PersistentNodeOptions {
  /** Default 'ephemeral'. */
  mode?: PersistentNodeMode;
  /** Curator's protection (`_c_<uuid>-` before the name). Default: on for the sequential modes, off otherwise. */
  protected?: boolean;
  /** The node's data (also written to a node of ours that already existed). Default: empty. */
  data?: Data;
  /** Time source of the retry pause after an unexpected error (default: the system clock). */
  clock?: Clock;
  /** The ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  acl?: ACL[];
}

const MODES: readonly PersistentNodeMode[] = ['ephemeral', 'ephemeral-sequential', 'persistent', 'persistent-sequential', 'container'];

const OPTION_RULES: OptionRules<PersistentNodeOptions> = {
  mode: rules.oneOf(MODES), protected: rules.boolean, data: rules.data, clock: rules.clock, acl: aclRule,
};

/** Counters for diagnostics and tests. */
export interface PersistentNodeStats {
  /** Nodes created by us (the first one included). */
  creates: number;
  /** Times our node was found gone (deleted, or its session ended) and had to be made again. */
  losses: number;
}

interface Current {
  readonly path: string;
  readonly stat: Stat;
}

/** A node that is re-created after someone deletes it and after a session renewal (Curator PersistentNode); the basis for registration. */
export class PersistentNode implements AsyncDisposable {
  readonly client: RecipeClient;
  /** The path asked for; with protection or a sequential mode the real name differs (`currentPath`). */
  readonly path: string;
  readonly mode: PersistentNodeMode;
  readonly stats: PersistentNodeStats = { creates: 0, losses: 0 };
  private readonly protect: boolean;
  private readonly ephemeral: boolean;
  private readonly clock: Clock;
  private data: Data;
  private current: Current | undefined;
  private readonly feed = new ChangeFeed<string | undefined>();
  private readonly alive: KeepAlive;
  /** The removal of what a create cut short by close() produces: close() resolves only after it. */
  private abandoned: Promise<unknown> | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(client: RecipeClient, path: string, options: PersistentNodeOptions = {}) {
    checkClientAndPath('PersistentNode', client, path);
    checkOptions('PersistentNode', options, OPTION_RULES);
    this.client = withAcl(client, options.acl);
    this.path = path;
    this.mode = options.mode ?? 'ephemeral';
    const sequential = this.mode.endsWith('sequential');
    this.protect = options.protected ?? sequential;
    this.ephemeral = this.mode.startsWith('ephemeral');
    this.data = options.data ?? '';
    this.clock = options.clock ?? systemClock;
    this.alive = new KeepAlive(this.clock);
  }

  /** The full path of our node while it exists (as far as we know), else undefined. */
  get currentPath(): string | undefined {
    return this.current?.path;
  }

  /** The Stat our node had when we created or adopted it (czxid, ephemeralOwner). */
  get stat(): Stat | undefined {
    return this.current?.stat;
  }

  /** The last unexpected error of the loop (it retries after it). */
  get lastError(): unknown {
    return this.alive.lastError;
  }

  /** Starts keeping the node (the first create runs in the background: see awaitCreated). Idempotent. */
  start(): void {
    if (this.alive.started || this.alive.closed) return;
    this.unsubscribe = this.client.onStateChange((c) => {
      // An ephemeral goes with its session: say so at once, the loop makes a new one in the renewed session.
      if (c.state === 'expired' && this.ephemeral) this.lose();
      if (!isLive(c.state)) this.alive.kick();
    });
    // Every wait of a pass ends at close, through one scope on the loop's signal.
    const scope = openScope({ signal: this.alive.signal }, `persistent node ${this.path}`);
    void this.alive.start((kicked) => this.pass(kicked, scope), (e) => (isConnectionLoss(e) || isSessionGone(e) ? 'retry' : 'pause'))
      .finally(() => scope?.dispose());
  }

  /** Resolves with our node's path once it exists (at once if it does). Rejects on timeout/abort or close. */
  async awaitCreated(options: WaitOptions = {}): Promise<string> {
    checkWait('PersistentNode.awaitCreated', options);
    const scope = openScope(options, `persistent node ${this.path}`, this.clock);
    try {
      for (;;) {
        const changed = this.feed.changed.next();
        if (this.current !== undefined) return this.current.path;
        if (this.feed.ended) throw new RecipeClosedError(`persistent node ${this.path} closed`);
        await within(scope, changed);
      }
    } finally {
      scope?.dispose();
    }
  }

  /** Calls `listener` with our node's path each time it changes (undefined: gone, being made again). */
  onChange(listener: (path: string | undefined) => void): () => void {
    checkArg('PersistentNode.onChange', 'listener', listener, rules.function);
    return this.feed.on(listener);
  }

  /** Our node's path each time it changes, until closed or broken off. */
  changes(options: { signal?: AbortSignal } = {}): AsyncIterableIterator<string | undefined> {
    return this.feed.iterate(options, `persistent node changes ${this.path}`, this.clock);
  }

  /** New data: written to our node now if it exists, and used for every node made from now on. */
  async setData(data: Data): Promise<void> {
    checkArg('PersistentNode.setData', 'data', data, rules.data);
    this.data = data;
    const path = this.current?.path;
    if (path === undefined) return;
    try {
      await retrying(this.client, () => this.client.setData(path, data));
    } catch (e) {
      if (!isNoNode(e) && !isExpiry(e)) throw e; // gone: the loop makes it again, with this data
    }
  }

  /** Stops keeping the node and deletes it (guaranteed: retried across reconnects). */
  async close(): Promise<void> {
    if (this.alive.closed) return;
    const stopped = this.alive.close();
    this.unsubscribe?.();
    await stopped;
    await this.abandoned?.catch(() => undefined); // waited for, never a reason for close() to fail
    const current = this.current;
    this.setCurrent(undefined);
    this.feed.end();
    if (current !== undefined) {
      // An ephemeral goes with the session that owns it; a persistent node is removed in a renewed session too.
      await removeNode(this.client, { path: current.path }, this.ephemeral ? current.stat.ephemeralOwner : undefined);
    }
  }

  /** The same as close(), for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  private setCurrent(current: Current | undefined): void {
    const changed = current?.path !== this.current?.path;
    this.current = current;
    if (changed) this.feed.emit(current?.path);
  }

  /** Our node is gone (deleted, or with its session): the loop makes it again. */
  private lose(): void {
    if (this.current === undefined) return;
    this.stats.losses++;
    this.setCurrent(undefined);
  }

  /** One pass of the keep-alive loop: makes our node when it is gone, then waits while it exists. */
  private async pass(kicked: Promise<void>, scope: Scope): Promise<'stop' | void> {
    const { client } = this;
    if (!isLive(client.state)) {
      if (this.ephemeral) this.lose();
      return 'stop'; // the client is over: so is the node
    }
    if (!isConnectedState(client.state)) {
      await Promise.race([client.connected(), kicked]);
      return;
    }
    let current = this.current;
    if (current !== undefined && this.ephemeral && current.stat.ephemeralOwner !== client.sessionId) {
      this.lose();
      current = undefined;
    }
    if (current === undefined) {
      current = await this.create(scope);
      if (current === undefined) return;
      this.setCurrent(current);
    }
    await this.watch(current, scope);
  }

  /** Waits while our node exists; returns when it is gone (or changed, or the session ended). */
  private async watch(current: Current, scope: Scope): Promise<void> {
    const { client } = this;
    const { stat, watch } = await within(scope, client.exists(current.path, { watch: true }));
    if (stat === null || (this.ephemeral && stat.ephemeralOwner !== client.sessionId)) {
      this.lose();
      return;
    }
    await within(scope, watch); // deleted: the loop makes it again; data changed: it watches again
  }

  /** Makes our node; undefined when the loop should look again first (someone else's node was in the way). */
  private async create(scope: Scope): Promise<Current | undefined> {
    const { client } = this;
    const dir = parentPath(this.path);
    const prefix = this.protect ? protectedPrefix(globalThis.crypto.randomUUID()) : '';
    const target = joinPath(dir, `${prefix}${basename(this.path)}`);
    for (;;) {
      checkpoint(scope);
      const createP = client.create(target, this.data, { mode: this.mode satisfies CreateMode });
      try {
        const { path, stat } = await within(scope, createP);
        this.stats.creates++;
        return { path, stat };
      } catch (e) {
        if (isNoNode(e)) {
          await ensureDir(client, dir);
          continue;
        }
        if (isNodeExists(e)) return this.adopt(target, scope);
        if (isConnectionLoss(e)) {
          await within(scope, client.connected());
          if (!this.protect) continue; // a retry that finds the node lands in adopt(), which checks the owner
          const found = await this.findOurs(dir, prefix);
          if (found !== undefined) return found;
          continue;
        }
        // Closed (or another failure) with the create possibly still in flight: remove whatever it produces.
        this.abandoned = this.protect
          ? removeNode(client, { dir, prefix, create: createP })
          : createP.then((r) => removeNode(client, { path: r.path }, this.ephemeral ? r.stat.ephemeralOwner : undefined), () => undefined);
        throw e;
      }
    }
  }

  /** After a lost create reply: our node, found by the protection prefix (an ephemeral must be our session's). */
  private async findOurs(dir: string, prefix: string): Promise<Current | undefined> {
    const { client } = this;
    const name = (await childrenAfterSync(client, dir)).find((c) => c.startsWith(prefix));
    if (name === undefined) return undefined;
    const path = joinPath(dir, name);
    const stat = await retrying(client, () => client.exists(path));
    if (stat === null) return undefined;
    if (this.ephemeral && stat.ephemeralOwner !== client.sessionId) {
      void removeSoon(client, { path }); // made in a session that ended: it is going anyway
      return undefined;
    }
    this.stats.creates++;
    return { path, stat };
  }

  /**
   * The node exists at our fixed path. A persistent one, or an ephemeral of our session (a retried create
   * that had landed), is ours: it gets our data. Another session's ephemeral is not: wait for it to go.
   */
  private async adopt(path: string, scope: Scope): Promise<Current | undefined> {
    const { client } = this;
    if (this.ephemeral) {
      const found = await within(scope, client.exists(path));
      if (found === null) return undefined;
      if (found.ephemeralOwner !== client.sessionId) {
        const { stat, watch } = await within(scope, client.exists(path, { watch: true }));
        if (stat !== null) await within(scope, watch);
        return undefined;
      }
    }
    const stat = await within(scope, retrying(client, () => client.setData(path, this.data)));
    return { path, stat };
  }
}
