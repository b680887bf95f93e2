/**
 * A counting semaphore with Curator InterProcessSemaphoreV2's layout and algorithm: an inner Mutex at
 * `<path>/locks` admits one acquirer at a time; it creates its lease nodes under `<path>/leases` and, still
 * holding the mutex, waits (children watch) until the lease count fits `maxLeases`. Only the mutex holder
 * watches, so a freed lease wakes one acquirer, in FIFO order. Several leases are all-or-nothing: any failure
 * returns every lease created so far (CURATOR-315/462). `maxLeases` is a convention every participant must
 * share, as in Curator.
 *
 * `layout: 'kazoo'` writes kazoo's Semaphore instead (kazoo/recipe/lock.py): the gate is a kazoo Lock at
 * `<path>-__lock__` (UuidHexLock), the leases are EPHEMERAL `<path>/<uuidhex>` nodes (data: the `data` option,
 * kazoo's identifier) and every child of `<path>` counts as a lease. kazoo's algorithm differs too: the gate
 * holder creates its leases only once they fit, rather than creating them and waiting for the count to fall;
 * since every creator holds the one gate, the count it read cannot grow before it creates.
 */
import { joinPath, systemClock, type ACL, type Clock } from '@zkts/protocol';

import { LockLostError, RecipeArgumentError } from '../errors.js';
import {
  aclRule, lostOnFor, withAcl,
  checkArg, checkClientAndPath, checkOptions, checkpoint, checkWait, childrenOrEmpty, isConnectionLoss, isNodeExists, kazooPrefix, rules, type OptionRules, ensureDir, isServerCode, nested, openScope, readNodes, removeNode, removeSoon, retrying,
  traced, lockHold, lockWait, utf8, within, type Data, type LockWaitTrace, type RecipeClient, type Scope, type WaitOptions,
} from '../internal/index.js';
import { enqueue, sweepPrefix, type ContenderSpec, type Entry } from './contender.js';
import { EXPIRY_POLICIES, Hold, LOST_ON, type ExpiryPolicy, type LostOn } from './lock-handle.js';
import { restarts } from './lock-state.js';
import { HoldTrace, quiet, waitTrace, type TracedAs } from './lock-trace.js';
import { Mutex } from './mutex.js';
import { UuidHexLock } from './uuid-hex-lock.js';

const TRACED: TracedAs = { recipe: 'Semaphore', kind: 'semaphore' };

/** Options of a Semaphore. */
export interface SemaphoreOptions {
  data?: Data;
  /** When a lease's `lost` fires. Default: the client's recipeErrorPolicy, else 'expired'. */
  lostOn?: LostOn;
  /** The ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  acl?: ACL[];
  /** What an acquire() still waiting when its session expires does. Default 'restart' (ExpiryPolicy). */
  onExpiry?: ExpiryPolicy;
  /** Time source for `timeout` (default: the system clock); tests pass a manual one. */
  clock?: Clock;
  /** Whose nodes to write: 'curator' (default; InterProcessSemaphoreV2) or 'kazoo' (kazoo's Semaphore). */
  layout?: SemaphoreLayout;
}

/** The node layouts a Semaphore can share: Curator's InterProcessSemaphoreV2 or kazoo's Semaphore. */
export type SemaphoreLayout = 'curator' | 'kazoo';

const LAYOUTS: readonly SemaphoreLayout[] = ['curator', 'kazoo'];

/** Leases taken from a Semaphore, returned together. */
export interface SemaphoreLease extends AsyncDisposable {
  /** Full paths of our lease nodes. */
  readonly nodes: readonly string[];
  /** Fires when the session is gone (or suspended, by policy): the leases can no longer be trusted. */
  readonly lost: AbortSignal;
  readonly released: boolean;
  /** Returns every lease of this acquire (guaranteed delete). Idempotent. */
  release(): Promise<void>;
}

const OPTION_RULES: OptionRules<SemaphoreOptions> = {
  data: rules.data, lostOn: rules.oneOf(LOST_ON), onExpiry: rules.oneOf(EXPIRY_POLICIES), clock: rules.clock, acl: aclRule,
  layout: rules.oneOf(LAYOUTS),
};

