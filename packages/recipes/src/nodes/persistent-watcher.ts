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
import { systemClock, type Clock } from '@zkts/protocol';

import { RecipeClosedError } from '../errors.js';
import {
  ChangeFeed, checkArg, checkClientAndPath, checkOptions, isConnectedState, rules, isLive, KeepAlive, Pulse, type PersistentWatch, type RecipeClient, type WatchEvent,
} from '../internal/index.js';

/** Options of a PersistentWatcher. */
export interface PersistentWatcherOptions {
  /** Watch the whole subtree (addWatch 'persistent-recursive'). Default false: the node and its children. */
  recursive?: boolean;
  /** Time source of the pause before adding the watch again after an unexpected error. */
  clock?: Clock;
}

/** A persistent (or recursive) watch that survives reconnects and renewals; a `resync` event marks each gap (Curator PersistentWatcher). */
export class PersistentWatcher implements AsyncIterable<WatchEvent>, AsyncDisposable {
  readonly client: RecipeClient;
  readonly path: string;
  readonly recursive: boolean;
  /** Times the watch was added (the first included). */
  adds = 0;
  private readonly clock: Clock;
  private readonly feed = new ChangeFeed<WatchEvent>();
  private readonly alive: KeepAlive;
  /** Fires whenever a watch gets armed (start() waits on it). */
  private readonly armed = new Pulse();
  private handle: PersistentWatch | undefined;
  /** Events may have been missed since the last marker: the next arming or reconnect sends `resync`. */
  private gap = false;
  private unsubscribe: (() => void) | undefined;

  constructor(client: RecipeClient, path: string, options: PersistentWatcherOptions = {}) {
    checkClientAndPath('PersistentWatcher', client, path);
    checkOptions('PersistentWatcher', options, { recursive: rules.boolean, clock: rules.clock });
    this.client = client;
    this.path = path;
    this.recursive = options.recursive === true;
    this.clock = options.clock ?? systemClock;
    this.alive = new KeepAlive(this.clock);
  }

  /** The last unexpected error of addWatch (it retries after it). */
  get lastError(): unknown {
    return this.alive.lastError;
  }

  /** Adds the watch; resolves once it is armed. Idempotent. */
  async start(): Promise<void> {
    if (this.alive.closed) throw new RecipeClosedError(`persistent watcher ${this.path} closed`);
    if (!this.alive.started) {
      this.unsubscribe = this.client.onStateChange((c) => {
        if (c.state === 'suspended' || c.state === 'expired') this.gap = true;
        // A reconnect with the watch still armed (the client re-armed it): the marker now, before new events.
        else if (isConnectedState(c.state) && this.handle !== undefined) this.resync();
        if (!isLive(c.state)) this.alive.kick();
      });
      // Connection trouble or a session that ended: the next pass's state checks decide; anything else, pause first.
      const recover = (): 'retry' | 'pause' => (isLive(this.client.state) && isConnectedState(this.client.state) ? 'pause' : 'retry');
      void this.alive.start((kicked) => this.pass(kicked), recover).then(() => {
        if (!this.alive.closed) {
          // The client is over (closed, or expired without renewal): so is the watcher.
          this.feed.end();
          this.armed.fire();
        }
      });
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
    checkArg('PersistentWatcher.on', 'listener', listener, rules.function);
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
    if (this.alive.closed) return;
    const stopped = this.alive.close();
    this.unsubscribe?.();
    const handle = this.handle;
    this.handle = undefined;
    await handle?.remove().catch(() => undefined);
    await stopped;
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

  /** One pass of the keep-alive loop: adds the watch once connected, then forwards its events until it ends. */
  private async pass(kicked: Promise<void>): Promise<'stop' | void> {
    const { client } = this;
    if (!isLive(client.state)) return 'stop'; // the client is over
    if (!isConnectedState(client.state)) await Promise.race([client.connected(), kicked]);
    if (this.alive.closed || !isConnectedState(client.state)) return;
    const handle = await client.addWatch(this.path, this.recursive ? 'persistent-recursive' : 'persistent');
    if (this.alive.closed) {
      await handle.remove().catch(() => undefined);
      return 'stop';
    }
    this.adds++;
    await this.forward(handle);
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
