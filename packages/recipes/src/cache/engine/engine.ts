/**
 * The heart of the caches: turns watch notifications and reads into an always-converging view and its events.
 *
 * Notifications only say where to look (they carry no data, and no zxid); what goes into the view comes from
 * reads, each applied as a fact in wire order (sequencer.ts):
 *
 * - a node read present: added, or changed when its mzxid moved (an older or equal one changes nothing);
 * - a child list read (getChildren, atomic with its parent's pzxid): a child the view holds but the list lacks
 *   is gone, at the pzxid; in a full read, or in one-shot mode, the children it lacks are read;
 * - a node announced deleted: its parent's Stat is read, and unless the node was announced created again since
 *   that read went out, it is gone at the parent's pzxid (the last change to the child list, after the deletion);
 *   a parent that is gone too passes the question up. With one-shot watches the parent's child list is read.
 *
 * Reads made for a notification form a chain whose bound (order.ts) holds back the release of later events until
 * the chain is done, so events leave in zxid order. A full read (`walk`: the initial load, and the resync after a
 * reconnect, a renewal or a lost read, when news may have been missed) reads the root, the children of every node
 * that has any, and every child (in multiRead batches: reads.ts); it holds every event back until it is done,
 * then the view is in line again. How reads go out (chains, coalescing, the walk's window): scheduler.ts.
 */
import { ServerError, parentPath, type Stat, type WatchEvent } from '@zkts/protocol';

import { isConnectionLoss, isSessionGone, isUnimplemented } from '../../internal/index.js';
import type { NodeEvent } from '../types.js';
import { OrderBuffer } from './order.js';
import type { ChildrenRead, DataRead, Reads } from './reads.js';
import { Scheduler, type Ctx, type Walk, type WalkReason } from './scheduler.js';
import { TreeStore } from './store.js';

export type { WalkReason } from './scheduler.js';

export interface EngineSettings<T> {
  root: string;
  maxDepth: number;
  filter: ((path: string) => boolean) | undefined;
  reads: Reads;
  /** The data is kept as bytes (else as whatever `decode` makes of it, or not at all). */
  bytes: boolean;
  decode: (bytes: Uint8Array | undefined, path: string) => T;
  window: number;
  /** Released events, in zxid order. */
  deliver: (events: NodeEvent<T>[]) => void;
  /** A full read completed: the view is in line. */
  walked: (reason: WalkReason) => void;
  /** A read failed for a reason no reconnect will fix (no permission…), or the cache hit a bug. */
  onError: (path: string, error: unknown) => void;
  /** A read failed in a way a later full read can repair (a timeout…). */
  retryLater: () => void;
}

export class Engine<T> {
  readonly store: TreeStore<T>;
  private readonly s: EngineSettings<T>;
  /** Held events are merged per node past twice the view's size (and 10,000): bounded by what is cached. */
  private readonly order = new OrderBuffer<T>(() => Math.max(10_000, 2 * this.store.size));
  private readonly sched: Scheduler;
  /** Creations announced while absence checks were out: path → `seq.sent` at the announcement. */
  private readonly creations = new Map<string, number>();
  private checks = 0;
  /** The highest zxid in any Stat read so far (every one is ≤ the server's zxid at that reply). */
  private maxSeen = 0n;
  private walk: Walk | null = null;
  /**
   * Set when a read was lost (connection, session, timeout): what it stood for is unknown until a full read that
   * started after the loss completes, so nothing is released meanwhile. Holds the number of that full read.
   */
  private staleUntil = 0;
  private initialized = false;
  private closed = false;
  walks = 0;

  constructor(settings: EngineSettings<T>) {
    this.s = settings;
    this.store = new TreeStore(settings.root, settings.bytes);
    this.sched = new Scheduler(
      {
        window: settings.window,
        closed: () => this.closed,
        failed: (error, ctx, path) => this.failed(error, ctx, path),
        settled: (ctx) => {
          if (ctx.walk !== null) this.walkSettled(ctx.walk);
          this.flush();
        },
        reissue: (key, ctx) => (key.startsWith('d') ? this.readData(key.slice(1), ctx) : this.readChildren(key.slice(1), ctx)),
      },
      (e) => settings.onError(settings.root, e),
    );
  }

  /** Reads sent so far; events released out of zxid order (always 0 unless the reasoning in order.ts breaks). */
  get stats(): { reads: number; walks: number; outOfOrder: number; held: number } {
    return { reads: this.sched.seq.sent, walks: this.walks, outOfOrder: this.order.outOfOrder, held: this.order.length };
  }

  get walking(): boolean {
    return this.walk !== null;
  }

  close(): void {
    this.closed = true;
    this.walk = null;
  }

