/**
 * The cache's view: a tree of the nodes under one root, as the cache last read them. A tree (each node holds its
 * children by name) rather than a map of full paths, because it keeps no path string per node (the biggest
 * per-node cost after the data) and because removing a subtree, or diffing a child list, is a walk of one branch.
 *
 * A node whose parent has not been read yet (its `created` event was seen first, or the parent's read is still
 * on the wire) hangs under a placeholder: a ghost holds children but no Stat, is never reported and goes away
 * with its last child. Each change makes a new node object; the old one stays untouched as the event's `old`.
 */
import type { Stat } from '@zkts/protocol';

import type { CachedNode } from './types.js';

const GHOST: Stat = Object.freeze({
  czxid: -1n, mzxid: -1n, ctime: 0n, mtime: 0n, version: -1, cversion: -1, aversion: -1, ephemeralOwner: 0n, dataLength: 0, numChildren: 0, pzxid: -1n,
});

export class StoreNode<T> implements CachedNode<T> {
  readonly stat: Stat;
  readonly data: T;
  /** Children by name; created on the first child. Private to this module: events hand the node out as-is. */
  #kids: Map<string, StoreNode<T>> | undefined = undefined;

  constructor(stat: Stat, data: T) {
    this.stat = stat;
    this.data = data;
  }

  static kids<T>(node: StoreNode<T>): Map<string, StoreNode<T>> | undefined {
    return node.#kids;
  }

  static setKids<T>(node: StoreNode<T>, kids: Map<string, StoreNode<T>> | undefined): void {
    node.#kids = kids;
  }
}

const kidsOf = StoreNode.kids;
const setKids = StoreNode.setKids;
const isGhost = <T>(n: StoreNode<T>): boolean => n.stat === GHOST;

export interface Removed<T> {
  path: string;
  old: CachedNode<T>;
  depth: number;
}

export class TreeStore<T> {
  readonly root: string;
  /** '/root/' (or '/' for the root '/'): what a descendant's path starts with. */
  private readonly prefix: string;
  private top: StoreNode<T> | undefined = undefined;
  private count = 0;

  constructor(root: string) {
    this.root = root;
    this.prefix = root === '/' ? '/' : `${root}/`;
  }

  get size(): number {
    return this.count;
  }

  /** Levels below the root (root = 0), or -1 when `path` is not the root or under it. */
  depthOf(path: string): number {
    if (path === this.root) return 0;
    if (!path.startsWith(this.prefix)) return -1;
    let depth = 1;
    for (let i = this.prefix.length; i < path.length; i++) if (path.charCodeAt(i) === 47) depth++;
    return depth;
  }

  pathOf(parent: string, name: string): string {
    return parent === '/' ? `/${name}` : `${parent}/${name}`;
  }

  private segments(path: string): string[] {
    return path === this.root ? [] : path.slice(this.prefix.length).split('/');
  }

  /** The node at `path` (root or below), ghosts included. */
  private find(path: string): StoreNode<T> | undefined {
    let node = this.top;
    for (const name of this.segments(path)) {
      if (node === undefined) return undefined;
      node = kidsOf(node)?.get(name);
    }
    return node;
  }

  get(path: string): CachedNode<T> | undefined {
    if (this.depthOf(path) < 0) return undefined;
    const node = this.find(path);
    return node === undefined || isGhost(node) ? undefined : node;
  }

  /** Whether the store has anything at `path`: a node, or a ghost holding nodes under it. */
  holds(path: string): boolean {
    return this.depthOf(path) >= 0 && this.find(path) !== undefined;
  }

  /** Names of the children the store holds under `path` (ghosts too: they stand for real descendants). */
  childNames(path: string): string[] {
    const node = this.depthOf(path) < 0 ? undefined : this.find(path);
    const kids = node === undefined ? undefined : kidsOf(node);
    return kids === undefined ? [] : [...kids.keys()];
  }

  /** Stores a node's new state; returns what it replaces (undefined when it is new). */
  put(path: string, stat: Stat, data: T): { old: CachedNode<T> | undefined; node: CachedNode<T> } {
    const fresh = new StoreNode(stat, data);
    const names = this.segments(path);
    if (names.length === 0) {
      const old = this.top;
      this.top = fresh;
      return { old: this.adopt(old, fresh), node: fresh };
    }
    this.top ??= new StoreNode<T>(GHOST, undefined as T);
    let parent = this.top;
    for (let i = 0; i < names.length - 1; i++) {
      const name = names[i] as string;
      let kids = kidsOf(parent);
      if (kids === undefined) setKids(parent, (kids = new Map()));
      let next = kids.get(name);
      if (next === undefined) kids.set(name, (next = new StoreNode<T>(GHOST, undefined as T)));
      parent = next;
    }
    const last = names[names.length - 1] as string;
    let kids = kidsOf(parent);
    if (kids === undefined) setKids(parent, (kids = new Map()));
    const old = kids.get(last);
    kids.set(last, fresh);
    return { old: this.adopt(old, fresh), node: fresh };
  }

