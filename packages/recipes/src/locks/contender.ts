/**
 * The queue algorithm every sequential-node lock shares (Curator's LockInternals, with its known gaps closed):
 *
 * 1. Protected create: `<dir>/_c_<uuid>-<marker>` EPHEMERAL_SEQUENTIAL, pipelined with getChildren(dir), so an
 *    uncontended acquire costs one round trip (the server answers one session's requests in order, so the
 *    listing already contains our node). A lost create reply is recovered by looking for our uuid; a found node
 *    is adopted only if its ephemeralOwner is our current session (CURATOR-498/604), else deleted and redone.
 * 2. Loop: sort the recognised children on the sequence only, decide (granted, or which node to wait for), and
 *    wait with a DATA watch on that node (getData, not exists: no watch is left on a vanished node, CURATOR-107).
 *    If the node is already gone (NoNode) we loop at once, so a deletion between getChildren and the watch call
 *    cannot be missed (ZK WriteLock's lost wakeup, pitfall 4).
 * 3. On timeout, abort or any error our node is removed without the caller's signal (cleanup.ts).
 */
import { basename, joinPath } from '@zkts/protocol';

import { LockLostError } from '../errors.js';
import {
  checkpoint, childrenAfterSync, childrenOrEmpty, ensureDir, indexOfName, isConnectionLoss, isLive, isNoNode, protectedPrefix, removeNode,
  removeSoon, retrying, sortContenders, within, type Contender, type Data, type MarkerTable, type RecipeClient,
  type Scope, type Stat, type TestHooks, type WatchEvent,
} from '../internal/index.js';
import type { Decision } from './lock-rule.js';
import { restarts, type Attempt } from './lock-state.js';
import type { WaitProgress } from './lock-trace.js';

/** Counters a test (or a curious operator) can read to check herd-freedom. */
export interface LockStats {
  /** getChildren calls made while waiting (the first, pipelined one included). */
  listings: number;
  /** Watches set on a predecessor. */
  watches: number;
  /** Times a set watch fired and woke this contender. */
  wakeups: number;
  /** Acquires that started over in a renewed session after theirs expired while they waited. */
  restarts: number;
}

export function newStats(): LockStats {
  return { listings: 0, watches: 0, wakeups: 0, restarts: 0 };
}

export interface ContenderSpec {
  readonly client: RecipeClient;
  readonly dir: string;
  /** Marker placed before the sequence, e.g. `lock-` or `__WRIT__`. */
  readonly marker: string;
  /** Names recognised as contenders in this directory. */
  readonly markers: MarkerTable;
  readonly decide: (sorted: readonly Contender[], ourIndex: number) => Decision;
  readonly data: Data;
  /** How a uuid becomes our nodes' prefix. Default Curator's protection (`_c_<uuid>-`); kazoo's locks: the bare hex. */
  readonly prefix?: ((uuid: string) => string) | undefined;
  readonly hooks?: TestHooks | undefined;
  readonly stats?: LockStats | undefined;
  /** Told where a traced wait stands (lock-trace.ts); undefined when nobody listens. */
  readonly progress?: WaitProgress | undefined;
  /** The recipe object whose close() waits for removals this contender leaves running (cleanup.ts settleRemovals). */
  readonly owner?: object | undefined;
  readonly what: string;
}

/** How every contender node is created (one options record for all of them). */
const CONTENDER_NODE = { mode: 'ephemeral-sequential' } as const;

const ignore = (): void => undefined;

/** A node of ours that holds (or held) a place in the queue. */
export interface Entry {
  readonly path: string;
  readonly name: string;
  readonly stat: Stat;
  /** The session that owns the node (its ephemeralOwner). */
  readonly sessionId: bigint;
  /**
   * Set when a create of this enqueue had an unknown outcome: a duplicate with our uuid may still land, so the
   * queue is always listed before a grant, and the release sweeps our uuid (see sweepPrefix).
   */
  readonly uncertain?: { readonly dir: string; readonly prefix: string };
}

/**
 * The listing that came with our create, and the decision taken on it (see contend), until awaitTurn takes
 * them out: a waiter must not pin a listing while it waits.
 */
export interface FirstListing {
  children: string[] | undefined;
  decision: Decision | undefined;
}