  /** A node of the subtree the cache covers: under the root, within maxDepth, each level passing the filter. */
  inScope(path: string): boolean {
    const depth = this.store.depthOf(path);
    if (depth < 0 || depth > this.s.maxDepth) return false;
    const filter = this.s.filter;
    if (filter === undefined || depth === 0) return true;
    let from = this.s.root === '/' ? 1 : this.s.root.length + 1;
    for (;;) {
      const slash = path.indexOf('/', from);
      if (!filter(slash < 0 ? path : path.slice(0, slash))) return false;
      if (slash < 0) return true;
      from = slash + 1;
    }
  }

  // ---- notifications ---------------------------------------------------------------------------------

  notify(event: WatchEvent): void {
    if (this.closed) return;
    const { type, path } = event;
    if (type === 'created' && this.checks > 0) this.creations.set(path, this.sched.seq.sent);
    const oneShot = this.s.reads.oneShot;
    if (type === 'created' || type === 'dataChanged') {
      if (this.inScope(path)) this.withChain((ctx) => this.readData(path, ctx), oneShot && type === 'created');
    } else if (type === 'deleted') {
      if (!this.inScope(path)) return;
      // One-shot: the node's watches are spent; reading it re-arms them if it is back already, and if it is not,
      // the absence check reads its parent's child list.
      if (oneShot) this.withChain((ctx) => this.readData(path, ctx), true);
      else this.withChain((ctx) => this.checkAbsence(path, ctx), false);
    } else if (type === 'childrenChanged') {
      // Only one-shot child watches ask for a child list; a persistent watch on the root alone (maxDepth 0) does not.
      if (oneShot && this.inScope(path) && this.store.depthOf(path) < this.s.maxDepth) this.withChain((ctx) => this.readChildren(path, ctx), false);
    }
  }

  private withChain(start: (ctx: Ctx) => void, descend: boolean): void {
    const chain = this.sched.openChain(this.maxSeen);
    start({ chain, walk: null, descend });
    this.sched.unref(chain);
  }

  // ---- full reads ------------------------------------------------------------------------------------

  /**
   * The reason a full read started now for `reason` reports: one that supersedes an unfinished read answers for
   * it too, so until the first one completes, any is the initial one; after a renewal, the renewal's.
   */
  reasonFor(reason: WalkReason): WalkReason {
    if (!this.initialized) return 'initial';
    return this.walk?.reason === 'renewal' ? 'renewal' : reason;
  }

  /** Starts a full read (superseding one under way); events are held until it is done. */
  startWalk(reason: WalkReason): void {
    if (this.closed) return;
    reason = this.reasonFor(reason);
    const old = this.walk;
    if (old !== null) this.sched.abandon(old);
    this.walks++;
    const walk: Walk = { id: this.walks, reason, pending: 0, inFlight: 0, backlog: [], next: 0, failed: false, superseded: false };
    this.walk = walk;
    this.readData(this.s.root, { chain: null, walk, descend: true });
  }

  private walkSettled(walk: Walk): void {
    this.sched.drain(walk);
    if (walk.pending > 0 || walk !== this.walk || walk.failed) return;
    this.walk = null;
    this.initialized = true;
    if (walk.id >= this.staleUntil) this.staleUntil = 0;
    this.flush();
    this.s.walked(walk.reason);
  }

  // ---- reads -----------------------------------------------------------------------------------------

  private readData(path: string, ctx: Ctx): void {
    this.sched.coalesce(`d${path}`, ctx, (c, key) => this.sched.send(c, path, () => this.s.reads.data(path, path === this.s.root), (r) => this.onData(path, r, c), { key }));
  }

  private readChildren(path: string, ctx: Ctx): void {
    this.sched.coalesce(`c${path}`, ctx, (c, key) => this.sched.send(c, path, () => this.s.reads.children(path), (r) => this.onChildren(path, r, c), { key }));
  }

  /** Is `path` gone? With a persistent watch: its parent's Stat (see the header); one-shot: the parent's list. */
  private checkAbsence(path: string, ctx: Ctx): void {
    if (path === '/') return;
    const reads = this.s.reads;
    const root = this.s.root;
    if (reads.oneShot) {
      if (this.store.depthOf(path) > 0) {
        this.readChildren(parentPath(path), ctx);
        return;
      }
      // The root (or above it): its exist watch first, so a re-creation is heard before the answer below.
      this.sched.send(ctx, root, () => reads.armRoot(root), (stat) => {
        if (stat === null) return;
        this.creations.set(root, this.sched.seq.sent);
        this.readData(root, { ...ctx, descend: true });
      });
    }
    this.checks++;
    this.sched.send(ctx, path, () => reads.parentStat(path), (stat, seq) => this.onParentStat(path, stat, seq, ctx), {
      settled: () => {
        if (--this.checks === 0) this.creations.clear();
      },
    });
  }

