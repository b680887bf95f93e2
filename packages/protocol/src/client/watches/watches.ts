/**
 * The watches of one session, as one facade over the WatchManager tables (watch-manager.ts) and the watcher
 * objects (watchers.ts): the watcher of a `watch` option, registration when a reply arrives, local removal,
 * delivering server notifications through the dispatcher, the SetWatches batches a reconnect replays, failing
 * every watcher when the session ends, and the resync event after a renewal. The session owns it (it delivers,
 * replays and ends); operations reach it through `Session.watches`. It sends nothing: the requests that set or
 * remove watches on the server are in watch-requests.ts. Nothing else touches the tables.
 */
import { InvalidArgumentError, type ZkError } from '../../errors/errors.js';
import { describeValue } from '../../errors/option-keys.js';
import { EventType } from '../../codec/records/constants.js';
import type { WatcherEvent } from '../../codec/records/watches.js';
import type { Chroot } from '../chroot.js';
import { eventChannel, type WatchEventMessage } from '../diagnostics.js';
import type { Dispatcher } from '../dispatcher.js';
import type { EventTypeName, WatchEvent, WatchListener } from '../types.js';
import { WatchManager, setWatchesBatches, type OneShotKind, type PersistentKind, type SetWatchesBatch, type WatchCounts, type Watcher } from './watch-manager.js';
import { ListenerWatcher, OneShotPromise } from './watchers.js';

const EVENT_NAMES: Record<number, EventTypeName> = {
  [EventType.NodeCreated]: 'created',
  [EventType.NodeDeleted]: 'deleted',
  [EventType.NodeDataChanged]: 'dataChanged',
  [EventType.NodeChildrenChanged]: 'childrenChanged',
};

/**
 * The table of every session that has set no watch yet, shared: only `register` writes, and it gives the session
 * a table of its own first, so an idle session in a pool of thousands keeps none.
 */
const NO_WATCHES_YET = new WatchManager();

export class ClientWatches {
  private table = NO_WATCHES_YET;
  // The three tables below are made on first use: a session that sets no watches (most of a pool's) keeps none.
  /** Per listener function, per chroot (a namespace view reports its own paths): one watcher each. */
  private listenerWatchers: WeakMap<WatchListener, Map<string, ListenerWatcher>> | null = null;
  /** A `watch: true` promise back to its watcher, so removeWatcher can take the promise. */
  private promiseWatchers: WeakMap<Promise<WatchEvent>, OneShotPromise> | null = null;
  /** Watch-setting requests sent and not yet answered, per `kind path`: their watch may be on the server already. */
  private arming: Map<string, number> | null = null;
  private readonly dispatcher: Dispatcher;

  constructor(dispatcher: Dispatcher) {
    this.dispatcher = dispatcher;
  }

  /**
   * The watcher for a `watch` option under `root` (the caller's chroot: events come back in its paths): one per
   * listener function and chroot, so setting it twice fires once; for `watch: true`, a new one and its promise.
   */
  watcherFor(watch: true | WatchListener | undefined, root: Chroot): { watcher: Watcher; promise?: Promise<WatchEvent> } | undefined {
    if (watch === undefined) return undefined;
    if (watch === true) {
      const w = new OneShotPromise(root);
      (this.promiseWatchers ??= new WeakMap()).set(w.promise, w);
      return { watcher: w, promise: w.promise };
    }
    if (typeof watch !== 'function') throw new InvalidArgumentError('watch', `watch must be true or a listener function, got ${describeValue(watch)}`);
    const byListener = (this.listenerWatchers ??= new WeakMap());
    let byRoot = byListener.get(watch);
    if (byRoot === undefined) {
      byRoot = new Map();
      byListener.set(watch, byRoot);
    }
    let w = byRoot.get(root.root);
    if (w === undefined) {
      w = new ListenerWatcher(root, watch);
      byRoot.set(root.root, w);
    }
    return { watcher: w };
  }

  /** The watcher a removeWatcher argument names (a listener given as `watch`, or a `watch: true` promise), if any. */
  known(watcher: WatchListener | Promise<WatchEvent>, root: Chroot): Watcher | undefined {
    if (typeof watcher === 'function') return this.listenerWatchers?.get(watcher)?.get(root.root);
    return this.promiseWatchers?.get(watcher);
  }

