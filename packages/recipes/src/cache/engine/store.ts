/**
 * The cache's view: the nodes under one root, as last read, kept compact because a cache may hold millions. No
 * object per node: a node is a slot in typed-array columns (its record's address in the arena, records.ts, and
 * links to its parent, first child and siblings), found by (parent slot, name) in an open-addressing hash table.
 * A 10,000-node tree of 100-byte nodes costs ~160 bytes a node here, against ~520 with an object, a Stat and a
 * Uint8Array per node (bench/README.md, cache rows). Nodes become objects (LazyNode) only when handed out.
 *
 * A node whose parent has not been read yet hangs under a placeholder (a ghost: a name, no Stat), never reported,
 * gone with its last child. Removing a subtree walks one branch, deepest first.
 */
import type { Stat } from '@zkts/protocol';

import type { CachedNode } from '../types.js';
import { hashName } from './record-format.js';
import { Arena } from './records.js';

export interface Removed<T> {
  path: string;
  old: CachedNode<T>;
  depth: number;
}

const NONE = -1;
/** `addr` of a slot on the free list. */
const FREE = 0xffffffff;

export class TreeStore<T> {
  readonly root: string;
  private readonly prefix: string;
  /** Data kept as bytes in the records (else `values` holds what the decoder made, or nothing for Stats only). */
  private readonly bytes: boolean;
  private arena = new Arena();
  private cap = 0;
  private used = 0;
  private addr = new Uint32Array(0);
  private parent = new Int32Array(0);
  private first = new Int32Array(0);
  private next = new Int32Array(0);
  private values: (T | undefined)[] | undefined;
  private freeHead = NONE;
  private top = NONE;
  private count = 0;
  /** slot + 1 per entry, 0 = empty; linear probing, at most 3/4 full. */
  private table = new Int32Array(16);
  private entriesInTable = 0;

  constructor(root: string, bytes = true) {
    this.root = root;
    this.prefix = root === '/' ? '/' : `${root}/`;
    this.bytes = bytes;
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

  // ---- slots ---------------------------------------------------------------------------------------

  private alloc(parent: number): number {
    let slot = this.freeHead;
    if (slot !== NONE) this.freeHead = this.next[slot] as number;
    else {
      if (this.used === this.cap) this.grow();
      slot = this.used++;
    }
    this.parent[slot] = parent;
    this.first[slot] = NONE;
    this.next[slot] = NONE;
    if (parent !== NONE) {
      this.next[slot] = this.first[parent] as number;
      this.first[parent] = slot;
    }
    return slot;
  }

  /** Columns grow by a quarter: their slack is part of every node's cost. */
  private grow(): void {
    const cap = Math.max(64, Math.ceil(this.cap * 1.25));
    const widen = <A extends Uint32Array | Int32Array>(old: A, make: (n: number) => A): A => {
      const a = make(cap);
      a.set(old);
      return a;
    };
    this.addr = widen(this.addr, (n) => new Uint32Array(n));
    this.parent = widen(this.parent, (n) => new Int32Array(n));
    this.first = widen(this.first, (n) => new Int32Array(n));
    this.next = widen(this.next, (n) => new Int32Array(n));
    this.cap = cap;
  }

  /** Unlinks a slot from its parent's children (a walk of its siblings: no back links, 4 bytes a node saved). */
  private free(slot: number): void {
    const p = this.parent[slot] as number;
    if (p !== NONE) {
      let c = this.first[p] as number;
      if (c === slot) this.first[p] = this.next[slot] as number;
      else {
        while (this.next[c] !== slot) c = this.next[c] as number;
        this.next[c] = this.next[slot] as number;
      }
      this.unindex(slot);
    }
    this.arena.release(this.addr[slot] as number);
    this.addr[slot] = FREE;
    if (this.values !== undefined) this.values[slot] = undefined;
    this.next[slot] = this.freeHead;
    this.freeHead = slot;
  }

  // ---- the (parent, name) index --------------------------------------------------------------------

  private hashOf(slot: number): number {
    return this.arena.hashOf(this.addr[slot] as number, this.parent[slot] as number);
  }

  private index(slot: number): void {
    if ((this.entriesInTable + 1) * 4 > this.table.length * 3) this.rehash(this.table.length * 2);
    const mask = this.table.length - 1;
    let i = this.hashOf(slot) & mask;
    while (this.table[i] !== 0) i = (i + 1) & mask;
    this.table[i] = slot + 1;
    this.entriesInTable++;
  }

  private rehash(size: number): void {
    const old = this.table;
    this.table = new Int32Array(size);
    const mask = size - 1;
    for (const v of old) {
      if (v === 0) continue;
      let i = this.hashOf(v - 1) & mask;
      while (this.table[i] !== 0) i = (i + 1) & mask;
      this.table[i] = v;
    }
  }

  /** Removes a slot's entry, shifting later entries of its probe run back (no tombstones). */
  private unindex(slot: number): void {
    const table = this.table;
    const mask = table.length - 1;
    let i = this.hashOf(slot) & mask;
    while (table[i] !== slot + 1) i = (i + 1) & mask;
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const v = table[j] as number;
      if (v === 0) break;
      const k = this.hashOf(v - 1) & mask;
      const stays = i <= j ? i < k && k <= j : i < k || k <= j;
      if (!stays) {
        table[i] = v;
        i = j;
      }
    }
    table[i] = 0;
    this.entriesInTable--;
  }

