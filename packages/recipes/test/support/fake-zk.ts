/**
 * An in-memory ZooKeeper with the RecipeClient surface, for fast unit tests of the recipe logic: one shared tree,
 * many sessions, sequential/ephemeral/container nodes, one-shot data/child/exist watches, and fault hooks (fail
 * the next call with a lost reply AFTER applying it, expire a session, optionally renewed as the real client
 * does by default: `expired` (old id) → `connecting` → `connected` with a new id). Integration tests cover the
 * real thing.
 */
import { ConnectionLossError, MultiError, ServerError, SessionExpiredError, KeeperCode } from '@zkts/protocol';

import type { EventTypeName } from '@zkts/protocol';

import type { CreateMode, Data, Op, OpResult, PersistentWatch, RecipeClient, SessionState, StateChange, Stat, WatchEvent } from '../../src/internal/index.js';

interface Node {
  data: Uint8Array;
  stat: Stat;
  children: Set<string>;
  seq: number;
}

interface Waiter {
  readonly session: bigint;
  readonly fire: (ev: WatchEvent) => void;
  readonly fail: (e: Error) => void;
}

const enc = (d: Data | null | undefined): Uint8Array => (d === null || d === undefined ? new Uint8Array() : typeof d === 'string' ? new TextEncoder().encode(d) : d);
const parent = (p: string): string => (p.lastIndexOf('/') <= 0 ? '/' : p.slice(0, p.lastIndexOf('/')));

export class FakeZk {
  zxid = 0n;
  private nextSession = 1n;
  readonly nodes = new Map<string, Node>([['/', this.newNode(new Uint8Array(), 0n)]]);
  private readonly dataWatches = new Map<string, Set<Waiter>>();
  /** A `watch: true` promise back to its watch, for removeWatcher. */
  private readonly promiseWaiters = new WeakMap<Promise<WatchEvent>, Waiter>();
  private readonly childWatches = new Map<string, Set<Waiter>>();
  readonly clients: FakeClient[] = [];

  private newNode(data: Uint8Array, owner: bigint): Node {
    const z = this.zxid;
    return {
      data, children: new Set(), seq: 0,
      stat: { czxid: z, mzxid: z, ctime: 0, mtime: 0, version: 0, cversion: 0, aversion: 0, ephemeralOwner: owner, dataLength: data.length, numChildren: 0, pzxid: z },
    };
  }

  client(): FakeClient {
    const c = new FakeClient(this, this.nextSession++);
    this.clients.push(c);
    return c;
  }

  fire(map: Map<string, Set<Waiter>>, path: string, type: EventTypeName): void {
    const set = map.get(path);
    if (set === undefined) return;
    map.delete(path);
    for (const w of set) w.fire({ type, path, zxid: this.zxid });
  }

  fireData(path: string, type: EventTypeName): void {
    this.fire(this.dataWatches, path, type);
  }

  /** A one-shot watch of `session`: fires on the next event, or rejects when the session expires. */
  watchPromise(kind: 'data' | 'child', path: string, session: bigint): Promise<WatchEvent> {
    let waiter: Waiter | undefined;
    const p = new Promise<WatchEvent>((fire, fail) => {
      waiter = { session, fire, fail };
      this.watch(kind, path, waiter);
    });
    p.catch(() => undefined);
    if (waiter !== undefined) this.promiseWaiters.set(p, waiter);
    return p;
  }

  /** The client's removeWatcher: only that watch goes (it hears dataWatchRemoved); NO_WATCHER when not set. */
  removeDataWatcher(path: string, watch: Promise<WatchEvent>): void {
    const waiter = this.promiseWaiters.get(watch);
    const set = this.dataWatches.get(path);
    if (waiter === undefined || set === undefined || !set.delete(waiter)) throw new ServerError(KeeperCode.NO_WATCHER, path);
    if (set.size === 0) this.dataWatches.delete(path);
    waiter.fire({ type: 'dataWatchRemoved', path, zxid: -1n });
  }

  /** One-shot watches armed on `path` now. */
  watchCount(kind: 'data' | 'child', path: string): number {
    return (kind === 'data' ? this.dataWatches : this.childWatches).get(path)?.size ?? 0;
  }

  watch(kind: 'data' | 'child', path: string, w: Waiter): void {
    const map = kind === 'data' ? this.dataWatches : this.childWatches;
    let set = map.get(path);
    if (set === undefined) map.set(path, (set = new Set()));
    set.add(w);
  }

  /** TTL of each TTL node created (the fake never reaps them). */
  readonly ttls = new Map<string, number>();

