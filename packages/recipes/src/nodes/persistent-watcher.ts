/**
 * A persistent (optionally recursive) watch that lasts as long as the watcher runs (Curator's
 * PersistentWatcher): a thin layer over the client's addWatch that keeps one armed across connection losses
 * and session renewals, and adds it again if it ends for any other reason (removed with removeWatches, or
 * ended by an expiry on a client with `renewWatches: false`).
 *
 * Events are the client's WatchEvents plus one marker, `{ type: 'resync' }`, delivered whenever events may
 * have been missed: after every reconnect (ZooKeeper re-arms a persistent watch on reconnect without replaying
 * what changed meanwhile, unlike one-shot watches), after a session renewal, and after the watch had to be
 * added again. A reader that keeps a view of the tree reads it again on `resync`: a read made after the marker
 * goes out after the watch was armed again on the same connection, so no change after that read is missed
 * (a change made before the read may or may not also arrive as an event). The client's own `resync` (sent
 * after a renewal) is folded into ours, so a reader hears one marker per gap.
 */
import { systemClock, sleep, type Clock } from '@zkts/protocol';

import {
  ChangeFeed, isConnectedState, isLive, Pulse, type PersistentWatch, type RecipeClient, type WatchEvent,
} from '../internal/index.js';
import { RecipeClosedError } from '../errors.js';

/** Options of a PersistentWatcher. */
export interface PersistentWatcherOptions {
  /** Watch the whole subtree (addWatch 'persistent-recursive'). Default false: the node and its children. */
  recursive?: boolean;
  /** Time source of the pause before adding the watch again after an unexpected error. */
  clock?: Clock;
}

const RETRY_PAUSE_MS = 200;

/** A persistent (or recursive) watch that survives reconnects and renewals; a `resync` event marks each gap (Curator PersistentWatcher). */
export class PersistentWatcher implements AsyncIterable<WatchEvent>, AsyncDisposable {
  readonly client: RecipeClient;
  readonly path: string;
  readonly recursive: boolean;
  /** Times the watch was added (the first included). */
  adds = 0;
  /** The last unexpected error of addWatch (it retries after it). */
  lastError: unknown;
  private readonly clock: Clock;
  private readonly feed = new ChangeFeed<WatchEvent>();
  private readonly closing = new AbortController();
  private readonly kick = new Pulse();
  /** Fires whenever a watch gets armed (start() waits on it). */
  private readonly armed = new Pulse();
  private handle: PersistentWatch | undefined;
  /** Events may have been missed since the last marker: the next arming or reconnect sends `resync`. */
  private gap = false;
  private loop: Promise<void> | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(client: RecipeClient, path: string, options: PersistentWatcherOptions = {}) {
    this.client = client;
    this.path = path;
    this.recursive = options.recursive === true;
    this.clock = options.clock ?? systemClock;
  }

  /** Adds the watch; resolves once it is armed. Idempotent. */
  async start(): Promise<void> {
    if (this.closing.signal.aborted) throw new RecipeClosedError(`persistent watcher ${this.path} closed`);
    if (this.loop === undefined) {
      this.unsubscribe = this.client.onStateChange((c) => {
        if (c.state === 'suspended' || c.state === 'expired') this.gap = true;
        // A reconnect with the watch still armed (the client re-armed it): the marker now, before new events.
        else if (isConnectedState(c.state) && this.handle !== undefined) this.resync();
        if (!isLive(c.state)) this.kick.fire();
      });
      this.loop = this.run();
    }
    for (;;) {
      const armed = this.armed.next();
      if (this.handle !== undefined) return;
      if (this.feed.ended) throw new RecipeClosedError(`persistent watcher ${this.path} closed`);
      await armed;
    }
  }

  /** Calls `listener` with every event; returns the unsubscribe function. */
  on(listener: (event: WatchEvent) => void): () => void {
    return this.feed.on(listener);
  }

  /** Every event from now on, until closed or broken off. */
  events(options: { signal?: AbortSignal } = {}): AsyncIterableIterator<WatchEvent> {
    return this.feed.iterate(options, `persistent watcher ${this.path}`, this.clock);
  }

  /** Every event from now on, `resync` included, until the watcher is closed. */
  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    return this.events();
  }

  /** Removes the watch; iterators end. */
  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    this.closing.abort();
    this.unsubscribe?.();
    this.kick.fire();
    const handle = this.handle;
    this.handle = undefined;
    await handle?.remove().catch(() => undefined);
    await this.loop;
    this.feed.end();
    this.armed.fire();
  }

  /** The same as close(), for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  private resync(): void {
    if (!this.gap) return;
    this.gap = false;
    this.feed.emit({ type: 'resync', path: this.path, zxid: -1n });
  }

  private async run(): Promise<void> {
    const { client } = this;
    while (!this.closing.signal.aborted) {
      const kicked = this.kick.next();
      if (!isLive(client.state)) break; // the client is over
      let handle: PersistentWatch;
      try {
        if (!isConnectedState(client.state)) await Promise.race([client.connected(), kicked]);
        if (this.closing.signal.aborted || !isConnectedState(client.state)) continue;
        handle = await client.addWatch(this.path, this.recursive ? 'persistent-recursive' : 'persistent');
      } catch (e) {
        // Connection trouble or a session that ended: the state checks decide; anything else, pause first.
        if (isLive(client.state) && isConnectedState(client.state)) {
          this.lastError = e;
          await Promise.race([sleep(RETRY_PAUSE_MS, { signal: this.closing.signal }, this.clock).catch(() => undefined), kicked]);
        }
        continue;
      }
      if (this.closing.signal.aborted) {
        await handle.remove().catch(() => undefined);
        break;
      }
      this.adds++;
      await this.forward(handle);
    }
    if (!this.closing.signal.aborted) {
      // The client is over (closed, or expired without renewal): so is the watcher.
      this.feed.end();
      this.armed.fire();
    }
  }

  /** Delivers the handle's events until it ends (removed, or its session ended without renewal). */
  private async forward(handle: PersistentWatch): Promise<void> {
    // Iterated at once: the client delivers events that follow the addWatch reply only on a later turn.
    const events = handle[Symbol.asyncIterator]();
    this.handle = handle;
    if (this.adds > 1) this.gap = true; // armed again: whatever happened while it was not is unknown
    if (isConnectedState(this.client.state)) this.resync();
    this.armed.fire();
    try {
      for (;;) {
        const next = await events.next();
        if (next.done === true) break;
        const event = next.value;
        if (event.type === 'resync' || event.type === 'persistentWatchRemoved') continue; // ours is sent instead
        this.feed.emit(event);
      }
    } catch {
      // The session ended and the client does not carry persistent watches over (renewWatches: false).
    } finally {
      if (this.handle === handle) this.handle = undefined;
      this.gap = true;
    }
  }
}
