/**
 * One persistent recursive watch on '/' shared by every open page: armed while at least one listener is
 * subscribed, removed with the last one. Listeners hear each change, `reset` when changes may have been missed
 * (a reconnect, a renewed session, a watch that had to be armed again), and the console session's state
 * changes. One hub per client: the tree routes use it to drop cached child lists as they change.
 */
import { ZkError, type PersistentWatch, type SessionState, type StateChange, type WatchEvent, type ZkClient } from '@zkts/protocol';

export type ChangeType = 'created' | 'deleted' | 'data';

export interface ChangeListener {
  change(type: ChangeType, path: string): void;
  /** Changes may have been missed: whatever a page shows should be read again. */
  reset(reason: string): void;
  /** `live`: false when the server refused the watch (ZooKeeper before 3.6 has no addWatch). */
  state(state: SessionState, live: boolean): void;
}

const RETRY_MS = 1000;

/** Failures that another try, after a reconnect, may not have. */
const TRANSIENT = new Set(['CONNECTION_LOSS', 'SESSION_EXPIRED', 'OPERATION_TIMEOUT', 'TIMEOUT', 'SESSION_MOVED', 'NOT_READ_ONLY']);

export class ChangeHub {
  private readonly listeners = new Set<ChangeListener>();
  /** Internal listeners (caches) that do not keep the watch armed. */
  private readonly observers = new Set<(type: ChangeType, path: string) => void>();
  private watch: PersistentWatch | undefined;
  /** Bumped on every arm and disarm, so a late arm of an older round removes its own watch. */
  private round = 0;
  private stopStates: (() => void) | undefined;
  private retry: NodeJS.Timeout | undefined;
  /**
   * The last removal of the server watch. A new one is added only after it: servers before 3.9 remove a
   * persistent watch in a second request (type Any), which would otherwise land after the new addWatch and
   * remove that.
   */
  private removing: Promise<void> = Promise.resolve();
  private waiters = new Set<() => void>();
  /** The server refused addWatch itself: no retry until the session reconnects. */
  private refused = false;
  /**
   * A page may have read while no watch was armed (it was told the state before the arm, or the watch ended):
   * what changed between that read and the arm was heard by no one, so the arm tells pages to read again.
   */
  private unheard = false;

  constructor(private readonly client: ZkClient) {}

  get armed(): boolean {
    return this.watch !== undefined;
  }

  get listening(): number {
    return this.listeners.size;
  }

  /** Whether changes are followed (false once the server refused the watch). */
  get live(): boolean {
    return !this.refused;
  }

  /** Resolves once the watch is armed (at once when it is), refused, or after `timeoutMs` whatever happened. */
  ready(timeoutMs: number): Promise<void> {
    if (this.watch !== undefined || this.refused) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(() => {
        // The caller goes on without the watch (and tells its page the state).
        if (this.watch === undefined) this.unheard = true;
        done();
      }, timeoutMs);
      this.waiters.add(done);
    });
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.start();
    return () => {
      if (!this.listeners.delete(listener)) return;
      if (this.listeners.size === 0) this.stop();
    };
  }

  /** Hears changes while pages listen (without arming the watch itself). */
  observe(observer: (type: ChangeType, path: string) => void): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  private start(): void {
    this.stopStates = this.client.onStateChange((change) => this.onState(change));
    void this.arm();
  }

  private stop(): void {
    this.round++;
    this.stopStates?.();
    this.stopStates = undefined;
    if (this.retry !== undefined) clearTimeout(this.retry);
    this.retry = undefined;
    this.unheard = false;
    const watch = this.watch;
    this.watch = undefined;
    // The client may be closing: a failed removal leaves nothing behind that the session's end does not clear.
    if (watch !== undefined) this.removing = watch.remove().catch(() => undefined);
  }

  private onState(change: StateChange): void {
    const connected = change.state === 'connected' || change.state === 'connected-read-only';
    if (connected) this.refused = false;
    if (this.watch === undefined) this.unheard = true;
    for (const l of this.listeners) l.state(change.state, !this.refused);
    // The server does not replay what changed while a connection was down: pages read again.
    if (connected && change.previous !== 'connected') {
      this.broadcastReset(`the console's session is ${change.state} again`);
      if (this.watch === undefined && this.retry === undefined) void this.arm();
    }
  }

  private async arm(): Promise<void> {
    const round = ++this.round;
    let watch: PersistentWatch;
    try {
      await this.removing;
      if (round !== this.round) return;
      watch = await this.client.addWatch('/', 'persistent-recursive');
    } catch (error) {
      if (round !== this.round || this.listeners.size === 0) return;
      const code = error instanceof ZkError ? error.code : 'INTERNAL';
      // Nothing will follow these; a renewed session arms again through onState.
      if (code === 'CLIENT_CLOSED' || code === 'AUTH_FAILED' || this.client.state === 'expired') return;
      if (!TRANSIENT.has(code) && this.client.state === 'connected') {
        // The server itself refused (no addWatch before ZooKeeper 3.6): pages work without live updates.
        this.refused = true;
        this.wake();
        for (const l of this.listeners) l.state(this.client.state, false);
        return;
      }
      // Not connected now: try again (a reconnect also arms through onState).
      this.retry = setTimeout(() => {
        this.retry = undefined;
        if (this.watch === undefined && this.listeners.size > 0) void this.arm();
      }, RETRY_MS);
      return;
    }
    if (round !== this.round) {
      this.removing = watch.remove().catch(() => undefined);
      return;
    }
    this.watch = watch;
    this.wake();
    if (this.unheard) {
      this.unheard = false;
      this.broadcastReset('the live watch is armed now');
    }
    void this.follow(watch, round);
  }

  /** Reads the watch's events until it ends (removed, or the session ended without renewal). */
  private async follow(watch: PersistentWatch, round: number): Promise<void> {
    try {
      for await (const event of watch) this.deliver(event);
    } catch {
      // The session ended; arming again below.
    }
    if (round !== this.round || this.watch !== watch) return;
    this.watch = undefined;
    this.unheard = true;
    const state = this.client.state;
    if (state === 'closed' || state === 'auth-failed') return;
    this.broadcastReset('the live watch ended and is armed again');
    if (this.listeners.size > 0) void this.arm();
  }

  private wake(): void {
    for (const done of [...this.waiters]) done();
  }

  private deliver(event: WatchEvent): void {
    const type: ChangeType | undefined =
      event.type === 'created' ? 'created' : event.type === 'deleted' ? 'deleted' : event.type === 'dataChanged' ? 'data' : undefined;
    if (event.type === 'resync') {
      this.broadcastReset('the console opened a new session');
      return;
    }
    if (type === undefined) return;
    for (const o of this.observers) o(type, event.path);
    for (const l of this.listeners) l.change(type, event.path);
  }

  private broadcastReset(reason: string): void {
    for (const l of this.listeners) l.reset(reason);
  }
}

const hubs = new WeakMap<ZkClient, ChangeHub>();

/** The one hub of a client (the events route and the tree route share it). */
export function changeHubFor(client: ZkClient): ChangeHub {
  let hub = hubs.get(client);
  if (hub === undefined) {
    hub = new ChangeHub(client);
    hubs.set(client, hub);
  }
  return hub;
}