/** Creates our contender node and returns it together with the pipelined listing, if there was one. */
export async function enqueue(spec: ContenderSpec, scope: Scope): Promise<{ entry: Entry } & FirstListing> {
  const { client, dir } = spec;
  // One uuid for every attempt of this enqueue (as Curator keeps its protected id across retries): a create
  // that lands late, after we gave it up for lost, still carries it, so awaitTurn can recognise and remove it.
  const prefix = (spec.prefix ?? protectedPrefix)(globalThis.crypto.randomUUID());
  let uncertain = false;
  for (;;) {
    checkpoint(scope);
    const createP = client.create(joinPath(dir, `${prefix}${spec.marker}`), spec.data, CONTENDER_NODE);
    const childrenP = client.getChildren(dir);
    childrenP.catch(ignore); // only read after the create succeeded
    let created: { path: string; stat: Stat };
    try {
      created = await within(scope, createP);
    } catch (e) {
      if (isNoNode(e)) {
        await ensureDir(client, dir);
        continue;
      }
      if (isConnectionLoss(e)) {
        uncertain = true;
        const adopted = await recoverCreate(client, dir, prefix);
        if (adopted !== undefined) {
          spec.progress?.enqueued(adopted.path, adopted.sessionId);
          return { entry: { ...adopted, uncertain: { dir, prefix } }, children: undefined, decision: undefined };
        }
        continue;
      }
      // Abort, timeout or a failure with the create possibly still in flight: remove whatever it produces.
      await removeSoon(client, { dir, prefix, create: createP }, undefined, spec.owner);
      throw e;
    }
    const { path, stat } = created;
    const entry: Entry = uncertain
      ? { path, name: basename(path), stat, sessionId: stat.ephemeralOwner, uncertain: { dir, prefix } }
      : { path, name: basename(path), stat, sessionId: stat.ephemeralOwner };
    spec.progress?.enqueued(entry.path, entry.sessionId);
    let children: string[] | undefined;
    try {
      children = (await childrenP).children;
      if (spec.stats !== undefined) spec.stats.listings++;
    } catch {
      children = undefined; // the loop lists again
    }
    return { entry, children, decision: undefined };
  }
}

/**
 * After a create whose reply was lost: find our node by its prefix. Adopt it only if our current session owns
 * it; a node owned by an older session is deleted (it is dying anyway, but a follower may still list it).
 */
async function recoverCreate(client: RecipeClient, dir: string, prefix: string): Promise<Entry | undefined> {
  await client.connected();
  const found = (await childrenAfterSync(client, dir)).find((c) => c.startsWith(prefix));
  if (found === undefined) return undefined;
  const path = joinPath(dir, found);
  const stat = await retrying(client, () => client.exists(path));
  if (stat === null) return undefined;
  if (stat.ephemeralOwner === client.sessionId) return { path, name: found, stat, sessionId: stat.ephemeralOwner };
  await removeSoon(client, { path });
  return undefined;
}

/**
 * Sorts one listing and decides our turn, synchronously, so that neither the listing nor the sorted contenders
 * stay reachable from the waiting async frame; only the decision (one child name) is kept.
 */
function decideTurn(spec: ContenderSpec, entry: Entry, children: readonly string[]): Decision {
  const sorted = sortContenders(children, spec.markers);
  removeLateDuplicates(spec.client, spec.dir, sorted, entry);
  const ourIndex = indexOfName(sorted, entry.name);
  if (ourIndex < 0) throw new LockLostError(`${spec.what}: our contender node ${entry.path} vanished`);
  spec.progress?.moved(ourIndex);
  return spec.decide(sorted, ourIndex);
}

/**
 * Waits until `entry` is granted. Returns true when granted, false for a non-blocking attempt that is not
 * granted at once. The caller removes the node when this throws or returns false.
 */
