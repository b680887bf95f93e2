/**
 * Keeps a cache's watch armed and its view honest across the life of the client:
 *
 * - arms one persistent watch on the root (recursive unless only the root is cached), or, when the server
 *   answers UNIMPLEMENTED (before 3.6) or `watchMode: 'one-shot'` asks for it, switches the reads to one-shot
 *   watches;
 * - after a reconnect (same session) starts a full re-read: the server re-arms a persistent watch but does not
 *   replay what changed while the client was away (CURATOR-391), so events may have been missed;
 * - after an expiry and a new session (renewal) does the same, first re-adding the watch if the client did not
 *   (`renewWatches: false`);
 * - when a read failed for a reason a re-read repairs (a timeout), re-reads after a back-off;
 * - when the client is closed, fails authentication or expires for good, ends the cache.
 */
import { ClientClosedError, SessionExpiredError, type PersistentWatch, type StateChange, type WatchEvent } from '@zkts/protocol';

import {
  isConnectedState, isConnectionLoss, isFinalState, isSessionGone, isUnimplemented,
} from '../../internal/index.js';
import type { CacheClient } from '../client.js';
import type { WalkReason } from './engine.js';
import type { Reads } from './reads.js';

const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 30_000;

export interface KeeperSettings {
  client: CacheClient;
  root: string;
  mode: 'persistent' | 'persistent-recursive';
  forceOneShot: boolean;
  reads: Reads;
  engine: { startWalk(reason: WalkReason): void; notify(event: WatchEvent): void };
  /** The cache cannot go on: the client is closed, or its session is over for good. */
  end: (error: Error) => void;
  onError: (error: unknown) => void;
}

export class WatchKeeper {
  private readonly s: KeeperSettings;
  private readonly listener: (event: WatchEvent) => void;
  private readonly unsubscribe: () => void;
  private handle: PersistentWatch | null = null;
  /** The persistent watch still delivers (false once its session ended without renewWatches). */
  private alive = false;
  private started = false;
  private closed = false;
  /** Since the last full read began: was the connection lost (events may be missed), and was it an expiry? */
  private lost = false;
  private renewal = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryDelay = RETRY_FIRST_MS;

  constructor(settings: KeeperSettings) {
    this.s = settings;
    this.listener = (event) => settings.engine.notify(event);
    this.unsubscribe = settings.client.onStateChange((change) => this.onState(change));
  }

  /** Arms the watch, then starts the initial full read. */
  async start(): Promise<void> {
    if (this.s.forceOneShot) this.s.reads.useOneShot(this.listener);
    else await this.addWatch();
    if (this.closed) return;
    this.started = true;
    this.s.engine.startWalk('initial');
  }

  private async addWatch(): Promise<void> {
    const { client, root, mode } = this.s;
    for (;;) {
      if (this.closed) return;
      try {
        const handle = await client.addWatch(root, mode);
        if (this.closed) {
          await handle.remove().catch(() => undefined);
          return;
        }
        this.adopt(handle);
        return;
      } catch (e) {
        if (isUnimplemented(e)) {
          this.s.reads.useOneShot(this.listener);
          return;
        }
        if (!(isConnectionLoss(e) || isSessionGone(e)) || isFinalState(client.state)) throw e;
        await client.connected();
      }
    }
  }

  private adopt(handle: PersistentWatch): void {
    this.handle = handle;
    this.alive = true;
    handle.on(this.listener);
    // The listener above gets the events (synchronously, in wire order); this loop only learns when they stop.
    void (async () => {
      try {
        for await (const _event of handle) {
          // Discarded: see above.
        }
      } catch {
        // The session ended without renewWatches: re-added at the next connection.
      }
      if (this.handle === handle) this.alive = false;
    })();
  }

  private onState(change: StateChange): void {
    if (this.closed) return;
    switch (change.state) {
      case 'suspended':
        this.lost = true;
        return;
      case 'expired':
        this.lost = true;
        this.renewal = true;
        // With renewSession the client moves on to connecting in the same call that expired it (this listener may
        // run inside it): still expired a microtask later means for good.
        queueMicrotask(() => {
          if (this.s.client.state === 'expired') this.s.end(change.error ?? new SessionExpiredError('the session expired'));
        });
        return;
      case 'connected':
      case 'connected-read-only':
        if (this.started && this.lost) void this.resync(this.renewal ? 'renewal' : 'reconnect');
        return;
      case 'closed':
        this.s.end(new ClientClosedError());
        return;
      case 'auth-failed':
        this.s.end(change.error ?? new Error('authentication failed'));
        return;
      default:
        return;
    }
  }

  private async resync(reason: WalkReason): Promise<void> {
    this.lost = false;
    this.renewal = false;
    if (!this.s.reads.oneShot && !this.alive) {
      try {
        await this.addWatch();
      } catch (e) {
        if (this.closed || isFinalState(this.s.client.state)) return;
        this.s.onError(e);
        this.retryLater();
        return;
      }
    }
    if (!this.closed) this.s.engine.startWalk(reason);
  }

  /** A read failed in a way a full re-read repairs: one after a back-off (doubling, up to 30 s). */
  retryLater(): void {
    if (this.retryTimer !== undefined || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.closed) return;
      // Not connected: the next connection re-reads anyway.
      if (isConnectedState(this.s.client.state)) void this.resync('retry');
      else this.lost = true;
    }, this.retryDelay);
    this.retryTimer.unref?.();
    this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MAX_MS);
  }

  /** A full read completed: the next failure starts its back-off afresh. */
  walked(): void {
    this.retryDelay = RETRY_FIRST_MS;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    const handle = this.handle;
    this.handle = null;
    // One-shot watches cannot be taken back one listener at a time: they stay until they fire (and are ignored).
    if (handle !== null && !isFinalState(this.s.client.state)) await handle.remove().catch(() => undefined);
  }
}
