/**
 * kazoo's LockingQueue (kazoo/recipe/queue.py), node for node, so kazoo and zkts processes share one queue:
 *
 *   <path>/entries/entry-<ppp>-<seq>   PERSISTENT_SEQUENTIAL, data = the item (entry-names.ts)
 *   <path>/taken/<entry name>          EPHEMERAL, data = the consumer's id (32 lowercase hex digits, kazoo's
 *                                      uuid4().hex): the lock on one entry while it is processed
 *
 * A consumer locks the first entry that has no lock node, processes it, then consumes it: the entry and its
 * lock go in one multi. A consumer that dies loses its session and with it the lock, so the entry comes back.
 *
 * Where we are stricter than kazoo (its processes see no difference):
 * - Taking an entry is a multi [check entry, create lock], so no lock is ever made for an entry already gone.
 * - A put goes in one multi with an EPHEMERAL receipt `<path>/_zkts-put-<uuid>` (receipt.ts): kazoo's entry
 *   names have no room for a uuid (any extra text would break kazoo's string order), so after a lost reply the
 *   receipt says whether the put committed, and it is never made twice. If the session ended before we could
 *   look, the receipt is gone and the put rejects with OutcomeUnknownError. kazoo never lists `<path>` itself.
 * - consume() and release() act only while the session that made the lock is ours, and a consume whose reply
 *   was lost is settled: in the same session our lock node is gone iff the multi committed (no one else
 *   deletes a lock they do not hold). So an entry is removed at most once, and consume() is true exactly
 *   when this call removed it.
 *
 * A put (or putAll) is one `zkts:queue.put` trace (no node: the entries' names come back from no one); a get or
 * poll that locks an entry is one `zkts:queue.take`, with the entry's node (one still held is not taken again).
 */
import { joinPath, MultiError, systemClock, type ACL, type Clock } from '@zkts/protocol';

import { LockBusyError } from '../errors.js';
import {
  aclRule, withAcl,
  byteLength, checkArg, checkClientAndPath, checkOptions, checkpoint, checkWait, ensureDir, rules, isConnectionLoss, isExpiry, isLive, isNodeExists, isNoNode, openScope,
  queuePut, queueTake, removeNode, retrying, within, type Data, type QueueTrace, type RecipeClient, type Scope, type WaitOptions,
} from '../internal/index.js';
import { availableEntries, DEFAULT_PRIORITY, entryPrefix } from './entry-names.js';
import { lockOwner, owns, settleAfterExpiry, settleConsume } from './lock-ownership.js';
import { commitOnce } from './receipt.js';

/** Options of a LockingQueue. */
export interface LockingQueueOptions {
  /** Time source for `timeout` (default: the system clock); tests pass a manual one. */
  clock?: Clock;
  /** The ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  acl?: ACL[];
}

/** How a put ranks its entries: kazoo's priority, 0…999, lower first (default 100). */
export interface PutOptions {
  priority?: number;
}

/** kazoo's priorities: three digits in the entry's name. */
const PUT_RULES = { priority: rules.integer(0, 999) };

/** The entry a LockingQueue instance has locked: process `data`, then `consume()` (or `release()`) it. */
export interface LockedEntry {
  /** The entry's node name, `entry-<ppp>-<seq>`. */
  readonly name: string;
  /** Full path of the entry node. */
  readonly path: string;
  readonly priority: number;
  readonly data: Uint8Array;
  /** The session that owns our lock node: the lock lasts as long as that session. */
  readonly sessionId: bigint;
}

interface Held extends LockedEntry {
  readonly lockPath: string;
}

/**
 * kazoo's `LockingQueue`, in kazoo's layout: `get()` locks the first free entry (by priority, then FIFO) while you
 * process it, and `consume()` removes it; if its consumer dies first the lock goes with its session and the entry
 * is delivered again. `put(data, { priority })` adds one (0…999, lower first; default 100).
 *
 * @example
 * ```ts
 * import { connect } from '@zkts/protocol';
 * import { LockingQueue } from '@zkts/recipes';
 *
 * await using zk = await connect(process.env.ZKTS_SERVER ?? '127.0.0.1:2181');
 * {
 *   await using jobs = new LockingQueue(zk, '/example/jobs');
 *   await jobs.put('rotate logs');
 *   await jobs.put('page the operator', { priority: 1 });
 *   const entry = await jobs.get({ timeout: 5_000 }); // locked for us until consumed or released
 *   console.log(new TextDecoder().decode(entry.data), await jobs.holdsLock());
 *   console.log('consumed', await jobs.consume(), 'left', await jobs.size());
 * }
 * await zk.removeRecursive('/example');
 * // page the operator true
 * // consumed true left 1
 * ```
 */
export class LockingQueue implements AsyncDisposable {
  readonly client: RecipeClient;
  readonly path: string;
  /** This consumer's id, written into its lock nodes (kazoo's format: uuid4().hex). */
  readonly id: string = globalThis.crypto.randomUUID().replaceAll('-', '');
  private readonly entriesDir: string;
  private readonly takenDir: string;
  private readonly clock: Clock;
  private current: Held | undefined;
  private getting = false;