  /** Moves the children of the node being replaced to its successor; counts a new node. */
  private adopt(old: StoreNode<T> | undefined, fresh: StoreNode<T>): CachedNode<T> | undefined {
    if (old === undefined) {
      this.count++;
      return undefined;
    }
    setKids(fresh, kidsOf(old));
    setKids(old, undefined);
    if (isGhost(old)) {
      this.count++;
      return undefined;
    }
    return old;
  }

  /**
   * Removes `path` and everything under it (a path above the root removes the whole view); returns the real
   * nodes removed, deepest first. `keep(path)` spares a node (and what hangs under it) that is known to be back.
   */
  removeSubtree(path: string, keep: (path: string) => boolean = () => false): Removed<T>[] {
    const out: Removed<T>[] = [];
    const depth = this.depthOf(path);
    if (depth < 0) {
      // Above the root (or elsewhere): only an ancestor of the root takes the view with it.
      if (this.top !== undefined && (path === '/' || this.root.startsWith(`${path}/`))) {
        if (this.collect(this.top, this.root, 0, keep, out)) this.top = undefined;
      }
      return out;
    }
    if (depth === 0) {
      if (this.top !== undefined && this.collect(this.top, this.root, 0, keep, out)) this.top = undefined;
      return out;
    }
    const names = this.segments(path);
    const chain: StoreNode<T>[] = [];
    let node = this.top;
    for (let i = 0; i < names.length - 1 && node !== undefined; i++) {
      chain.push(node);
      node = kidsOf(node)?.get(names[i] as string);
    }
    const parent = node;
    const last = names[names.length - 1] as string;
    const target = parent === undefined ? undefined : kidsOf(parent)?.get(last);
    if (parent === undefined || target === undefined) return out;
    if (this.collect(target, path, depth, keep, out)) {
      kidsOf(parent)?.delete(last);
      chain.push(parent);
      this.prune(chain, names);
    }
    return out;
  }

  /** Post-order removal under `node`; true when `node` itself is gone (not kept, nothing kept below it). */
  private collect(node: StoreNode<T>, path: string, depth: number, keep: (path: string) => boolean, out: Removed<T>[]): boolean {
    const kids = kidsOf(node);
    if (kids !== undefined) {
      for (const [name, kid] of kids) {
        if (this.collect(kid, this.pathOf(path, name), depth + 1, keep, out)) kids.delete(name);
      }
      if (kids.size === 0) setKids(node, undefined);
    }
    const kept = !isGhost(node) && keep(path);
    if (kept || kidsOf(node) !== undefined) {
      // Kept itself, or something below it was: a removed real node stays only as a ghost holding them.
      if (!kept && !isGhost(node)) {
        this.count--;
        out.push({ path, old: node, depth });
        this.replaceWithGhost(path, node);
      }
      return false;
    }
    if (!isGhost(node)) {
      this.count--;
      out.push({ path, old: node, depth });
    }
    return true;
  }

  private replaceWithGhost(path: string, node: StoreNode<T>): void {
    const ghost = new StoreNode<T>(GHOST, undefined as T);
    setKids(ghost, kidsOf(node));
    setKids(node, undefined);
    if (path === this.root) {
      this.top = ghost;
      return;
    }
    const names = this.segments(path);
    let parent = this.top;
    for (let i = 0; i < names.length - 1 && parent !== undefined; i++) parent = kidsOf(parent)?.get(names[i] as string);
    if (parent !== undefined) kidsOf(parent)?.set(names[names.length - 1] as string, ghost);
  }

  /** Drops ghosts left without children, from the deepest ancestor up. */
  private prune(chain: StoreNode<T>[], names: string[]): void {
    for (let i = chain.length - 1; i >= 0; i--) {
      const node = chain[i] as StoreNode<T>;
      const kids = kidsOf(node);
      if (kids !== undefined && kids.size === 0) setKids(node, undefined);
      if (!isGhost(node) || kidsOf(node) !== undefined) return;
      if (i === 0) this.top = undefined;
      else kidsOf(chain[i - 1] as StoreNode<T>)?.delete(names[i - 1] as string);
    }
  }

  /** Every real node, parents before children. */
  *entries(): IterableIterator<[string, CachedNode<T>]> {
    if (this.top === undefined) return;
    const stack: [string, StoreNode<T>][] = [[this.root, this.top]];
    while (stack.length > 0) {
      const [path, node] = stack.pop() as [string, StoreNode<T>];
      if (!isGhost(node)) yield [path, node];
      const kids = kidsOf(node);
      if (kids !== undefined) for (const [name, kid] of kids) stack.push([this.pathOf(path, name), kid]);
    }
  }
}
