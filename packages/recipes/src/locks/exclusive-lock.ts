/**
 * The single-node lock: whoever creates `<path>/lock` (EPHEMERAL) holds it; the others wait with a data watch on
 * that node and race to create it when it goes. Not fair and every waiter wakes on each release (a herd), but
 * the holder is visible to anyone: the node data names the owner, so `isLocked()`/`owner()` need one read.
 * Prefer Mutex for contended locks; use this where "who holds it" must be cheap to ask.
 */
import { joinPath, systemClock, type ACL, type Clock } from '@zkts/protocol';

import { LockBusyError } from '../errors.js';
import {
  aclRule, lostOnFor, withAcl,
  checkClientAndPath, checkOptions, checkpoint, checkWait, ensureDir, rules, type OptionRules, isConnectionLoss, isNodeExists, isNoNode, lockWait, openScope, removeNode, retrying, utf8, within,
  type LockWaitTrace, type RecipeClient, type Stat, type WaitOptions,
} from '../internal/index.js';
import { EXPIRY_POLICIES, Hold, LockHandleImpl, LOST_ON, type ExpiryPolicy, type LockHandle, type LostOn } from './lock-handle.js';
import { IDLE, restarts, type Attempt, type LockState } from './lock-state.js';
import { waitTrace, type TracedAs } from './lock-trace.js';

const TRACED: TracedAs = { recipe: 'ExclusiveLock', kind: 'exclusive' };

/** Options of an ExclusiveLock. */
export interface ExclusiveLockOptions {
  /** Who we are, stored in the lock node. Default: a random id. */
  id?: string;
  /** When the handle's `lost` fires. Default: the client's recipeErrorPolicy, else 'expired'. */
  lostOn?: LostOn;
  /** The ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  acl?: ACL[];
  /** What an acquire() still waiting when its session expires does. Default 'restart' (ExpiryPolicy). */
  onExpiry?: ExpiryPolicy;
  /** Time source for `timeout` (default: the system clock); tests pass a manual one. */
  clock?: Clock;
}

const OPTION_RULES: OptionRules<ExclusiveLockOptions> = {
  id: rules.nonEmptyString, lostOn: rules.oneOf(LOST_ON), onExpiry: rules.oneOf(EXPIRY_POLICIES), clock: rules.clock, acl: aclRule,
};

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
    const v = JSON.parse(utf8(data)) as unknown;
    if (typeof v === 'object' && v !== null && typeof (v as NodeData).id === 'string') return v as NodeData;
  } catch {
    // foreign data
  }
  return undefined;
}

/** A non-queueing lock on one ephemeral node: acquire creates it, waits for its deletion, and tries again. */
export class ExclusiveLock {
  readonly client: RecipeClient;
  readonly path: string;
  readonly node: string;
  readonly id: string;
  private readonly lostOn: LostOn;
  private readonly onExpiry: ExpiryPolicy;
  private readonly clock: Clock;
  private state: LockState<{ readonly hold: Hold }> = IDLE;

  constructor(client: RecipeClient, path: string, options: ExclusiveLockOptions = {}) {
    checkClientAndPath('ExclusiveLock', client, path);
    checkOptions('ExclusiveLock', options, OPTION_RULES);
    this.client = withAcl(client, options.acl);
    this.path = path;
    this.node = joinPath(path, 'lock');
    this.id = options.id ?? globalThis.crypto.randomUUID();
    this.lostOn = lostOnFor(client, options.lostOn, 'expired');
    this.onExpiry = options.onExpiry ?? 'restart';
    this.clock = options.clock ?? systemClock;
  }

  /** Whether this instance holds the lock now. */
  get isHeld(): boolean {
    return this.state.kind === 'held' && !this.state.hold.isLost;
  }

  /** Waits until the lock is ours (or the signal/timeout gives up) and resolves with its handle. */
  async acquire(options: WaitOptions = {}): Promise<LockHandle> {
    checkWait('ExclusiveLock.acquire', options);
    const scope = openScope(options, `exclusive lock ${this.path}`, this.clock);
    try {
      return (await this.traced({ blocking: true, scope, restartOnExpiry: this.onExpiry === 'restart' })) as LockHandle;
    } finally {
      scope?.dispose();
    }
  }

  /** Takes the lock if it is free now; null when someone holds it. */
  async tryAcquire(): Promise<LockHandle | null> {
    return (await this.traced({ blocking: false, scope: null })) ?? null;
  }

