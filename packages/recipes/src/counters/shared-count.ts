/**
 * Curator's SharedCount (a SharedValue holding an int): one node whose data is a 4-byte big-endian int, created
 * with a seed if missing, watched so every participant's `count` follows the node and listeners hear changes.
 * `setCount` writes unconditionally; `trySetCount(previous, n)` only if the node is still at the version
 * `previous` was read at (and, as in Curator, only if `previous` is our current view), false otherwise.
 *
 * Faults: the data watch survives reconnects (the client re-registers it); after every reconnect, and in a
 * renewed session, the node is read again, so a change made while we were away is heard. trySetCount goes
 * through counter-cas.ts, so a lost reply is settled exactly (or CounterOutcomeUnknownError if the session
 * ended first). setCount, like Curator's, is retried after a connection loss: an unconditional write.
 */
import { parentPath, systemClock, type ACL, type Clock } from '@zkts/protocol';

import { RecipeArgumentError, RecipeClosedError } from '../errors.js';
import {
  aclRule, withAcl,
  ChangeFeed, checkArg, checkClientAndPath, checkOptions, ensureDir, rules, isConnectedState, isLive, isNodeExists, isNoNode, KeepAlive, retrying, type RecipeClient,
} from '../internal/index.js';
import { CasNode, type Codec } from './counter-cas.js';

/** A value with the node version it was read at (Curator's VersionedValue). */
export interface VersionedCount {
  readonly value: number;
  readonly version: number;
}

const INT: Codec<number> = {
  encode(value) {
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setInt32(0, value);
    return bytes;
  },
  decode(bytes) {
    if (bytes.length === 0) return 0;
    if (bytes.length !== 4) throw new RecipeArgumentError(`not a 4-byte int: ${bytes.length} bytes`);
    return new DataView(bytes.buffer, bytes.byteOffset, 4).getInt32(0);
  },
};

/** A SharedCount holds a Java int. */
function checkInt(what: string, name: string, value: number): number {
  checkArg(what, name, value, rules.int32);
  return value;
}

/** What trySetCount compares: a VersionedCount as read from this SharedCount. */
const VERSIONED = {
  expect: 'a VersionedCount ({ value, version })',
  test: (v: unknown) => typeof v === 'object' && v !== null && rules.int32.test((v as VersionedCount).value) && rules.integer(0, 2 ** 31 - 1).test((v as VersionedCount).version),
};

/** Curator SharedCount: a 4-byte big-endian int in one node, watched; versioned setCount / trySetCount and listeners. */
export class SharedCount implements AsyncDisposable {
  readonly client: RecipeClient;
  readonly path: string;
  private readonly seed: number;
  private readonly cas: CasNode<number>;
  private readonly feed = new ChangeFeed<number>();
  /** Follows the node: a pass reads it and waits for its data watch, a reconnect or a failed trySetCount. */
  private readonly alive: KeepAlive;
  private current: VersionedCount | undefined;
  /** The data watch the loop waits on, kept across passes in one session so reconnects do not pile up watches. */
  private armed: { readonly session: bigint; readonly fired: Promise<unknown>; settled: boolean } | undefined;
  private unsubscribe: (() => void) | undefined;

  /**
   * `clock`: time source of the retry pause after an unexpected error (default: the system clock); `acl`: the
   * ACL of the counter node and its parents (default: the client's aclProvider, see ZkClient.aclFor).
   */
  constructor(client: RecipeClient, path: string, seed: number, options: { clock?: Clock; acl?: ACL[] } = {}) {
    checkClientAndPath('SharedCount', client, path);
    checkOptions('SharedCount', options, { clock: rules.clock, acl: aclRule });
    this.client = client = withAcl(client, options.acl);
    this.path = path;
    this.seed = checkInt('SharedCount', 'seed', seed);
    this.cas = new CasNode(client, path, INT);
    this.alive = new KeepAlive(options.clock ?? systemClock);
  }

  /** The last unexpected error of the loop that follows the node (it retries after it). */
  get lastError(): unknown {
    return this.alive.lastError;
  }

  /** The count as last read or written (throws before start()). */
  get count(): number {
    return this.versioned.value;
  }

  /** The count with its node version, for trySetCount (throws before start()). */
  get versioned(): VersionedCount {
    if (this.current === undefined) throw new RecipeArgumentError(`shared count ${this.path}: not started`);
    return this.current;
  }

  /** Creates the node with the seed if missing, reads it, and starts following it. */
  async start(): Promise<void> {
    if (this.alive.closed) throw new RecipeClosedError(`shared count ${this.path} closed`);
    if (this.alive.started) throw new RecipeArgumentError(`shared count ${this.path} already started`);
    await ensureDir(this.client, parentPath(this.path));
    await retrying(this.client, async () => {
      try {
        await this.client.create(this.path, INT.encode(this.seed), { mode: 'persistent' });
      } catch (e) {
        if (!isNodeExists(e)) throw e;
      }
    });
    const { data, stat } = await retrying(this.client, () => this.client.getData(this.path));
    this.update(INT.decode(data), stat.version);
    this.unsubscribe = this.client.onStateChange((c) => {
      if (isConnectedState(c.state)) this.alive.kick();
    });
    void this.alive.start((kicked) => this.pass(kicked), (e, kicked) => this.recover(e, kicked));
  }

  /** Writes `value` whatever the node holds (Curator's setCount). */
  async setCount(value: number): Promise<void> {
    checkInt('SharedCount.setCount', 'value', value);
    const stat = await retrying(this.client, () => this.client.setData(this.path, INT.encode(value)));
    this.update(value, stat.version);
  }

  /**
   * Writes `value` if the node is still at `previous.version` and `previous` is our current view; false if
   * someone changed it first (our view is then read again).
   */
  async trySetCount(previous: VersionedCount, value: number): Promise<boolean> {
    checkArg('SharedCount.trySetCount', 'previous', previous, VERSIONED);
    checkInt('SharedCount.trySetCount', 'value', value);
    const mine = this.versioned;
    if (previous.version !== mine.version || previous.value !== mine.value) return false;
    if (await this.cas.trySet(previous, value)) {
      this.update(value, previous.version + 1);
      return true;
    }
    this.alive.kick();
    return false;
  }

  /** Calls `listener` with every new count heard; returns the unsubscribe function. */
  onChange(listener: (count: number) => void): () => void {
    checkArg('SharedCount.onChange', 'listener', listener, rules.function);
    return this.feed.on(listener);
  }

  /** Stops following the node and deletes our receipt (the count stays). */
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

  private update(value: number, version: number): void {
    if (this.current !== undefined && version < this.current.version) return; // an older read arriving late
    const changed = this.current === undefined || this.current.value !== value;
    this.current = { value, version };
    if (changed) this.feed.emit(value);
  }

  /** One pass: reads the node (arming a data watch once per session) and waits for a change or a kick. */
  private async pass(kicked: Promise<void>): Promise<'stop' | void> {
    const { client, path } = this;
    if (!isLive(client.state)) return 'stop';
    if (!isConnectedState(client.state)) {
      await kicked;
      return;
    }
    let fired: Promise<unknown>;
    const armed = this.armed;
    if (armed !== undefined && armed.session === client.sessionId && !armed.settled) {
      const { data, stat } = await client.getData(path);
      this.update(INT.decode(data), stat.version);
      fired = armed.fired;
    } else {
      const session = client.sessionId;
      const read = await client.getData(path, { watch: true });
      this.update(INT.decode(read.data), read.stat.version);
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
