/**
 * What Curator's SharedValue and SharedCount share (SharedCount is a SharedValue in Curator too): one node whose
 * data is the value, created with a seed if missing, watched so every participant's view follows the node and
 * listeners hear changes. `set` writes unconditionally; `trySet(previous, v)` only if the node is still at the
 * version `previous` was read at (and, as in Curator, only if `previous` is our current view), false otherwise.
 * The value type is a codec (bytes for SharedValue, a 4-byte int for SharedCount) and an equality.
 *
 * Faults: the data watch survives reconnects (the client re-registers it); after every reconnect, and in a
 * renewed session, the node is read again, so a change made while we were away is heard. trySet goes through
 * counter-cas.ts, so a lost reply is settled exactly (or CounterOutcomeUnknownError if the session ended
 * first). set, like Curator's, is retried after a connection loss: an unconditional write.
 */
import { parentPath, systemClock, type ACL, type Clock } from '@zkts/protocol';

import { RecipeArgumentError, RecipeClosedError } from '../errors.js';
import {
  aclRule, withAcl,
  ChangeFeed, checkClientAndPath, checkOptions, ensureDir, rules, isConnectedState, isLive, isNodeExists, isNoNode, KeepAlive, retrying,
  type RecipeClient,
} from '../internal/index.js';
import { CasNode, type Codec } from './counter-cas.js';

/** A value with the node version it was read at (Curator's VersionedValue). */
export interface VersionedValue<T> {
  readonly value: T;
  readonly version: number;
}

/** How one kind of shared value is stored and compared. */
export interface ValueKind<T> {
  /** The recipe's name in errors ("shared count"). */
  readonly what: string;
  readonly codec: Codec<T>;
  equals(a: T, b: T): boolean;
}

/** The follow-the-node machinery of SharedValue and SharedCount; the subclasses name the public methods. */
export class SharedNode<T> implements AsyncDisposable {
  readonly client: RecipeClient;
  readonly path: string;
  private readonly kind: ValueKind<T>;
  private readonly seed: T;
  private readonly cas: CasNode<T>;
  private readonly feed = new ChangeFeed<T>();
  /** Follows the node: a pass reads it and waits for its data watch, a reconnect or a failed trySet. */
  private readonly alive: KeepAlive;
  private current: VersionedValue<T> | undefined;
  /** The data watch the loop waits on, kept across passes in one session so reconnects do not pile up watches. */
  private armed: { readonly session: bigint; readonly fired: Promise<unknown>; settled: boolean } | undefined;
  private unsubscribe: (() => void) | undefined;

  protected constructor(name: string, client: RecipeClient, path: string, seed: T, options: { clock?: Clock; acl?: ACL[] }, kind: ValueKind<T>) {
    checkClientAndPath(name, client, path);
    checkOptions(name, options, { clock: rules.clock, acl: aclRule });
    this.client = client = withAcl(client, options.acl);
    this.path = path;
    this.kind = kind;
    this.seed = seed;
    this.cas = new CasNode(client, path, kind.codec);
    this.alive = new KeepAlive(options.clock ?? systemClock);
  }

  /** The last unexpected error of the loop that follows the node (it retries after it). */
  get lastError(): unknown {
    return this.alive.lastError;
  }

  /** The value with its node version, for a versioned write (throws before start()). */
  get versioned(): VersionedValue<T> {
    if (this.current === undefined) throw new RecipeArgumentError(`${this.kind.what} ${this.path}: not started`);
    return this.current;
  }

  /** Creates the node with the seed if missing, reads it, and starts following it. */
  async start(): Promise<void> {
    if (this.alive.closed) throw new RecipeClosedError(`${this.kind.what} ${this.path} closed`);
    if (this.alive.started) throw new RecipeArgumentError(`${this.kind.what} ${this.path} already started`);
    const { codec } = this.kind;
    await ensureDir(this.client, parentPath(this.path));
    await retrying(this.client, async () => {
      try {
        await this.client.create(this.path, codec.encode(this.seed), { mode: 'persistent' });
      } catch (e) {
        if (!isNodeExists(e)) throw e;
      }
    });
    const { data, stat } = await retrying(this.client, () => this.client.getData(this.path));
    this.update(codec.decode(data), stat.version);
    this.unsubscribe = this.client.onStateChange((c) => {
      if (isConnectedState(c.state)) this.alive.kick();
    });
    void this.alive.start((kicked) => this.pass(kicked), (e, kicked) => this.recover(e, kicked));
  }

  /** Calls `listener` with every new value heard; returns the unsubscribe function. */
  protected listen(listener: (value: T) => void): () => void {
    return this.feed.on(listener);
  }

  /** Writes `value` whatever the node holds. */
  protected async set(value: T): Promise<void> {
    const stat = await retrying(this.client, () => this.client.setData(this.path, this.kind.codec.encode(value)));
    this.update(value, stat.version);
  }

  /** Writes `value` if the node is still at `previous.version` and `previous` is our current view. */
  protected async trySet(previous: VersionedValue<T>, value: T): Promise<boolean> {
    const mine = this.versioned;
    if (previous.version !== mine.version || !this.kind.equals(previous.value, mine.value)) return false;
    if (await this.cas.trySet(previous, value)) {
      this.update(value, previous.version + 1);
      return true;
    }
    this.alive.kick();
    return false;
  }

  /** Stops following the node and deletes our receipt (the value stays). */
  async close(): Promise<void> {
    if (this.alive.closed) return;
    const stopped = this.alive.close();
    this.unsubscribe?.();
    this.feed.end();
    await stopped;
    await this.cas.close();
  }

  /** The same as close(). */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  private update(value: T, version: number): void {
    if (this.current !== undefined && version < this.current.version) return; // an older read arriving late
    const changed = this.current === undefined || !this.kind.equals(this.current.value, value);
    this.current = { value, version };
    if (changed) this.feed.emit(value);
  }

  /** One pass: reads the node (arming a data watch once per session) and waits for a change or a kick. */
  private async pass(kicked: Promise<void>): Promise<'stop' | void> {
    const { client, path } = this;
    const { codec } = this.kind;
    if (!isLive(client.state)) return 'stop';
    if (!isConnectedState(client.state)) {
      await kicked;
      return;
    }
    let fired: Promise<unknown>;
    const armed = this.armed;
    if (armed !== undefined && armed.session === client.sessionId && !armed.settled) {
      const { data, stat } = await client.getData(path);
      this.update(codec.decode(data), stat.version);
      fired = armed.fired;
    } else {
      const session = client.sessionId;
      const read = await client.getData(path, { watch: true });
      this.update(codec.decode(read.data), read.stat.version);
      const entry = { session, fired: read.watch ?? Promise.resolve(), settled: false };
      const settle = (): void => void (entry.settled = true);
      entry.fired.then(settle, settle);
      this.armed = entry;
      fired = entry.fired;
    }
    await Promise.race([fired.catch(() => undefined), kicked]);
  }

  /** Deleted: waits for the node to come back (or for a kick), then reads again; anything else pauses. */
  private async recover(e: unknown, kicked: Promise<void>): Promise<'retry' | 'pause'> {
    if (!isNoNode(e)) return 'pause';
    const watched = await this.client.exists(this.path, { watch: true }).catch(() => undefined);
    if (watched !== undefined && watched.stat === null) await Promise.race([watched.watch.catch(() => undefined), kicked]);
    return 'retry';
  }
}