  private lookup(parent: number, name: string): number {
    const table = this.table;
    const mask = table.length - 1;
    for (let i = hashName(parent, name) & mask; table[i] !== 0; i = (i + 1) & mask) {
      const slot = (table[i] as number) - 1;
      if (this.parent[slot] === parent && this.arena.nameIs(this.addr[slot] as number, name)) return slot;
    }
    return NONE;
  }

  // ---- paths ---------------------------------------------------------------------------------------

  private segments(path: string): string[] {
    return path === this.root ? [] : path.slice(this.prefix.length).split('/');
  }

  /** The slot at `path` (ghosts included), or NONE. */
  private find(path: string): number {
    if (this.depthOf(path) < 0) return NONE;
    let slot = this.top;
    for (const name of this.segments(path)) {
      if (slot === NONE) return NONE;
      slot = this.lookup(slot, name);
    }
    return slot;
  }

  private isReal(slot: number): boolean {
    return !this.arena.isGhost(this.addr[slot] as number);
  }

  private nodeAt(slot: number): CachedNode<T> {
    return this.arena.node(this.addr[slot] as number, this.bytes, this.values?.[slot] as T);
  }

  get(path: string): CachedNode<T> | undefined {
    const slot = this.find(path);
    return slot === NONE || !this.isReal(slot) ? undefined : this.nodeAt(slot);
  }

  /** The mzxid of the node at `path`, without building it; undefined when the store has no node there. */
  mzxid(path: string): bigint | undefined {
    const slot = this.find(path);
    return slot === NONE || !this.isReal(slot) ? undefined : this.arena.mzxid(this.addr[slot] as number);
  }

  /** Whether the store has anything at `path`: a node, or a ghost holding nodes under it. */
  holds(path: string): boolean {
    return this.find(path) !== NONE;
  }

  /** Names of the children the store holds under `path` (ghosts too: they stand for real descendants). */
  childNames(path: string): string[] {
    const out: string[] = [];
    const slot = this.find(path);
    if (slot === NONE) return out;
    for (let c = this.first[slot] as number; c !== NONE; c = this.next[c] as number) out.push(this.arena.nameString(this.addr[c] as number));
    return out;
  }

