/**
 * The watches of one client, as one facade over the WatchManager tables (watch-manager.ts) and the watcher
 * objects (watchers.ts): registering the watcher of a `watch` option, persistent watches and their removal
 * (client- and server-side, with the fallback for servers before 3.9), delivering server notifications through
 * the dispatcher, the SetWatches batches a reconnect replays, and failing every watcher when the session ends.
 * Nothing else touches the tables.
 */
import { InvalidArgumentError, ServerError, type ZkError } from '../../errors/errors.js';
import { KeeperCode } from '../../errors/codes.js';
import { EventType, WatcherType } from '../../codec/records/constants.js';
import type { WatcherEvent } from '../../codec/records/watches.js';
import { removalKinds, watcherTypeOf } from '../call-helpers.js';
import type { Chroot } from '../chroot.js';
import { eventChannel } from '../diagnostics.js';
import type { Dispatcher } from '../dispatcher.js';
import type { RequestSpec } from '../request.js';
import * as req from '../requests.js';
import type { CallOptions, EventTypeName, PersistentWatch, RemoveWatchType, WatchEvent, WatchListener } from '../types.js';
import { WatchManager, setWatchesBatches, type OneShotKind, type PersistentKind, type SetWatchesBatch, type Watcher } from './watch-manager.js';
import { ListenerWatcher, OneShotPromise, PersistentWatchHandle } from './watchers.js';

/** What the session needs of the watches. */
export interface SessionWatches {
  /** A notification frame from the server. */
  deliver(event: WatcherEvent, zxid: bigint, sessionId: bigint): void;
  /** What to re-arm on a new connection. */
  replayBatches(): SetWatchesBatch[];
  /**
   * The session is over: every one-shot watcher hears it once and is forgotten; persistent ones too, unless
   * they go on in a renewed session (`keepPersistent`).
   */
  sessionEnded(error: ZkError, keepPersistent: boolean): void;
  /** A renewed session is connected: the persistent watches kept are re-armed; each hears `resync` once. */
  renewed(): void;
}

type Send = <T>(spec: RequestSpec<T>, options: CallOptions | undefined) => Promise<T>;

const EVENT_NAMES: Record<number, EventTypeName> = {
  [EventType.NodeCreated]: 'created',
  [EventType.NodeDeleted]: 'deleted',
  [EventType.NodeDataChanged]: 'dataChanged',
  [EventType.NodeChildrenChanged]: 'childrenChanged',
};

const ALL_KINDS = ['data', 'exist', 'child', 'persistent', 'persistent-recursive'] as const;

export class ClientWatches implements SessionWatches {
  private readonly table = new WatchManager();
  private readonly listenerWatchers = new WeakMap<WatchListener, ListenerWatcher>();
  private readonly root: Chroot;
  private readonly dispatcher: Dispatcher;
  private readonly send: Send;
  private readonly sessionOver: () => boolean;

  constructor(root: Chroot, dispatcher: Dispatcher, send: Send, sessionOver: () => boolean) {
    this.root = root;
    this.dispatcher = dispatcher;
    this.send = send;
    this.sessionOver = sessionOver;
  }

  /** The watcher for a `watch` option (one per listener function, so setting it twice fires once), and for `watch: true` its promise. */
  watcherFor(watch: true | WatchListener | undefined): { watcher: Watcher; promise?: Promise<WatchEvent> } | undefined {
    if (watch === undefined) return undefined;
    if (watch === true) {
      const w = new OneShotPromise(this.root);
      return { watcher: w, promise: w.promise };
    }
    if (typeof watch !== 'function') throw new InvalidArgumentError('watch', 'watch must be true or a listener function');
    let w = this.listenerWatchers.get(watch);
    if (w === undefined) {
      w = new ListenerWatcher(this.root, watch);
      this.listenerWatchers.set(watch, w);
    }
    return { watcher: w };
  }

  /** Called from a reply's decode, in frame order, so a notification that follows the reply finds it. */
  register(kind: OneShotKind | PersistentKind, serverPath: string, watcher: Watcher): void {
    this.table.register(kind, serverPath, watcher);
  }

  async addWatch(path: string, serverPath: string, mode: PersistentKind, options: CallOptions | undefined): Promise<PersistentWatch> {
    const handle = new PersistentWatchHandle(path, this.root, (h, o) => this.removePersistent(h, serverPath, mode, o));
    await this.send(
      req.addWatch(serverPath, path, mode, () => this.register(mode, serverPath, handle)),
      options,
    );
    return handle;
  }