/** Leases are counted in sequential nodes: more than a signed 32-bit count cannot be told apart. */
const MAX_LEASES = rules.integer(1, 2 ** 31 - 1);

const LEASE_MARKERS = { 'lease-': 'write' } as const;

/**
 * A counting semaphore over `maxLeases` leases, with Curator `InterProcessSemaphoreV2`'s layout and algorithm: at
 * most `maxLeases` leases are out at once, whoever holds them. `acquire(qty, { timeout, signal })` is
 * all-or-nothing and resolves with a {@link SemaphoreLease} to release (or `await using`); `timeout: 0` means
 * "do not wait".
 *
 * @example
 * ```ts
 * import { connect } from '@zkts/protocol';
 * import { Semaphore } from '@zkts/recipes';
 *
 * await using zk = await connect(process.env.ZKTS_SERVER ?? '127.0.0.1:2181');
 * const pool = new Semaphore(zk, '/example/pool', 2);
 * const first = await pool.acquire();
 * const second = await new Semaphore(zk, '/example/pool', 2).acquire();
 * // Both leases are out: a third caller that will not wait is refused.
 * const third = await new Semaphore(zk, '/example/pool', 2).acquire(1, { timeout: 0 }).catch((err) => err.code);
 * console.log('third:', third, 'held:', (await pool.leaseHolders()).length);
 * await first.release();
 * await second.release();
 * console.log('held:', (await pool.leaseHolders()).length);
 * await zk.removeRecursive('/example');
 * // third: TIMEOUT held: 2
 * // held: 0
 * ```
 */
export class Semaphore {
  readonly client: RecipeClient;
  readonly path: string;
  readonly maxLeases: number;
  private readonly options: SemaphoreOptions;
  private readonly leasesDir: string;
  /** The gate's lock path: Curator's `<path>/locks`, kazoo's `<path>-__lock__`. */
  private readonly gatePath: string;
  private readonly kazoo: boolean;

  constructor(client: RecipeClient, path: string, maxLeases: number, options: SemaphoreOptions = {}) {
    checkClientAndPath('Semaphore', client, path);
    checkArg('Semaphore', 'maxLeases', maxLeases, MAX_LEASES);
    checkOptions('Semaphore', options, OPTION_RULES);
    this.client = withAcl(client, options.acl);
    this.path = path;
    this.maxLeases = maxLeases;
    this.options = options;
    this.kazoo = options.layout === 'kazoo';
    this.leasesDir = this.kazoo ? path : joinPath(path, 'leases');
    this.gatePath = this.kazoo ? `${path}-__lock__` : joinPath(path, 'locks');
  }

  /** Takes `qty` leases, all or none. Rejects with TimeoutError / AbortError having returned any it created. */
  async acquire(qty = 1, options: WaitOptions = {}): Promise<SemaphoreLease> {
    checkArg('Semaphore.acquire', 'qty', qty, rules.integer(1, this.maxLeases));
    checkWait('Semaphore.acquire', options);
    // One scope for the whole call: the inner mutex, the lease creates and the wait share its deadline.
    const scope = openScope(options, `semaphore ${this.path}`, this.options.clock ?? systemClock);
    // One wait trace for the whole call, the gate mutex's queue included (its place is ours; it publishes nothing).
    const trace = waitTrace(TRACED, this.path, this.client.sessionId);
    try {
      const leases = await traced(lockWait, trace, () => this.acquireAcrossSessions(qty, scope, trace));
      leases.beginTrace(this.path, trace);
      return leases;
    } finally {
      scope?.dispose();
    }
  }

  private async acquireAcrossSessions(qty: number, scope: Scope, trace: LockWaitTrace | undefined): Promise<Leases> {
    const attempt = { blocking: true, scope, restartOnExpiry: (this.options.onExpiry ?? 'restart') === 'restart' };
    for (;;) {
      const mine: Entry[] = [];
      try {
        return await this.acquireWithin(qty, scope, mine, trace);
      } catch (e) {
        // Our session expired while we waited: start over in the renewed one (the leases went with it).
        if (!restarts(attempt, e, this.client, mine[0]?.sessionId)) throw e;
      }
    }
  }

