/**
 * The watcher objects behind the public watch API. The WatchManager sees server paths; these strip the
 * chroot before anything reaches the user.
 *
 * - OneShotPromise: `watch: true`. Its promise fires once, rejects only when the session ends (expired,
 *   closed, auth-failed), never on a mere disconnect, and is pre-marked handled so an ignored watch never
 *   becomes an unhandled rejection.
 * - ListenerWatcher: `watch: listener`. One per listener function and client, so the same function set twice
 *   on a path fires once (the manager keeps a set).
 * - PersistentWatchHandle: addWatch's result: listeners plus async iterators, until removed.
 */
import { ClientClosedError } from '../../errors/errors.js';
import { AsyncQueue } from '../async-queue.js';
import type { Chroot } from '../chroot.js';
import type { CallOptions, PersistentWatch, WatchEvent, WatchListener } from '../types.js';
import type { Watcher } from './watch-manager.js';

type RawEvent = Parameters<Watcher['fire']>[0];

function toClientEvent(chroot: Chroot, event: RawEvent): WatchEvent {
  return { type: event.type, path: chroot.toClient(event.serverPath), zxid: event.zxid };
}

export class OneShotPromise implements Watcher {
  readonly promise: Promise<WatchEvent>;
  private resolveFn!: (event: WatchEvent) => void;
  private rejectFn!: (error: Error) => void;
  private readonly chroot: Chroot;

  constructor(chroot: Chroot) {
    this.chroot = chroot;
    this.promise = new Promise<WatchEvent>((resolve, reject) => {
      this.resolveFn = resolve;
      this.rejectFn = reject;
    });
    this.promise.catch(() => undefined);
  }

  fire(event: RawEvent): void {
    this.resolveFn(toClientEvent(this.chroot, event));
  }

  fail(error: Error): void {
    this.rejectFn(error);
  }
}

export class ListenerWatcher implements Watcher {
  private readonly listener: WatchListener;
  private readonly chroot: Chroot;

  constructor(chroot: Chroot, listener: WatchListener) {
    this.chroot = chroot;
    this.listener = listener;
  }

  fire(event: RawEvent): void {
    this.listener(toClientEvent(this.chroot, event));
  }

  fail(): void {
    // A callback has nothing to reject; session ends are visible through states()/onStateChange.
  }
}

export class PersistentWatchHandle implements Watcher, PersistentWatch {
  readonly path: string;
  private readonly chroot: Chroot;
  private readonly listeners = new Set<WatchListener>();
  private readonly iterators = new Set<AsyncQueue<WatchEvent>>();
  private ended: { error: Error | null } | null = null;
  private readonly removeFn: (handle: PersistentWatchHandle, options: CallOptions | undefined) => Promise<void>;

  constructor(
    path: string,
    chroot: Chroot,
    removeFn: (handle: PersistentWatchHandle, options: CallOptions | undefined) => Promise<void>,
  ) {
    this.path = path;
    this.chroot = chroot;
    this.removeFn = removeFn;
  }

  on(listener: WatchListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  fire(event: RawEvent): void {
    const e = toClientEvent(this.chroot, event);
    for (const it of this.iterators) it.push(e);
    let failure: { error: unknown } | undefined;
    for (const l of this.listeners) {
      try {
        l(e);
      } catch (error) {
        // Every listener still runs; the first error is reported by the dispatcher afterwards.
        failure ??= { error };
      }
    }
    if (e.type === 'persistentWatchRemoved') this.finish(null);
    if (failure !== undefined) throw failure.error;
  }

  fail(error: Error): void {
    // Closing the client ends iterations quietly; expiry/auth failure is an error the loop should see.
    this.finish(error instanceof ClientClosedError ? null : error);
  }

  /** No more events: iterators end (or throw the session's end). */
  finish(error: Error | null): void {
    if (this.ended !== null) return;
    this.ended = { error };
    for (const it of this.iterators) {
      if (error === null) it.end();
      else it.fail(error);
    }
    this.iterators.clear();
    this.listeners.clear();
  }

  remove(options?: CallOptions): Promise<void> {
    if (this.ended !== null) return Promise.resolve();
    return this.removeFn(this, options);
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    const queue: AsyncQueue<WatchEvent> = new AsyncQueue(() => this.iterators.delete(queue));
    if (this.ended === null) this.iterators.add(queue);
    else if (this.ended.error === null) queue.end();
    else queue.fail(this.ended.error);
    return queue;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.remove();
  }
}