  constructor(client: RecipeClient, path: string, options: LockingQueueOptions = {}) {
    checkClientAndPath('LockingQueue', client, path);
    checkOptions('LockingQueue', options, { clock: rules.clock, acl: aclRule });
    this.client = client = withAcl(client, options.acl);
    this.path = path;
    this.entriesDir = joinPath(path, 'entries');
    this.takenDir = joinPath(path, 'taken');
    this.clock = options.clock ?? systemClock;
  }

  /** The entry this instance holds now, if any (kazoo's `processing_element`). */
  get entry(): LockedEntry | undefined {
    return this.current;
  }

  /** Adds one entry (kazoo `put`). Rejects with OutcomeUnknownError only if a lost reply meets a session end. */
  async put(data: Data, options: PutOptions = {}): Promise<void> {
    checkArg('LockingQueue.put', 'data', data, rules.data);
    checkOptions('LockingQueue.put', options, PUT_RULES);
    return this.putTraced([data], options);
  }

  /** Adds several entries in one multi, all or none (kazoo `put_all`); they keep their order. */
  async putAll(values: readonly Data[], options: PutOptions = {}): Promise<void> {
    checkArg('LockingQueue.putAll', 'values', values, rules.arrayOf(rules.data));
    checkOptions('LockingQueue.putAll', options, PUT_RULES);
    return this.putTraced(values, options);
  }

  private async putTraced(values: readonly Data[], options: PutOptions): Promise<void> {
    if (!queuePut.hasSubscribers || values.length === 0) return this.putValues(values, options);
    const trace: QueueTrace = { recipe: 'LockingQueue', path: this.path, bytes: values.reduce((n: number, v) => n + byteLength(v), 0) };
    return queuePut.tracePromise(() => this.putValues(values, options), trace);
  }

  private async putValues(values: readonly Data[], options: PutOptions): Promise<void> {
    const prefix = joinPath(this.entriesDir, entryPrefix(options.priority ?? DEFAULT_PRIORITY));
    if (values.length === 0) return;
    const ops = values.map((data) => ({ op: 'create' as const, path: prefix, data, mode: 'persistent-sequential' as const }));
    await commitOnce(this.client, this.path, ops, () => this.ensureStructure());
  }

  /**
   * Locks the first free entry and resolves with it; if this instance still holds an entry (not consumed or
   * released, lock not lost), resolves with that one again, as kazoo does. Waits for one to appear or be
   * released; rejects with TimeoutError / AbortError from `{ timeout, signal }`. An expiry while waiting
   * goes on in the renewed session. A second get() or poll() of this instance while one waits rejects with
   * LockBusyError (an instance holds one entry at a time).
   */
  async get(options: WaitOptions = {}): Promise<LockedEntry> {
    checkWait('LockingQueue.get', options);
    const held = this.stillHeld();
    if (held !== undefined) return held;
    const scope = openScope(options, `locking queue ${this.path}`, this.clock);
    try {
      return (await this.takeTraced(scope, true)) as LockedEntry;
    } finally {
      scope?.dispose();
    }
  }