  private async removePersistent(handle: PersistentWatchHandle, serverPath: string, mode: PersistentKind, options: CallOptions | undefined): Promise<void> {
    const last = this.table.unregister(mode, serverPath, handle);
    handle.finish(null);
    // Other handles on the same path still need the server watch.
    if (!last || this.sessionOver()) return;
    await this.removeServerWatch(serverPath, handle.path, mode === 'persistent' ? WatcherType.Persistent : WatcherType.PersistentRecursive, options);
  }

  /**
   * removeWatches for one persistent kind. Servers before 3.9 only remove persistent watches with `Any` (they
   * answer MARSHALLING_ERROR to types 4/5); `Any` would also drop one-shot watches there, so it is only used
   * when nothing else watches the path. A watch left on the server has no local watcher: its events are
   * dropped here until the session ends.
   */
  private async removeServerWatch(serverPath: string, path: string, type: number, options: CallOptions | undefined): Promise<void> {
    try {
      await this.send(req.removeWatches(serverPath, path, type), options);
    } catch (err) {
      if (!(err instanceof ServerError)) throw err;
      if (err.keeperCode === KeeperCode.NO_WATCHER) return;
      if (err.keeperCode !== KeeperCode.MARSHALLING_ERROR) throw err;
      if (ALL_KINDS.some((k) => this.table.has(k, serverPath))) return;
      try {
        await this.send(req.removeWatches(serverPath, path, WatcherType.Any), options);
      } catch (again) {
        if (!(again instanceof ServerError && again.keeperCode === KeeperCode.NO_WATCHER)) throw again;
      }
    }
  }

  /** The client's removeWatches: on the server unless `local`, then locally; removed watchers hear about it. */
  async remove(path: string, serverPath: string, type: RemoveWatchType, options: CallOptions & { local?: boolean }): Promise<void> {
    const kinds = removalKinds(type);
    const watcherType = watcherTypeOf(type);
    if (options.local !== true) {
      if (type === 'persistent' || type === 'persistent-recursive') {
        // Checked locally first: the fallback for old servers (see removeServerWatch) cannot report NO_WATCHER.
        if (!this.table.has(type, serverPath)) throw new ServerError(KeeperCode.NO_WATCHER, path);
        const removed = this.table.removeAll([type], serverPath);
        await this.removeServerWatch(serverPath, path, watcherType, options);
        this.tellRemoved(removed, 'persistentWatchRemoved', serverPath);
        return;
      }
      await this.send(req.removeWatches(serverPath, path, watcherType), options);
    } else if (!kinds.some((k) => this.table.has(k, serverPath))) {
      throw new ServerError(KeeperCode.NO_WATCHER, path);
    }
    // Like Java's DataWatchRemoved/ChildWatchRemoved events.
    for (const kind of kinds) {
      const removed = this.table.removeAll([kind], serverPath);
      this.tellRemoved(removed, kind === 'child' ? 'childWatchRemoved' : kind === 'data' || kind === 'exist' ? 'dataWatchRemoved' : 'persistentWatchRemoved', serverPath);
    }
  }

  private tellRemoved(watchers: Set<Watcher>, type: EventTypeName, serverPath: string): void {
    for (const w of watchers) this.dispatcher.notify(() => w.fire({ type, serverPath, zxid: -1n }));
  }

  deliver(event: WatcherEvent, zxid: bigint, sessionId: bigint): void {
    const type = EVENT_NAMES[event.type];
    const serverPath = event.path ?? '';
    if (eventChannel.hasSubscribers) eventChannel.publish({ sessionId, type: type ?? String(event.type), path: serverPath, zxid });
    // The server sends only node events; session events (None) are ours to make, so anything else is ignored.
    if (type === undefined) return;
    const watchers = this.table.materialize(type, serverPath);
    for (const w of watchers) this.dispatcher.notify(() => w.fire({ type, serverPath, zxid }));
  }

  replayBatches(): SetWatchesBatch[] {
    return setWatchesBatches(this.table.snapshot());
  }

  sessionEnded(error: ZkError, keepPersistent: boolean): void {
    for (const w of this.table.takeAll({ keepPersistent })) this.dispatcher.notify(() => w.fail(error));
  }

  renewed(): void {
    for (const { serverPath, watcher } of this.table.persistentWatchers()) {
      this.dispatcher.notify(() => watcher.fire({ type: 'resync', serverPath, zxid: -1n }));
    }
  }
}
