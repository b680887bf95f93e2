/**
 * The handle-level behaviour shared by Mutex and both sides of ReadWriteLock: one instance is one contender;
 * reentrancy (optional) counts acquires of the same instance; release is guaranteed (retried across reconnects
 * until the node or the session is gone) and the instance stays "releasing" until then, so a new acquire can
 * never overlap a stale node of ours.
 */
import { removeNode } from './cleanup.js';
import { contend, newStats, sweepPrefix, type QueueSpec, type QueueStats, type TestHooks, type Entry } from './contender.js';
import { LockBusyError, LockNotHeldError } from './errors.js';
import { Hold, LeaseHandle, type Lease, type LostOn } from './lease.js';
import { sortContenders, type Contender, type ContenderKind, type Decision } from './names.js';
import { deadlineFrom, type Deadline, type WaitOptions } from './wait.js';
import { child, isNoNode, retrying, type Data, type RecipeClient } from './zk.js';

/** Options of Mutex, ReadLock and WriteLock. */
export interface LockOptions {
  /** Re-acquiring from the same instance while held increments a count (default false: rejects with LockBusyError). */
  reentrant?: boolean;
  /** Data stored in our contender node; `participants()` reports it. Default: empty. */
  data?: Data;
  /** When `lease.lost` fires. Default 'expired'. */
  lostOn?: LostOn;
  /** Internal, for tests only: see TestHooks. */
  testHooks?: TestHooks;
}

/** Anything MultiLock can hold. */
export interface Lockable {
  /** Waits for the lock and resolves with its lease. */
  acquire(options?: WaitOptions): Promise<Lease>;
}

/** One contender of a lock, in queue order. */
export interface Participant {
  /** Full path of the contender node. */
  node: string;
  sequence: number;
  kind: ContenderKind;
  /** The node's data as UTF-8 text (Curator writes the host address, zkts the `data` option). */
  data: string;
  /** The session owning the node. */
  ephemeralOwner: bigint;
  /** czxid of the node: its fencing token once granted. */
  czxid: bigint;
}

export abstract class QueueLock implements Lockable {
  readonly client: RecipeClient;
  readonly path: string;
  /** Herd-freedom counters for this instance (internal diagnostics). */
  readonly stats: QueueStats = newStats();
  protected readonly options: LockOptions;
  private hold: Hold | undefined;
  private handles: LeaseHandle[] = [];
  private pending = false;
  private releasing: Promise<void> | undefined;

  constructor(client: RecipeClient, path: string, options: LockOptions = {}) {
    this.client = client;
    this.path = path;
    this.options = options;
  }

  protected abstract readonly marker: string;
  protected abstract readonly markers: Readonly<Record<string, ContenderKind>>;
  protected abstract decide(sorted: readonly Contender[], ourIndex: number): Decision;
  /** See QueueSpec.sequentialOnly. */
  protected readonly sequentialOnly: boolean = false;

  /** True while this instance holds the lock and the hold has not been lost. */
  get isHeld(): boolean {
    return this.hold !== undefined && !this.hold.isLost;
  }

  /** Full path of the node of the current hold, if any. */
  protected get currentNode(): string | undefined {
    return this.hold?.node;
  }

  /** How many unreleased acquires this instance holds (0 or 1 unless reentrant). */
  get holdCount(): number {
    return this.hold?.count ?? 0;
  }

  /** Waits for the lock. Rejects with TimeoutError / AbortError (our node removed) or LockBusyError. */
  acquire(options: WaitOptions = {}): Promise<Lease> {
    return this.acquireInternal(true, options.signal, deadlineFrom(options.timeout)) as Promise<Lease>;
  }

  /** Takes the lock only if nobody is ahead of us; null otherwise (our node removed). */
  tryAcquire(): Promise<Lease | null> {
    return this.acquireInternal(false, undefined, undefined).then((l) => l ?? null);
  }

  /** Releases the most recent unreleased acquire of this instance; LockNotHeldError if there is none. */
  async release(): Promise<void> {
    const last = this.handles.at(-1);
    if (last === undefined) throw new LockNotHeldError(`${this.path}: release() without a held lock`);
    await last.release();
  }