  /** Like get() but does not wait: null when no entry is free now. */
  async poll(): Promise<LockedEntry | null> {
    return this.stillHeld() ?? (await this.takeTraced(null, false)) ?? null;
  }

  /**
   * Removes the held entry and its lock in one multi (kazoo `consume`): true if this call removed it; false
   * if there was nothing held or the lock was lost (the entry is delivered again, or was already consumed by
   * whoever took it next). Rejects with OutcomeUnknownError only if a lost reply meets the end of the session
   * and the entry is gone by then.
   */
  async consume(): Promise<boolean> {
    const entry = this.current;
    if (entry === undefined || !(await owns(this.client, this.id, entry))) return this.drop(entry, false);
    const { client } = this;
    for (;;) {
      // Checked right before sending: a call made now goes out in this session or fails, never in a renewed
      // one where a lock node of the same name could be another consumer's.
      if (client.sessionId !== entry.sessionId) return this.drop(entry, await settleAfterExpiry(this.client, entry));
      try {
        await client.multi([{ op: 'delete', path: entry.path }, { op: 'delete', path: entry.lockPath }]);
        return this.drop(entry, true);
      } catch (e) {
        if (e instanceof MultiError) {
          // The entry was deleted by someone who ignored our lock, or our lock went: not ours to remove.
          if (e.failedIndex === 0) void removeNode(client, { path: entry.lockPath }, entry.sessionId);
          return this.drop(entry, false);
        }
        if (isExpiry(e)) return this.drop(entry, false); // never applied (see putAll); the lock went with the session
        if (!isConnectionLoss(e)) throw e;
        const committed = await settleConsume(this.client, entry);
        if (committed !== undefined) return this.drop(entry, committed);
      }
    }
  }

  /** Gives the held entry back to the queue (kazoo `release`): true if our lock was removed by this call. */
  async release(): Promise<boolean> {
    const entry = this.current;
    if (entry === undefined || !(await owns(this.client, this.id, entry))) return this.drop(entry, false);
    this.current = undefined;
    await removeNode(this.client, { path: entry.lockPath }, entry.sessionId);
    return true;
  }

  /** True while this instance holds its entry's lock (kazoo `holds_lock`: reads the lock node after a sync). */
  async holdsLock(): Promise<boolean> {
    const entry = this.current;
    return entry !== undefined && (await owns(this.client, this.id, entry));
  }

  /** Entries in the queue, locked ones included (kazoo `len()`). */
  async size(): Promise<number> {
    const stat = await retrying(this.client, () => this.client.exists(this.entriesDir));
    return stat?.numChildren ?? 0;
  }

  /** Releases the held entry, if any. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.release();
  }

  private stillHeld(): Held | undefined {
    if (this.current !== undefined && this.current.sessionId !== this.client.sessionId) this.current = undefined; // lost with its session
    return this.current;
  }

  private drop(entry: Held | undefined, result: boolean): boolean {
    if (entry !== undefined && this.current === entry) this.current = undefined;
    return result;
  }

  private async ensureStructure(): Promise<void> {
    await ensureDir(this.client, this.entriesDir, { persistent: true });
    await ensureDir(this.client, this.takenDir, { persistent: true });
  }

  /**
   * ensureStructure for a get, which goes on in a renewed session: an expiry while the nodes are made (a create
   * lost with the connection, or queued behind it) returns, and the get looks again in the new session.
   */
  private async ensureStructureOrRenewed(): Promise<void> {
    try {
      await this.ensureStructure();
    } catch (e) {
      if (!(isExpiry(e) && isLive(this.client.state))) throw e;
    }
  }

  /** take() as one `zkts:queue.take` trace when somebody listens: the entry's node and size once locked. */
  private takeTraced(scope: Scope, blocking: boolean): Promise<Held | undefined> {
    if (!queueTake.hasSubscribers) return this.take(scope, blocking);
    const trace: QueueTrace = { recipe: 'LockingQueue', path: this.path };
    return queueTake.tracePromise(async () => {
      const held = await this.take(scope, blocking);
      if (held !== undefined) {
        trace.node = held.path;
        trace.bytes = held.data.byteLength;
      }
      return held;
    }, trace);
  }