  private async acquireWithin(qty: number, scope: Scope, mine: Entry[], trace: LockWaitTrace | undefined): Promise<Leases> {
    // A fresh gate lock per call: concurrent acquires of one Semaphore object queue like separate processes.
    const onExpiry = this.options.onExpiry ?? 'restart';
    const inner = this.kazoo
      ? new UuidHexLock(this.client, this.gatePath, { onExpiry, data: this.options.data ?? '' })
      : new Mutex(this.client, this.gatePath, { onExpiry });
    quiet(inner, trace);
    const gate = await inner.acquire(nested(scope));
    // Holding the gate, we are at the head of the line: what is left is waiting for a free lease.
    if (trace !== undefined) trace.queuePosition = 0;
    try {
      const spec: ContenderSpec = {
        client: this.client, dir: this.leasesDir, marker: 'lease-', markers: LEASE_MARKERS,
        decide: () => ({ granted: true }), data: this.options.data ?? '', what: `semaphore ${this.path}`,
      };
      await this.checkMaxLeases();
      if (this.kazoo) await this.takeWhenRoom(qty, mine, scope);
      else for (let i = 0; i < qty; i++) mine.push((await enqueue(spec, scope)).entry);
      if (trace !== undefined && mine[0] !== undefined) {
        trace.node = mine[0].path;
        trace.sessionId = mine[0].sessionId;
      }
      if (!this.kazoo) await this.waitForRoom(mine, scope);
    } catch (e) {
      await Promise.all(mine.map((m) => removeSoon(this.client, { path: m.path }, m.sessionId)));
      for (const m of mine) if (m.uncertain !== undefined) void sweepPrefix(this.client, m.uncertain, m.sessionId);
      throw e;
    } finally {
      await gate.release();
    }
    return new Leases(this.client, mine, lostOnFor(this.client, this.options.lostOn, 'expired'));
  }

  /** The lease nodes currently held, with their data. */
  async leaseHolders(): Promise<{ node: string; data: string }[]> {
    const children = await childrenOrEmpty(this.client, this.leasesDir);
    const read = await readNodes(this.client, children.map((c) => joinPath(this.leasesDir, c)));
    return read.map(({ path, data }) => ({ node: path, data: utf8(data) }));
  }

  /**
   * Participants must agree on maxLeases (Curator leaves that to convention; kazoo checks it). The first
   * acquirer records it in the semaphore node's data; a different value is rejected. Runs under the inner
   * mutex, so the record is not raced; the data resets with the container once the semaphore is idle.
   */
  private async checkMaxLeases(): Promise<void> {
    const { client } = this;
    await ensureDir(client, this.path);
    const { data, stat } = await retrying(client, () => client.getData(this.path));
    const recorded = utf8(data);
    if (recorded === '') {
      try {
        await retrying(client, () => client.setData(this.path, String(this.maxLeases), { version: stat.version }));
      } catch (e) {
        if (!isServerCode(e, 'BAD_VERSION')) throw e;
        return this.checkMaxLeases();
      }
      return;
    }
    if (recorded !== String(this.maxLeases)) {
      throw new RecipeArgumentError(`semaphore ${this.path} is used with maxLeases ${recorded}, not ${this.maxLeases}`);
    }
  }

  private takeWhenRoom(qty: number, mine: Entry[], scope: Scope): Promise<void> {
    return takeKazooLeases({ client: this.client, dir: this.leasesDir, maxLeases: this.maxLeases, data: this.options.data ?? '' }, qty, mine, scope);
  }

  private async waitForRoom(mine: readonly Entry[], scope: Scope): Promise<void> {
    const what = `semaphore ${this.path}`;
    for (;;) {
      checkpoint(scope);
      const r = await within(scope, retrying(this.client, () => this.client.getChildren(this.leasesDir, { watch: true })));
      const names = new Set(r.children);
      for (const m of mine) if (!names.has(m.name)) throw new LockLostError(`${what}: lease node ${m.path} vanished`);
      if (r.children.length <= this.maxLeases) return;
      if (r.watch !== undefined) await within(scope, r.watch);
    }
  }
}