  /** Contenders in queue order with their data. Foreign children are skipped. */
  async participants(): Promise<Participant[]> {
    const { children } = await retrying(this.client, () => this.client.getChildren(this.path)).catch((e: unknown) => {
      if (isNoNode(e)) return { children: [] as string[] };
      throw e;
    });
    const sorted = sortContenders(children, this.markers);
    const rows = await Promise.all(
      sorted.map(async (c) => {
        const node = child(this.path, c.name);
        try {
          const { data, stat } = await retrying(this.client, () => this.client.getData(node));
          const p: Participant = {
            node, sequence: c.sequence, kind: c.kind, data: new TextDecoder().decode(data),
            ephemeralOwner: stat.ephemeralOwner, czxid: stat.czxid,
          };
          return p;
        } catch (e) {
          if (isNoNode(e)) return undefined;
          throw e;
        }
      }),
    );
    return rows.filter((r): r is Participant => r !== undefined);
  }

  /** Who holds the lock now: every participant whose decision is "granted" (one writer, or a group of readers). */
  async holders(): Promise<Participant[]> {
    const ps = await this.participants();
    const sorted = sortContenders(ps.map((p) => p.node.slice(p.node.lastIndexOf('/') + 1)), this.markers);
    return ps.filter((_, i) => this.decide(sorted, i).granted);
  }

  protected spec(): QueueSpec {
    return {
      client: this.client, dir: this.path, marker: this.marker, markers: this.markers,
      decide: (s, i) => this.decide(s, i), data: this.options.data ?? '', hooks: this.options.testHooks,
      stats: this.stats, what: `lock ${this.path}`, sequentialOnly: this.sequentialOnly,
    };
  }

  /** Gets a granted node (or undefined for a failed try). Subclasses override for special paths (downgrade). */
  protected obtain(wait: boolean, signal: AbortSignal | undefined, deadline: Deadline): Promise<Entry | undefined> {
    return contend(this.spec(), wait, signal, deadline);
  }

  /** Checks before acquiring; subclasses add rules (upgrade rejection). */
  protected precheck(): void {}

  private async acquireInternal(wait: boolean, signal: AbortSignal | undefined, deadline: Deadline): Promise<Lease | undefined> {
    if (this.pending) throw new LockBusyError(`${this.path}: an acquire of this instance is already in progress`);
    if (this.hold !== undefined) {
      if (this.hold.isLost) {
        // The session took our node; drop the stale hold (its handles stay released-on-call).
        this.dropHold();
      } else if (this.options.reentrant === true) {
        this.hold.count++;
        return this.newHandle(this.hold);
      } else {
        throw new LockBusyError(`${this.path}: this non-reentrant instance already holds the lock`);
      }
    }
    this.precheck();
    this.pending = true;
    try {
      if (this.releasing !== undefined) await this.releasing;
      const entry = await this.obtain(wait, signal, deadline);
      if (entry === undefined) return undefined;
      this.hold = new Hold(this.client, entry.path, entry.stat.czxid, entry.sessionId, this.options.lostOn ?? 'expired');
      this.hold.sweep = entry.uncertain;
      return this.newHandle(this.hold);
    } finally {
      this.pending = false;
    }
  }

  private newHandle(hold: Hold): LeaseHandle {
    const handle = new LeaseHandle(hold, (h) => this.giveBack(hold, h));
    this.handles.push(handle);
    return handle;
  }

  private async giveBack(hold: Hold, handle: LeaseHandle): Promise<void> {
    this.handles = this.handles.filter((h) => h !== handle);
    hold.count--;
    if (hold.count > 0) return;
    hold.end();
    if (this.hold === hold) this.hold = undefined;
    const sweep = hold.sweep;
    const job = removeNode(this.client, { path: hold.node }, hold.sessionId).then(() =>
      sweep === undefined ? undefined : sweepPrefix(this.client, sweep, hold.sessionId),
    );
    this.releasing = job;
    try {
      await job;
    } finally {
      if (this.releasing === job) this.releasing = undefined;
    }
  }

  private dropHold(): void {
    const hold = this.hold;
    if (hold === undefined) return;
    hold.end();
    this.hold = undefined;
    this.handles = [];
    void removeNode(this.client, { path: hold.node }, hold.sessionId);
  }
}
