/**
 * The single-node lock: whoever creates `<path>/lock` (EPHEMERAL) holds it; the others wait with a data watch on
 * that node and race to create it when it goes. Not fair and every waiter wakes on each release (a herd), but
 * the holder is visible to anyone: the node data names the owner, so `isLocked()`/`owner()` need one read.
 * Prefer Mutex for contended locks; use this where "who holds it" must be cheap to ask.
 */
import { removeNode } from './cleanup.js';
import { LockBusyError } from './errors.js';
import { Hold, LeaseHandle, type Lease, type LostOn } from './lease.js';
import { checkpoint, deadlineFrom, raceWith, type Deadline, type WaitOptions } from './wait.js';
import { child, ensureDir, isConnectionLoss, isNoNode, isNodeExists, retrying, type RecipeClient, type Stat } from './zk.js';

/** Options of an ExclusiveLock. */
export interface ExclusiveLockOptions {
  /** Who we are, stored in the lock node. Default: a random id. */
  id?: string;
  lostOn?: LostOn;
}

/** Who holds an ExclusiveLock, as its node's data says. */
export interface LockOwner {
  id: string;
  node: string;
  sessionId: bigint;
  fencingToken: bigint;
}

interface NodeData {
  id: string;
  /** Random per acquire: tells our node from another instance's in the same session after a lost reply. */
  token: string;
}

function parse(data: Uint8Array): NodeData | undefined {
  try {
    const v = JSON.parse(new TextDecoder().decode(data)) as unknown;
    if (typeof v === 'object' && v !== null && typeof (v as NodeData).id === 'string') return v as NodeData;
  } catch {
    // foreign data
  }
  return undefined;
}

/** A lock that is one ephemeral node at `<path>/lock`. Simple and unfair: every waiter wakes on a release and races to create it. Prefer Mutex when waiters queue. */
export class ExclusiveLock {
  readonly client: RecipeClient;
  readonly path: string;
  readonly node: string;
  readonly id: string;
  private readonly lostOn: LostOn;
  private hold: Hold | undefined;
  private pending = false;
  private releasing: Promise<void> | undefined;

  constructor(client: RecipeClient, path: string, options: ExclusiveLockOptions = {}) {
    this.client = client;
    this.path = path;
    this.node = child(path, 'lock');
    this.id = options.id ?? globalThis.crypto.randomUUID();
    this.lostOn = options.lostOn ?? 'expired';
  }

  /** Whether this instance holds the lock now. */
  get isHeld(): boolean {
    return this.hold !== undefined && !this.hold.isLost;
  }

  /** Waits for the lock (bounded by `timeout`/`signal`) and resolves with its lease. */
  acquire(options: WaitOptions = {}): Promise<Lease> {
    return this.run(true, options.signal, deadlineFrom(options.timeout)) as Promise<Lease>;
  }

  /** Takes the lock if it is free now; `null` if someone holds it. */
  async tryAcquire(): Promise<Lease | null> {
    return (await this.run(false, undefined, undefined)) ?? null;
  }

  /** Whether anyone holds the lock now. */
  async isLocked(): Promise<boolean> {
    return (await retrying(this.client, () => this.client.exists(this.node))) !== null;
  }

  /** The holder, or null when free. */
  async owner(): Promise<LockOwner | null> {
    try {
      const { data, stat } = await retrying(this.client, () => this.client.getData(this.node));
      return { id: parse(data)?.id ?? new TextDecoder().decode(data), node: this.node, sessionId: stat.ephemeralOwner, fencingToken: stat.czxid };
    } catch (e) {
      if (isNoNode(e)) return null;
      throw e;
    }
  }

  private async run(wait: boolean, signal: AbortSignal | undefined, deadline: Deadline): Promise<Lease | undefined> {
    if (this.pending) throw new LockBusyError(`${this.path}: an acquire of this instance is already in progress`);
    if (this.isHeld) throw new LockBusyError(`${this.path}: this instance already holds the lock`);
    this.pending = true;
    try {
      if (this.releasing !== undefined) await this.releasing;
      const stat = await this.obtain(wait, signal, deadline);
      if (stat === undefined) return undefined;
      const hold = new Hold(this.client, this.node, stat.czxid, stat.ephemeralOwner, this.lostOn);
      this.hold = hold;
      return new LeaseHandle(hold, () => this.giveBack(hold));
    } finally {
      this.pending = false;
    }
  }

  private async giveBack(hold: Hold): Promise<void> {
    hold.end();
    if (this.hold === hold) this.hold = undefined;
    // Delete only the node of THIS hold: if ours vanished and another session created the lock since, leave it.
    const job = retrying(this.client, () => this.client.exists(hold.node)).then(
      (stat) => (stat?.czxid === hold.fencingToken ? removeNode(this.client, { path: hold.node }, hold.sessionId) : undefined),
      () => undefined,
    );
    this.releasing = job;
    await job;
  }

  private async obtain(wait: boolean, signal: AbortSignal | undefined, deadline: Deadline): Promise<Stat | undefined> {
    const { client } = this;
    const token = globalThis.crypto.randomUUID();
    const body = JSON.stringify({ id: this.id, token } satisfies NodeData);
    const what = `exclusive lock ${this.path}`;
    for (;;) {
      checkpoint(signal, deadline, what);
      const createP = client.create(this.node, body, { mode: 'ephemeral' });
      try {
        return (await raceWith(createP, signal, deadline, what)).stat;
      } catch (e) {
        if (isNoNode(e)) {
          await ensureDir(client, this.path);
          continue;
        }
        if (!isNodeExists(e) && !isConnectionLoss(e)) {
          // Abort/timeout with the create in flight: if it lands, it is ours to remove.
          void createP.then((r) => removeNode(client, { path: r.path }, r.stat.ephemeralOwner), () => this.removeIfOurs(token));
          throw e;
        }
        if (isConnectionLoss(e)) await raceWith(client.connected(), signal, deadline, what);
      }
      // The node exists (or may): is it ours (lost reply), or someone else's to wait for?
      let watch: Promise<unknown> | undefined;
      try {
        const r = await raceWith(retrying(client, () => client.getData(this.node, { watch: true })), signal, deadline, what);
        if (parse(r.data)?.token === token && r.stat.ephemeralOwner === client.sessionId) return r.stat;
        watch = r.watch;
      } catch (e) {
        if (isNoNode(e)) continue;
        throw e;
      }
      if (!wait) return undefined;
      if (watch !== undefined) await raceWith(watch, signal, deadline, what);
    }
  }

  private async removeIfOurs(token: string): Promise<void> {
    try {
      await this.client.connected();
      const { data, stat } = await retrying(this.client, () => this.client.getData(this.node));
      if (parse(data)?.token === token) await removeNode(this.client, { path: this.node }, stat.ephemeralOwner);
    } catch {
      // gone, or the session is: nothing of ours is left
    }
  }
}