/**
 * kazoo's step under the gate: list the leases (watching), create ours once `qty` more fit, else wait for a
 * change. Lease nodes are EPHEMERAL with fixed names, so a create whose reply was lost is settled by asking
 * whether the node exists and is our session's.
 */
async function takeKazooLeases(semaphore: { client: RecipeClient; dir: string; maxLeases: number; data: Data }, qty: number, mine: Entry[], scope: Scope): Promise<void> {
  const { client, dir } = semaphore;
  for (;;) {
    checkpoint(scope);
    const r = await within(scope, retrying(client, () => client.getChildren(dir, { watch: true })));
    if (r.children.length + qty <= semaphore.maxLeases) {
      for (let i = 0; i < qty; i++) mine.push(await createKazooLease(client, dir, semaphore.data, scope));
      return;
    }
    if (r.watch !== undefined) await within(scope, r.watch);
  }
}

async function createKazooLease(client: RecipeClient, dir: string, data: Data, scope: Scope): Promise<Entry> {
  const name = kazooPrefix(globalThis.crypto.randomUUID());
  const path = joinPath(dir, name);
  for (;;) {
    checkpoint(scope);
    try {
      const { stat } = await client.create(path, data, { mode: 'ephemeral' });
      return { path, name, stat, sessionId: stat.ephemeralOwner };
    } catch (e) {
      if (!isConnectionLoss(e) && !isNodeExists(e)) throw e;
      await within(scope, client.connected());
      const stat = await within(scope, retrying(client, () => client.exists(path)));
      if (stat === null) continue;
      if (stat.ephemeralOwner === client.sessionId) return { path, name, stat, sessionId: stat.ephemeralOwner };
      throw new LockLostError(`semaphore lease ${path} belongs to another session`);
    }
  }
}

class Leases implements SemaphoreLease {
  readonly nodes: readonly string[];
  private readonly client: RecipeClient;
  private readonly holds: Hold[];
  private readonly entries: readonly Entry[];
  private done: Promise<void> | undefined;
  private lostSignal: AbortSignal | undefined;
  /** The leases' one `zkts:lock.hold` trace: lost when any lease is, released when all are deleted. */
  private trace: HoldTrace | undefined;

  constructor(client: RecipeClient, entries: readonly Entry[], lostOn: LostOn) {
    this.client = client;
    this.nodes = entries.map((e) => e.path);
    this.entries = entries;
    this.holds = entries.map((e) => new Hold(client, e.path, e.stat.czxid, e.sessionId, lostOn));
  }

  get lost(): AbortSignal {
    this.lostSignal ??= AbortSignal.any(this.holds.map((h) => h.lost));
    return this.lostSignal;
  }

  get released(): boolean {
    return this.done !== undefined;
  }

  /** Begins the hold's trace when somebody listens (after the wait's asyncEnd); node: our first lease. */
  beginTrace(path: string, wait: LockWaitTrace | undefined): void {
    const first = this.holds[0];
    if (first === undefined || !lockHold.hasSubscribers) return;
    // No fencingToken: a semaphore's leases carry none.
    const trace = HoldTrace.begin(TRACED, path, { node: first.node, sessionId: first.sessionId }, wait);
    if (trace === undefined) return;
    this.trace = trace;
    for (const hold of this.holds) hold.whenLost((error) => trace.lost(error));
  }

  release(): Promise<void> {
    this.done ??= Promise.all(
      this.holds.map((h) => {
        h.end();
        return removeNode(this.client, { path: h.node }, h.sessionId);
      }),
    ).then(async () => {
      // A lease create whose reply was lost may have landed twice: sweep our uuids.
      for (const e of this.entries) if (e.uncertain !== undefined) await sweepPrefix(this.client, e.uncertain, e.sessionId);
    }).finally(() => this.trace?.released());
    return this.done;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.release();
  }
}
