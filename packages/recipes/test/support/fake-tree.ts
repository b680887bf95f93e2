/**
 * An in-memory ZooKeeper with the CacheClient surface, for deterministic cache tests: a tree with zxids and Stats,
 * one-shot data/exist/child watches with listeners, persistent (recursive) watches, a switch that makes addWatch
 * answer UNIMPLEMENTED like a server before 3.6, and a log of the reads. Replies are computed when a request is
 * made and resolve in request order; notifications fire synchronously when the tree changes (before any reply
 * showing the change, as ZooKeeper promises).
 */
import { KeeperCode, ServerError, type CallOptions, type PersistentWatch, type SessionState, type Stat, type StateChange, type WatchEvent, type WatchListener } from '@zkts/protocol';

import type { CacheClient } from '../../src/cache/client.js';

interface Node {
  data: Uint8Array;
  stat: Stat;
  kids: Set<string>;
}

const parentOf = (p: string): string => (p.lastIndexOf('/') <= 0 ? '/' : p.slice(0, p.lastIndexOf('/')));
const nameOf = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

class Handle implements PersistentWatch {
  readonly listeners = new Set<WatchListener>();
  private ended: (() => void) | null = null;
  constructor(readonly path: string, readonly recursive: boolean, private readonly drop: (h: Handle) => void) {}
  on(listener: WatchListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  async remove(): Promise<void> {
    this.drop(this);
    this.ended?.();
  }
  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    return { next: () => new Promise((resolve) => (this.ended = () => resolve({ value: undefined, done: true }))) };
  }
  async [Symbol.asyncDispose](): Promise<void> {
    await this.remove();
  }
}

export class FakeTree implements CacheClient {
  state: SessionState = 'connected';
  zxid = 1n;
  persistentSupported = true;
  readonly reads: string[] = [];
  private readonly nodes = new Map<string, Node>([['/', { data: new Uint8Array(), stat: this.stat(0), kids: new Set() }]]);
  private readonly dataWatches = new Map<string, Set<WatchListener>>();
  private readonly childWatches = new Map<string, Set<WatchListener>>();
  private readonly handles = new Set<Handle>();

  private stat(len: number): Stat {
    const z = this.zxid;
    return { czxid: z, mzxid: z, ctime: 0, mtime: 0, version: 0, cversion: 0, aversion: 0, ephemeralOwner: 0n, dataLength: len, numChildren: 0, pzxid: z };
  }

  // ---- the writer's side: synchronous changes that notify at once ----

  create(path: string, data = ''): void {
    const parent = this.nodes.get(parentOf(path));
    if (parent === undefined || this.nodes.has(path)) throw new Error(`cannot create ${path}`);
    this.zxid++;
    this.nodes.set(path, { data: bytes(data), stat: this.stat(data.length), kids: new Set() });
    parent.kids.add(nameOf(path));
    parent.stat = { ...parent.stat, cversion: parent.stat.cversion + 1, numChildren: parent.kids.size, pzxid: this.zxid };
    this.fire(this.dataWatches, path, 'created');
    this.fire(this.childWatches, parentOf(path), 'childrenChanged');
    this.firePersistent(path, 'created');
  }

  set(path: string, data: string): void {
    const node = this.nodes.get(path);
    if (node === undefined) throw new Error(`no ${path}`);
    this.zxid++;
    node.data = bytes(data);
    node.stat = { ...node.stat, mzxid: this.zxid, version: node.stat.version + 1, dataLength: data.length };
    this.fire(this.dataWatches, path, 'dataChanged');
    this.firePersistent(path, 'dataChanged');
  }

  remove(path: string): void {
    const node = this.nodes.get(path);
    if (node === undefined || node.kids.size > 0) throw new Error(`cannot delete ${path}`);
    this.zxid++;
    this.nodes.delete(path);
    const parent = this.nodes.get(parentOf(path)) as Node;
    parent.kids.delete(nameOf(path));
    parent.stat = { ...parent.stat, cversion: parent.stat.cversion + 1, numChildren: parent.kids.size, pzxid: this.zxid };
    this.fire(this.dataWatches, path, 'deleted');
    this.fire(this.childWatches, path, 'deleted');
    this.fire(this.childWatches, parentOf(path), 'childrenChanged');
    this.firePersistent(path, 'deleted');
  }

  private fire(map: Map<string, Set<WatchListener>>, path: string, type: WatchEvent['type']): void {
    const set = map.get(path);
    if (set === undefined) return;
    map.delete(path);
    for (const l of set) l({ type, path, zxid: -1n });
  }

  private firePersistent(path: string, type: WatchEvent['type']): void {
    for (const h of this.handles) {
      const hit = h.path === path || (h.recursive && path.startsWith(h.path === '/' ? '/' : `${h.path}/`));
      if (hit) for (const l of h.listeners) l({ type, path, zxid: -1n });
      else if (!h.recursive && type !== 'dataChanged' && h.path === parentOf(path)) for (const l of h.listeners) l({ type: 'childrenChanged', path: h.path, zxid: -1n });
    }
  }

  private watch(map: Map<string, Set<WatchListener>>, path: string, l: WatchListener | undefined): void {
    if (l === undefined) return;
    let set = map.get(path);
    if (set === undefined) map.set(path, (set = new Set()));
    set.add(l);
  }

  // ---- CacheClient ----

  connected(): Promise<void> {
    return Promise.resolve();
  }

  onStateChange(_listener: (change: StateChange) => void): () => void {
    return () => undefined;
  }

  addWatch(path: string, mode: 'persistent' | 'persistent-recursive'): Promise<PersistentWatch> {
    this.reads.push(`addWatch ${path}`);
    if (!this.persistentSupported) return Promise.reject(new ServerError(KeeperCode.UNIMPLEMENTED, path));
    const h = new Handle(path, mode === 'persistent-recursive', (x) => this.handles.delete(x));
    this.handles.add(h);
    return Promise.resolve(h);
  }

  exists(path: string, options: CallOptions & { watch?: WatchListener } = {}): Promise<Stat | null> {
    this.reads.push(`exists ${path}${options.watch ? ' +watch' : ''}`);
    const node = this.nodes.get(path);
    this.watch(this.dataWatches, path, options.watch);
    return Promise.resolve(node === undefined ? null : node.stat);
  }

  getData(path: string, options: CallOptions & { watch?: WatchListener } = {}): Promise<{ data: Uint8Array; stat: Stat }> {
    this.reads.push(`getData ${path}${options.watch ? ' +watch' : ''}`);
    const node = this.nodes.get(path);
    if (node === undefined) return Promise.reject(new ServerError(KeeperCode.NO_NODE, path));
    this.watch(this.dataWatches, path, options.watch);
    return Promise.resolve({ data: node.data, stat: node.stat });
  }

  getChildren(path: string, options: CallOptions & { watch?: WatchListener } = {}): Promise<{ children: string[]; stat: Stat }> {
    this.reads.push(`getChildren ${path}${options.watch ? ' +watch' : ''}`);
    const node = this.nodes.get(path);
    if (node === undefined) return Promise.reject(new ServerError(KeeperCode.NO_NODE, path));
    this.watch(this.childWatches, path, options.watch);
    return Promise.resolve({ children: [...node.kids], stat: node.stat });
  }
}