  create(path: string, data: Data | null | undefined, mode: CreateMode, session: bigint, ttl?: number): { path: string; stat: Stat } {
    const par = this.nodes.get(parent(path));
    if (par === undefined) throw new ServerError(KeeperCode.NO_NODE, path);
    if (par.stat.ephemeralOwner !== 0n) throw new ServerError(KeeperCode.NO_CHILDREN_FOR_EPHEMERALS, path);
    let full = path;
    if (mode.endsWith('sequential')) {
      const n = par.seq | 0;
      full = `${path}${n < 0 ? `-${String(-n).padStart(9, '0')}` : String(n).padStart(10, '0')}`;
    }
    if (this.nodes.has(full)) throw new ServerError(KeeperCode.NODE_EXISTS, full);
    this.zxid++;
    par.seq = (par.seq + 1) | 0;
    const node = this.newNode(enc(data), mode.startsWith('ephemeral') ? session : 0n);
    this.nodes.set(full, node);
    if (ttl !== undefined) this.ttls.set(full, ttl);
    par.children.add(full.slice(full.lastIndexOf('/') + 1));
    par.stat.numChildren++;
    par.stat.cversion++;
    this.fire(this.dataWatches, full, 'created');
    this.fire(this.childWatches, parent(full), 'childrenChanged');
    return { path: full, stat: { ...node.stat } };
  }

  delete(path: string): void {
    const node = this.nodes.get(path);
    if (node === undefined) throw new ServerError(KeeperCode.NO_NODE, path);
    if (node.children.size > 0) throw new ServerError(KeeperCode.NOT_EMPTY, path);
    this.zxid++;
    this.nodes.delete(path);
    const par = this.nodes.get(parent(path));
    par?.children.delete(path.slice(path.lastIndexOf('/') + 1));
    if (par !== undefined) {
      par.stat.numChildren--;
      par.stat.cversion++;
    }
    this.fire(this.dataWatches, path, 'deleted');
    this.fire(this.childWatches, path, 'deleted');
    this.fire(this.childWatches, parent(path), 'childrenChanged');
  }

  /**
   * Ends a session: its ephemerals go, its one-shot watches reject, its client sees 'expired'. With `renew`
   * the client then opens a new session (connecting → connected, a new id), as the real client does.
   */
  expire(session: bigint, options: { renew?: boolean } = {}): void {
    for (const [p, n] of [...this.nodes]) if (n.stat.ephemeralOwner === session) this.delete(p);
    for (const map of [this.dataWatches, this.childWatches]) {
      for (const [path, set] of [...map]) {
        for (const w of [...set]) {
          if (w.session !== session) continue;
          set.delete(w);
          w.fail(new SessionExpiredError());
        }
        if (set.size === 0) map.delete(path);
      }
    }
    for (const c of this.clients) {
      if (c.sessionId !== session) continue;
      c.setState('expired');
      if (options.renew === true) c.renew(this.nextSession++);
    }
  }

  children(path: string): string[] {
    const node = this.nodes.get(path);
    if (node === undefined) throw new ServerError(KeeperCode.NO_NODE, path);
    return [...node.children];
  }
}

export class FakeClient implements RecipeClient {
  state: SessionState = 'connected';
  sessionId: bigint;
  generation = 1;
  negotiatedTimeout = 4000;
  readonly calls: string[] = [];
  /** Apply the next call of this op, then fail it with ConnectionLoss (outcome unknown): a lost reply. */
  loseReplyOf: string | undefined;
  /** A create committed by the leader that the server this client reads from has not applied yet: see lagCreate. */
  private unapplied: (() => void) | undefined;
  private lagging: Promise<void> | undefined;
  private readonly listeners = new Set<(c: StateChange) => void>();
  private readonly zk: FakeZk;

  constructor(zk: FakeZk, sessionId: bigint) {
    this.zk = zk;
    this.sessionId = sessionId;
  }

  setState(state: SessionState): void {
    const previous = this.state;
    this.state = state;
    for (const l of [...this.listeners]) l({ state, previous, sessionId: this.sessionId, generation: this.generation });
  }

  /** After 'expired': a new session, as the real client's renewSession does. */
  renew(sessionId: bigint): void {
    this.sessionId = 0n;
    this.generation++;
    this.setState('connecting');
    this.sessionId = sessionId;
    this.setState('connected');
  }

  private async call<T>(op: string, f: () => T): Promise<T> {
    this.calls.push(op);
    await Promise.resolve();
    if (this.state === 'expired') throw new SessionExpiredError();
    const v = f();
    if (this.loseReplyOf === op) {
      this.loseReplyOf = undefined;
      throw new ConnectionLossError('reply lost', true);
    }
    return v;
  }