  /**
   * A request that may set a `kind` watch on the server is on its way; call the result once it is answered.
   * Until then the server watch is not ours to remove, even if no watcher is registered here yet.
   */
  armingStarted(kind: 'data' | 'child' | PersistentKind, serverPath: string): () => void {
    const key = `${kind} ${serverPath}`;
    const arming = (this.arming ??= new Map());
    arming.set(key, (arming.get(key) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const n = (arming.get(key) ?? 1) - 1;
      if (n <= 0) arming.delete(key);
      else arming.set(key, n);
    };
  }

  /** Whether the server's `kind` watch on the path is still needed here (a watcher left, or one on its way). */
  serverWatchNeeded(kind: 'data' | 'child' | PersistentKind, serverPath: string): boolean {
    if (this.arming?.has(`${kind} ${serverPath}`) === true) return true;
    if (kind === 'data') return this.table.has('data', serverPath) || this.table.has('exist', serverPath);
    return this.table.has(kind, serverPath);
  }

  /** Called from a reply's decode, in frame order, so a notification that follows the reply finds it. */
  register(kind: OneShotKind | PersistentKind, serverPath: string, watcher: Watcher): void {
    if (this.table === NO_WATCHES_YET) this.table = new WatchManager();
    this.table.register(kind, serverPath, watcher);
  }

  /** Forgets one watcher; true when it was the last of its kind on the path (the server watch is no longer needed). */
  unregister(kind: OneShotKind | PersistentKind, serverPath: string, watcher: Watcher): boolean {
    return this.table.unregister(kind, serverPath, watcher);
  }

  holds(kind: OneShotKind | PersistentKind, serverPath: string, watcher: Watcher): boolean {
    return this.table.holds(kind, serverPath, watcher);
  }

  has(kind: OneShotKind | PersistentKind, serverPath: string): boolean {
    return this.table.has(kind, serverPath);
  }

  /** Forgets every watcher of `kind` on the path and returns them (for `tellRemoved`). */
  removeAll(kind: OneShotKind | PersistentKind, serverPath: string): Set<Watcher> {
    return this.table.removeAll([kind], serverPath);
  }

  /** Removed watchers hear `type` (Java's DataWatchRemoved, ChildWatchRemoved…). */
  tellRemoved(watchers: Set<Watcher>, type: EventTypeName, serverPath: string): void {
    for (const w of watchers) this.dispatcher.notify(() => w.fire({ type, serverPath, zxid: -1n }));
  }

  /** Paths watched, by kind. */
  counts(): WatchCounts {
    return this.table.counts();
  }

  /**
   * A notification frame from the server. zkts:event hears it as its listeners are called (the dispatcher may
   * hold them behind earlier replies), with the time since the frame arrived.
   */
  deliver(event: WatcherEvent, zxid: bigint, sessionId: bigint): void {
    const type = EVENT_NAMES[event.type];
    const serverPath = event.path ?? '';
    if (eventChannel.hasSubscribers) {
      const message: WatchEventMessage = { sessionId, type: type ?? String(event.type), path: serverPath, zxid, deliveryDelayMs: 0 };
      const arrived = performance.now();
      this.dispatcher.notify(() => {
        message.deliveryDelayMs = performance.now() - arrived;
        eventChannel.publish(message);
      });
    }
    // The server sends only node events; session events (None) are ours to make, so anything else is ignored.
    if (type === undefined) return;
    const watchers = this.table.materialize(type, serverPath);
    for (const w of watchers) this.dispatcher.notify(() => w.fire({ type, serverPath, zxid }));
  }

  /** What to re-arm on a new connection. */
  replayBatches(): SetWatchesBatch[] {
    // Most connections have none to replay (every first connect): no snapshot of five empty lists then.
    if (this.table.size === 0) return [];
    return setWatchesBatches(this.table.snapshot());
  }

  /**
   * The session is over: every one-shot watcher hears it once and is forgotten; persistent ones too, unless
   * they go on in a renewed session (`keepPersistent`).
   */
  sessionEnded(error: ZkError, keepPersistent: boolean): void {
    for (const w of this.table.takeAll({ keepPersistent })) this.dispatcher.notify(() => w.fail(error));
  }

  /** A renewed session is connected: the persistent watches kept are re-armed; each hears `resync` once. */
  renewed(): void {
    for (const { serverPath, watcher } of this.table.persistentWatchers()) {
      this.dispatcher.notify(() => watcher.fire({ type: 'resync', serverPath, zxid: -1n }));
    }
  }
}