  /** Lists entries and locks, locks the first free entry; waits for a change and repeats (blocking). */
  private async take(scope: Scope, blocking: boolean): Promise<Held | undefined> {
    if (this.getting) throw new LockBusyError(`${this.path}: a get of this queue instance is already in progress`);
    this.getting = true;
    const { client } = this;
    try {
      for (;;) {
        checkpoint(scope);
        let listed: [{ children: string[]; watch?: Promise<unknown> }, { children: string[]; watch?: Promise<unknown> }];
        try {
          const watch = blocking ? { watch: true as const } : {};
          listed = await within(scope, Promise.all([
            retrying(client, () => client.getChildren(this.entriesDir, watch)),
            retrying(client, () => client.getChildren(this.takenDir, watch)),
          ]));
        } catch (e) {
          if (isNoNode(e)) {
            await this.ensureStructureOrRenewed();
            continue;
          }
          if (isExpiry(e) && isLive(client.state)) continue; // go on in the renewed session
          throw e;
        }
        const [entries, taken] = listed;
        for (const candidate of availableEntries(entries.children, new Set(taken.children))) {
          const held = await this.lock(candidate.name, candidate.priority);
          if (held !== undefined) {
            this.current = held;
            return held;
          }
        }
        if (!blocking) return undefined;
        // Woken by a new entry or a lock going away (a release, a consume, a consumer's session ending).
        const watches = [entries.watch, taken.watch].filter((w): w is Promise<unknown> => w !== undefined);
        try {
          await within(scope, Promise.race(watches));
        } catch (e) {
          if (!(isExpiry(e) && isLive(client.state))) throw e;
        }
      }
    } finally {
      this.getting = false;
    }
  }

  /**
   * Tries to lock one entry: [check entry, create lock] in one multi, with the reads of the entry's data and of
   * our lock node's owner pipelined behind it (one round trip). The entry with its data, or undefined.
   */
  private async lock(name: string, priority: number): Promise<Held | undefined> {
    const { client } = this;
    const path = joinPath(this.entriesDir, name);
    const lockPath = joinPath(this.takenDir, name);
    for (;;) {
      const locked = client.multi([{ op: 'check', path }, { op: 'create', path: lockPath, data: this.id, mode: 'ephemeral' }]);
      // The server answers one session's requests in order: these read what the multi left.
      const entryRead = client.getData(path);
      const lockRead = client.exists(lockPath);
      entryRead.catch(() => undefined);
      lockRead.catch(() => undefined);
      let owner: bigint | false | undefined;
      try {
        await locked;
        // The session the lock was made in (the one the request went out in, even if a renewal was under way).
        owner = await lockRead.then((stat) => stat?.ephemeralOwner ?? false, () => lockOwner(this.client, this.id, lockPath));
      } catch (e) {
        if (e instanceof MultiError) {
          if (e.failedIndex === 1 && isNoNode(e)) {
            await this.ensureStructureOrRenewed();
            continue;
          }
          if (isNoNode(e) || isNodeExists(e)) return undefined; // consumed, or locked by someone else
          throw e;
        }
        if (isExpiry(e)) return undefined; // never sent in a live session: look again in the renewed one
        if (!isConnectionLoss(e)) throw e;
        owner = await lockOwner(this.client, this.id, lockPath);
        if (owner === undefined) continue; // the lock was not made: try again
      }
      if (owner === false || owner === undefined) return undefined; // someone else's lock, or ours already went with its session
      const held: Held = { name, path, priority, lockPath, sessionId: owner, data: new Uint8Array(0) };
      const data = await entryRead.then((r) => r.data, () => undefined);
      return data === undefined ? this.withData(held) : { ...held, data };
    }
  }

  /** Reads the entry's data under our lock; if it is gone (deleted by someone ignoring locks), unlocks. */
  private async withData(held: Held): Promise<Held | undefined> {
    try {
      const { data } = await retrying(this.client, () => this.client.getData(held.path));
      return { ...held, data };
    } catch (e) {
      if (!isNoNode(e) && !isExpiry(e)) throw e;
      void removeNode(this.client, { path: held.lockPath }, held.sessionId);
      return undefined;
    }
  }
}