  /** Stores a node's new state; returns what it replaces (undefined when it is new). */
  put(path: string, stat: Stat, data: T): { old: CachedNode<T> | undefined; node: CachedNode<T> } {
    const names = this.segments(path);
    const keepBytes = this.bytes ? (data as Uint8Array | undefined) : undefined;
    const last = names.length === 0 ? '' : (names[names.length - 1] as string);
    // A slot made here gets the node's record at once; missing parents get placeholders.
    let fresh = false;
    if (this.top === NONE) {
      this.top = this.alloc(NONE);
      fresh = names.length === 0;
      this.addr[this.top] = fresh ? this.arena.append('', stat, keepBytes) : this.arena.append('', undefined, undefined);
    }
    let slot = this.top;
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      let kid = this.lookup(slot, name);
      if (kid === NONE) {
        kid = this.alloc(slot);
        fresh = i === names.length - 1;
        this.addr[kid] = fresh ? this.arena.append(name, stat, keepBytes) : this.arena.append(name, undefined, undefined);
        this.index(kid);
      }
      slot = kid;
    }
    let old: CachedNode<T> | undefined;
    if (!fresh) {
      const before = this.addr[slot] as number;
      old = this.arena.isGhost(before) ? undefined : this.nodeAt(slot);
      this.addr[slot] = this.arena.append(last, stat, keepBytes);
      this.arena.release(before);
    }
    if (old === undefined) this.count++;
    if (!this.bytes && (data !== undefined || this.values !== undefined)) (this.values ??= [])[slot] = data;
    const node = this.nodeAt(slot);
    this.compactIfWasteful();
    return { old, node };
  }

  /** Copies the live records into a fresh arena once garbage outweighs them (old chunks stay readable). */
  private compactIfWasteful(): void {
    const arena = this.arena;
    if (arena.garbage < Math.max(arena.live, 256 * 1024) && !arena.full) return;
    const fresh = new Arena();
    fresh.inherit(arena);
    for (let s = 0; s < this.used; s++) {
      const a = this.addr[s] as number;
      if (a !== FREE) this.addr[s] = arena.moveTo(fresh, a);
    }
    this.arena = fresh;
  }

  /**
   * Removes `path` and everything under it (a path above the root removes the whole view); returns the real
   * nodes removed, deepest first. `keep(path)` spares a node (and what hangs under it) that is known to be back.
   */
  removeSubtree(path: string, keep: (path: string) => boolean = () => false): Removed<T>[] {
    const out: Removed<T>[] = [];
    let slot: number;
    let at = path;
    if (this.depthOf(path) >= 0) slot = this.find(path);
    else if (this.top !== NONE && (path === '/' || this.root.startsWith(`${path}/`))) {
      slot = this.top;
      at = this.root;
    } else return out;
    if (slot === NONE) return out;
    const parent = this.parent[slot] as number;
    if (this.collect(slot, at, this.depthOf(at), keep, out)) {
      if (slot === this.top) this.top = NONE;
      this.prune(parent);
    }
    this.compactIfWasteful();
    return out;
  }

  /** Post-order removal under `slot`; true when `slot` itself is gone (not kept, nothing kept below it). */
  private collect(slot: number, path: string, depth: number, keep: (path: string) => boolean, out: Removed<T>[]): boolean {
    for (let c = this.first[slot] as number; c !== NONE; ) {
      const after = this.next[c] as number;
      this.collect(c, this.pathOf(path, this.arena.nameString(this.addr[c] as number)), depth + 1, keep, out);
      c = after;
    }
    const real = this.isReal(slot);
    const kept = real && keep(path);
    if (kept) return false;
    if (real) {
      this.count--;
      out.push({ path, old: this.nodeAt(slot), depth });
    }
    if (this.first[slot] !== NONE) {
      // Something below was kept: this node stays as a ghost holding it.
      if (real) {
        const before = this.addr[slot] as number;
        this.addr[slot] = this.arena.append(this.arena.nameString(before), undefined, undefined);
        this.arena.release(before);
        if (this.values !== undefined) this.values[slot] = undefined;
      }
      return false;
    }
    this.free(slot);
    return true;
  }

  /** Drops ghosts left without children, from `slot` up. */
  private prune(slot: number): void {
    while (slot !== NONE && this.first[slot] === NONE && !this.isReal(slot)) {
      const up = this.parent[slot] as number;
      if (slot === this.top) this.top = NONE;
      this.free(slot);
      slot = up;
    }
  }

  /** Every real node, parents before children. */
  *entries(): IterableIterator<[string, CachedNode<T>]> {
    if (this.top === NONE) return;
    const stack: [number, string][] = [[this.top, this.root]];
    while (stack.length > 0) {
      const [slot, path] = stack.pop() as [number, string];
      if (this.isReal(slot)) yield [path, this.nodeAt(slot)];
      for (let c = this.first[slot] as number; c !== NONE; c = this.next[c] as number) {
        stack.push([c, this.pathOf(path, this.arena.nameString(this.addr[c] as number))]);
      }
    }
  }
}