  /** Whether anyone holds the lock now. */
  async isLocked(): Promise<boolean> {
    return (await retrying(this.client, () => this.client.exists(this.node))) !== null;
  }

  /** The holder, or null when free. */
  async owner(): Promise<LockOwner | null> {
    try {
      const { data, stat } = await retrying(this.client, () => this.client.getData(this.node));
      return { id: parse(data)?.id ?? utf8(data), node: this.node, sessionId: stat.ephemeralOwner, fencingToken: stat.czxid };
    } catch (e) {
      if (isNoNode(e)) return null;
      throw e;
    }
  }

  /**
   * run() as one `zkts:lock.wait` trace when somebody listens (its requests run in the trace's context), then
   * the hold's trace. There is no queue: the position is 0 once the node is ours.
   */
  private async traced(attempt: Attempt): Promise<LockHandle | undefined> {
    const trace = waitTrace(TRACED, this.path, this.client.sessionId);
    const handle = await (trace === undefined ? this.run(attempt) : lockWait.tracePromise(() => this.run(attempt, trace), trace));
    if (handle !== undefined && this.state.kind === 'held') this.state.hold.beginTrace(TRACED, this.path, trace);
    return handle;
  }

  private async run(attempt: Attempt, trace?: LockWaitTrace): Promise<LockHandle | undefined> {
    if (this.state.kind === 'waiting') throw new LockBusyError(`${this.path}: an acquire of this instance is already in progress`);
    if (this.isHeld) throw new LockBusyError(`${this.path}: this instance already holds the lock`);
    const releasing = this.state.kind === 'releasing' ? this.state.done : undefined;
    const waiting = { kind: 'waiting' } as const;
    this.state = waiting;
    try {
      if (releasing !== undefined) await releasing;
      const stat = await this.obtainAcrossSessions(attempt);
      if (stat === undefined) return undefined;
      const hold = new Hold(this.client, this.node, stat.czxid, stat.ephemeralOwner, this.lostOn);
      this.state = { kind: 'held', hold };
      if (trace !== undefined) {
        trace.node = this.node;
        trace.sessionId = stat.ephemeralOwner;
        trace.fencingToken = stat.czxid;
        trace.queuePosition = 0;
      }
      return new LockHandleImpl(hold, () => this.giveBack(hold));
    } finally {
      if (this.state === waiting) this.state = IDLE;
    }
  }

  private async giveBack(hold: Hold): Promise<void> {
    hold.end();
    // Delete only the node of THIS hold: if ours vanished and another session created the lock since, leave it.
    const done = retrying(this.client, () => this.client.exists(hold.node)).then(
      (stat) => (stat?.czxid === hold.fencingToken ? removeNode(this.client, { path: hold.node }, hold.sessionId) : undefined),
      () => undefined,
    );
    const releasing = { kind: 'releasing', done } as const;
    if (this.state.kind === 'held' && this.state.hold === hold) this.state = releasing;
    try {
      await done;
    } finally {
      if (this.state === releasing) this.state = IDLE;
      hold.trace?.released();
    }
  }

  /** obtain(), started over in a renewed session when the attempt's policy says so (lock-state.ts `restarts`). */
  private async obtainAcrossSessions(attempt: Attempt): Promise<Stat | undefined> {
    for (;;) {
      try {
        return await this.obtain(attempt);
      } catch (e) {
        if (!restarts(attempt, e, this.client, undefined)) throw e;
      }
    }
  }

  private async obtain({ blocking, scope }: Attempt): Promise<Stat | undefined> {
    const { client } = this;
    const token = globalThis.crypto.randomUUID();
    const body = JSON.stringify({ id: this.id, token } satisfies NodeData);
    for (;;) {
      checkpoint(scope);
      const createP = client.create(this.node, body, { mode: 'ephemeral' });
      try {
        return (await within(scope, createP)).stat;
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
        if (isConnectionLoss(e)) await within(scope, client.connected());
      }
      // The node exists (or may): is it ours (lost reply), or someone else's to wait for?
      let watch: Promise<unknown> | undefined;
      try {
        const r = await within(scope, retrying(client, () => client.getData(this.node, { watch: true })));
        if (parse(r.data)?.token === token && r.stat.ephemeralOwner === client.sessionId) return r.stat;
        watch = r.watch;
      } catch (e) {
        if (isNoNode(e)) continue;
        throw e;
      }
      if (!blocking) return undefined;
      if (watch !== undefined) await within(scope, watch);
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