export async function awaitTurn(spec: ContenderSpec, entry: Entry, first: FirstListing, attempt: Attempt): Promise<boolean> {
  const { client, dir } = spec;
  const { scope } = attempt;
  // Take the first listing out of the caller's hands: a waiter must not pin a listing while it waits (with
  // 1,000 waiters, each pinning one listing of 1,000 names grows memory with the square of the queue).
  let children = first.children;
  let decided = first.decision;
  first.children = undefined;
  first.decision = undefined;
  for (;;) {
    if (client.sessionId !== entry.sessionId) throw new LockLostError(`${spec.what}: the session that owned ${entry.path} is gone`);
    if (children === undefined) {
      checkpoint(scope);
      children = await within(scope, childrenOrEmpty(client, dir));
      if (spec.stats !== undefined) spec.stats.listings++;
    }
    const decision = decided ?? decideTurn(spec, entry, children);
    decided = undefined;
    if (decision.granted) return true;
    if (!attempt.blocking) return false;
    await spec.hooks?.afterGetChildren?.({ children, watch: decision.watch });
    children = undefined;
    const watched = joinPath(dir, decision.watch);
    let watch: Promise<WatchEvent> | undefined;
    try {
      watch = (await within(scope, client.getData(watched, { watch: true }))).watch;
      if (spec.stats !== undefined) spec.stats.watches++;
    } catch (e) {
      if (isNoNode(e)) continue; // already gone: look again right away
      if (isConnectionLoss(e)) {
        await client.connected();
        continue;
      }
      throw e;
    }
    if (watch === undefined) continue;
    let event: unknown;
    try {
      event = await within(scope, watch);
    } catch (e) {
      // Giving up (timeout, abort, session): remove our watch, and only ours: another watcher of this session on
      // the same node (another recipe, another waiter) keeps its own, and the server's goes with the last one.
      if (isLive(client.state)) void client.removeWatcher(watched, watch, 'data').catch(() => undefined);
      throw e;
    }
    if (spec.stats !== undefined) spec.stats.wakeups++;
    // The only node blocking us is gone: granted without listing again (lock-rule.ts, `lastBlocker`). Not after
    // an uncertain create: a late duplicate of ours could sit in the queue, so list and remove it first.
    const fast = decision.lastBlocker && entry.uncertain === undefined;
    if (fast && isDeletion(event) && client.sessionId === entry.sessionId) {
      spec.progress?.advanced();
      return true;
    }
  }
}

/**
 * A node with our uuid that is not our entry can only be a create we gave up for lost that landed after all:
 * remove it, or it would sit in the queue (and block everyone behind it) until our session ends.
 */
export function removeLateDuplicates(client: RecipeClient, dir: string, sorted: readonly Contender[], entry: Entry): void {
  const ours = sorted.find((c) => c.name === entry.name);
  if (ours === undefined) return;
  for (const c of sorted) {
    if (c.prefix === ours.prefix && c.name !== entry.name) void removeNode(client, { path: joinPath(dir, c.name) }, entry.sessionId);
  }
}

/** Removes every node carrying our uuid (after an uncertain enqueue, at release). */
export async function sweepPrefix(client: RecipeClient, where: { readonly dir: string; readonly prefix: string }, sessionId: bigint): Promise<void> {
  try {
    const children = await childrenAfterSync(client, where.dir);
    await Promise.all(children.filter((c) => c.startsWith(where.prefix)).map((c) => removeNode(client, { path: joinPath(where.dir, c) }, sessionId)));
  } catch {
    // the session is gone: nothing of ours is left
  }
}

function isDeletion(event: unknown): boolean {
  return typeof event === 'object' && event !== null && (event as { type?: unknown }).type === 'deleted';
}

/**
 * Enqueue + wait, removing our node on every failure path. Returns undefined for a try that was not granted.
 * An attempt whose session expires while it waits starts over in the renewed session when its policy says so
 * (lock-state.ts `restarts`): a new node, at the back of the queue.
 *
 * The listing that came with the create is decided here, synchronously: an uncontended acquire is granted on
 * it without entering awaitTurn's wait loop (one async step fewer on every uncontended acquire).
 */
export async function contend(spec: ContenderSpec, attempt: Attempt): Promise<Entry | undefined> {
  for (;;) {
    let owner: bigint | undefined;
    try {
      const enqueued = await enqueue(spec, attempt.scope);
      const { entry } = enqueued;
      owner = entry.sessionId;
      let granted = false;
      try {
        if (enqueued.children !== undefined && spec.client.sessionId === entry.sessionId) {
          enqueued.decision = decideTurn(spec, entry, enqueued.children);
        }
        if (enqueued.decision?.granted === true) {
          enqueued.children = undefined;
          granted = true;
        } else {
          granted = await awaitTurn(spec, entry, enqueued, attempt);
        }
      } finally {
        if (!granted) {
          await removeSoon(spec.client, { path: entry.path }, entry.sessionId);
          if (entry.uncertain !== undefined) void sweepPrefix(spec.client, entry.uncertain, entry.sessionId);
        }
      }
      return granted ? entry : undefined;
    } catch (e) {
      if (!restarts(attempt, e, spec.client, owner)) throw e;
      if (spec.stats !== undefined) spec.stats.restarts++;
    }
  }
}