  connected(): Promise<void> {
    return this.state === 'expired' ? Promise.reject(new SessionExpiredError()) : Promise.resolve();
  }
  onStateChange(listener: (change: StateChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  /**
   * The next create stays unanswered until `fail()`, then fails with ConnectionLoss. It was committed all the
   * same, but this client's reads see the node only after its next sync: the connection broke while the leader
   * still had the create in flight, and the member the client lists on applies it a moment later.
   */
  lagCreate(): { fail: () => void } {
    let fail = (): void => undefined;
    this.lagging = new Promise<void>((r) => (fail = r));
    return { fail: () => fail() };
  }

  create(path: string, data?: Data | null, options?: { mode?: CreateMode; ttl?: number }): Promise<{ path: string; stat: Stat }> {
    const lagging = this.lagging;
    if (lagging !== undefined) {
      this.lagging = undefined;
      this.calls.push('create');
      const session = this.sessionId;
      return lagging.then(() => {
        this.unapplied = () => this.zk.create(path, data, options?.mode ?? 'persistent', session, options?.ttl);
        throw new ConnectionLossError('connection lost with the create in flight', true);
      });
    }
    return this.call('create', () => this.zk.create(path, data, options?.mode ?? 'persistent', this.sessionId, options?.ttl));
  }
  delete(path: string): Promise<void> {
    return this.call('delete', () => this.zk.delete(path));
  }
  exists(path: string): Promise<Stat | null>;
  exists(path: string, options: { watch: true }): Promise<{ stat: Stat | null; watch: Promise<WatchEvent> }>;
  exists(path: string, options?: { watch?: true }): Promise<Stat | null | { stat: Stat | null; watch: Promise<WatchEvent> }> {
    return this.call('exists', () => {
      const stat = this.zk.nodes.get(path)?.stat ?? null;
      if (options?.watch !== true) return stat === null ? null : { ...stat };
      const watch = this.zk.watchPromise('data', path, this.sessionId);
      return { stat, watch };
    });
  }
  getData(path: string, options?: { watch?: true }): Promise<{ data: Uint8Array; stat: Stat; watch?: Promise<WatchEvent> }> {
    return this.call('getData', () => {
      const n = this.zk.nodes.get(path);
      if (n === undefined) throw new ServerError(KeeperCode.NO_NODE, path);
      if (options?.watch !== true) return { data: n.data, stat: { ...n.stat } };
      const watch = this.zk.watchPromise('data', path, this.sessionId);
      return { data: n.data, stat: { ...n.stat }, watch };
    });
  }
  setData(path: string, data: Data | null): Promise<Stat> {
    return this.call('setData', () => {
      const n = this.zk.nodes.get(path);
      if (n === undefined) throw new ServerError(KeeperCode.NO_NODE, path);
      n.data = enc(data);
      n.stat.version++;
      this.zk.fireData(path, 'dataChanged');
      return { ...n.stat };
    });
  }
  getChildren(path: string, options?: { watch?: true }): Promise<{ children: string[]; stat: Stat; watch?: Promise<WatchEvent> }> {
    return this.call('getChildren', () => {
      const children = this.zk.children(path);
      const stat = (this.zk.nodes.get(path) as Node).stat;
      if (options?.watch !== true) return { children, stat };
      const watch = this.zk.watchPromise('child', path, this.sessionId);
      return { children, stat, watch };
    });
  }
  addWatch(): Promise<PersistentWatch> {
    return Promise.reject(new Error('addWatch: persistent watches are tested against a real server'));
  }
  sync(): Promise<void> {
    return this.call('sync', () => {
      const apply = this.unapplied;
      this.unapplied = undefined;
      apply?.();
    });
  }
  removeWatcher(path: string, watch: Promise<WatchEvent>): Promise<void> {
    return this.call('removeWatcher', () => this.zk.removeDataWatcher(path, watch));
  }
  multi(ops: Op[]): Promise<OpResult[]> {
    return this.call('multi', () => {
      // Validate everything first, in order (a create may follow a delete of the same path), so a failing multi
      // changes nothing; a failure is a MultiError naming the op, as the real client reports it.
      const deleted = new Set<string>();
      const created = new Set<string>();
      const present = (p: string): boolean => !deleted.has(p) && (created.has(p) || this.zk.nodes.has(p));
      const fail = (index: number, code: number, path: string): never => {
        throw new MultiError(index, code, ops.map((_, i) => (i < index ? 0 : i === index ? code : KeeperCode.RUNTIME_INCONSISTENCY)), path);
      };
      ops.forEach((op, i) => {
        if (op.op === 'check' || op.op === 'delete' || op.op === 'setData') {
          if (!present(op.path)) fail(i, KeeperCode.NO_NODE, op.path);
          const version = op.version ?? -1;
          const current = this.zk.nodes.get(op.path);
          if (version !== -1 && !created.has(op.path) && current !== undefined && current.stat.version !== version) fail(i, KeeperCode.BAD_VERSION, op.path);
          if (op.op === 'delete') {
            deleted.add(op.path);
            created.delete(op.path);
          }
        } else if (op.op === 'create') {
          if (!present(parent(op.path))) fail(i, KeeperCode.NO_NODE, op.path);
          const sequential = (op.mode ?? 'persistent').endsWith('sequential');
          if (!sequential && present(op.path)) fail(i, KeeperCode.NODE_EXISTS, op.path);
          if (!sequential) {
            created.add(op.path);
            deleted.delete(op.path);
          }
        }
      });
      return ops.map((op): OpResult => {
        switch (op.op) {
          case 'setData': {
            const n = this.zk.nodes.get(op.path) as Node;
            n.data = enc(op.data);
            return { op: 'setData', stat: { ...n.stat } };
          }
          case 'delete':
            this.zk.delete(op.path);
            return { op: 'delete' };
          case 'create':
            return { op: 'create', path: this.zk.create(op.path, op.data, op.mode ?? 'persistent', this.sessionId).path };
          default:
            return { op: 'check' };
        }
      });
    });
  }
}