  // ---- facts -----------------------------------------------------------------------------------------

  private see(stat: Stat): void {
    if (stat.mzxid > this.maxSeen) this.maxSeen = stat.mzxid;
    if (stat.pzxid > this.maxSeen) this.maxSeen = stat.pzxid;
  }

  private onData(path: string, read: DataRead | null, ctx: Ctx): void {
    if (read === null) {
      if (this.store.holds(path)) this.checkAbsence(path, ctx);
      return;
    }
    const { stat } = read;
    this.see(stat);
    this.s.reads.saw(stat);
    const existing = this.store.mzxid(path);
    if (existing === undefined || existing < stat.mzxid) {
      const { old, node } = this.store.put(path, stat, this.s.decode(read.bytes, path));
      const event: NodeEvent<T> =
        old === undefined ? { type: 'added', path, zxid: stat.mzxid, node, old } : { type: 'changed', path, zxid: stat.mzxid, node, old };
      this.order.push(event, this.store.depthOf(path));
    }
    if (!ctx.descend || this.store.depthOf(path) >= this.s.maxDepth) return;
    if (this.s.reads.oneShot || stat.numChildren > 0) this.readChildren(path, ctx);
    // No children at its pzxid: whatever the view holds under it is gone.
    else for (const name of this.store.childNames(path)) this.removeTree(this.store.pathOf(path, name), stat.pzxid);
  }

  private onChildren(path: string, read: ChildrenRead | null, ctx: Ctx): void {
    if (read === null) {
      if (this.store.holds(path)) this.checkAbsence(path, ctx);
      return;
    }
    const { stat, children } = read;
    this.see(stat);
    const listed = new Set(children);
    for (const name of this.store.childNames(path)) {
      if (!listed.has(name)) this.removeTree(this.store.pathOf(path, name), stat.pzxid);
    }
    const next = { ...ctx, descend: true };
    const batch = ctx.walk === null ? 1 : this.s.reads.batchSize;
    const paths: string[] = [];
    for (const name of children) {
      const child = this.store.pathOf(path, name);
      if (!this.inScope(child)) continue;
      if (ctx.walk === null && this.store.mzxid(child) !== undefined) continue;
      if (batch === 1) this.readData(child, next);
      else paths.push(child);
    }
    for (let i = 0; i < paths.length; i += batch) this.readBatch(paths.slice(i, i + batch), next);
  }

  /** Many nodes of a full read in one request (reads.ts, batches); outcomes handled as single reads' would be. */
  private readBatch(paths: string[], ctx: Ctx): void {
    this.sched.send(
      ctx,
      paths[0] as string,
      () => this.s.reads.dataBatch(paths),
      (results) => {
        for (let i = 0; i < paths.length; i++) {
          const r = results[i];
          if (r instanceof Error) this.failed(r, ctx, paths[i] as string);
          else this.onData(paths[i] as string, r ?? null, ctx);
        }
      },
      {
        onError: (error) => {
          // A server without multiRead: the same nodes one by one (batching is off now). Anything else is a lost
          // read like any other.
          if (isUnimplemented(error)) for (const p of paths) this.readData(p, ctx);
          else this.failed(error, ctx, paths[0] as string);
        },
      },
    );
  }

  private onParentStat(path: string, stat: Stat | null, sentAt: number, ctx: Ctx): void {
    if (stat === null) {
      this.checkAbsence(parentPath(path), ctx);
      return;
    }
    this.see(stat);
    this.removeTree(path, stat.pzxid, (p) => (this.creations.get(p) ?? -1) >= sentAt);
  }

  private removeTree(path: string, zxid: bigint, keep?: (path: string) => boolean): void {
    for (const r of this.store.removeSubtree(path, keep)) {
      this.order.push({ type: 'removed', path: r.path, zxid, node: undefined, old: r.old }, r.depth);
    }
  }

  private failed(error: unknown, ctx: Ctx, path: string): void {
    const lost = isConnectionLoss(error) || isSessionGone(error);
    if (!lost) {
      this.s.onError(path, error);
      // A server's refusal (no permission…) concerns that node only; anything else is repaired by reading again.
      if (error instanceof ServerError) return;
      this.s.retryLater();
    }
    // The full read after the reconnect, the renewal or the retry covers whatever this read was for; until it is
    // done, an event this read would have produced could be older than one released meanwhile, so hold them all.
    if (ctx.walk !== null) ctx.walk.failed = true;
    this.staleUntil = this.walks + 1;
  }

  private flush(): void {
    if (this.walk !== null || this.staleUntil !== 0 || this.closed) return;
    const events = this.order.release(this.sched.bounds.lowest());
    if (events.length > 0) this.s.deliver(events);
  }
}
