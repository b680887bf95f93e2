/**
 * Client-side watch bookkeeping (Java's ZKWatchManager), keyed by SERVER paths (chroot included) because
 * that is what notifications carry and what SetWatches must send.
 *
 * - One-shot watches: data, exist, child. Several watchers on one path share one server watch: the server
 *   keeps one watch per path and connection, so re-registering is idempotent there and fan-out happens here.
 * - Persistent and persistent-recursive watches: recursive ones match every ancestor and ignore
 *   childrenChanged, as the server may still send it.
 * - `materialize` removes the one-shot watchers an event triggers and returns every watcher to call.
 */
import { Buffer } from 'node:buffer';
import type { EventTypeName } from '../types.js';
import { ancestors } from '../paths.js';

/** A watcher as the manager sees it: fired with an event, or failed when the session ends. */
export interface Watcher {
  fire(event: { type: EventTypeName; serverPath: string; zxid: bigint }): void;
  /** Session over (expired/closed/auth-failed): a one-shot promise rejects; listeners just stop. */
  fail(error: Error): void;
}

export type OneShotKind = 'data' | 'exist' | 'child';
export type PersistentKind = 'persistent' | 'persistent-recursive';

type WatchTable = Map<string, Set<Watcher>>;

function add(table: WatchTable, path: string, watcher: Watcher): void {
  let set = table.get(path);
  if (set === undefined) {
    set = new Set();
    table.set(path, set);
  }
  set.add(watcher);
}

function take(table: WatchTable | undefined, path: string, into: Set<Watcher>): void {
  const set = table?.get(path);
  if (table === undefined || set === undefined) return;
  table.delete(path);
  for (const w of set) into.add(w);
}

export interface WatchSnapshot {
  data: string[];
  exist: string[];
  child: string[];
  persistent: string[];
  persistentRecursive: string[];
}

/** How many paths hold a watch of each kind (what the server keeps for the session). */
export interface WatchCounts {
  data: number;
  exist: number;
  child: number;
  persistent: number;
  persistentRecursive: number;
}

/** Read side of an absent table: nothing is ever written to it (see `WatchManager.tables`). */
const NO_WATCHES: ReadonlyMap<string, Set<Watcher>> = new Map();

export class WatchManager {
  /**
   * One table per kind, made on the first registration: most sessions use one or two kinds, and an idle
   * session in a pool of thousands should not carry five empty Maps (about 180 bytes each).
   */
  private readonly tables: { [K in OneShotKind | PersistentKind]?: WatchTable } = {};

  private table(kind: OneShotKind | PersistentKind): ReadonlyMap<string, Set<Watcher>> {
    return this.tables[kind] ?? NO_WATCHES;
  }

  private writable(kind: OneShotKind | PersistentKind): WatchTable {
    return (this.tables[kind] ??= new Map());
  }

  register(kind: OneShotKind | PersistentKind, serverPath: string, watcher: Watcher): void {
    add(this.writable(kind), serverPath, watcher);
  }

  /** Removes one watcher; returns true when it was the last of its kind on that path (the server watch can go). */
  unregister(kind: OneShotKind | PersistentKind, serverPath: string, watcher: Watcher): boolean {
    const table = this.tables[kind];
    const set = table?.get(serverPath);
    if (table === undefined || set === undefined || !set.delete(watcher)) return false;
    if (set.size > 0) return false;
    table.delete(serverPath);
    return true;
  }

  /** Whether this watcher is registered for `kind` on the path. */
  holds(kind: OneShotKind | PersistentKind, serverPath: string, watcher: Watcher): boolean {
    return this.table(kind).get(serverPath)?.has(watcher) ?? false;
  }

  has(kind: OneShotKind | PersistentKind, serverPath: string): boolean {
    return (this.table(kind).get(serverPath)?.size ?? 0) > 0;
  }

  /** Removes every watcher of the kinds given on a path; returns them. */
  removeAll(kinds: readonly (OneShotKind | PersistentKind)[], serverPath: string): Set<Watcher> {
    const out = new Set<Watcher>();
    for (const kind of kinds) take(this.tables[kind], serverPath, out);
    return out;
  }

  /** The watchers an event triggers (ZKWatchManager.materialize); one-shot ones are removed. */
  materialize(type: EventTypeName, serverPath: string): Set<Watcher> {
    const out = new Set<Watcher>();
    switch (type) {
      case 'created':
      case 'dataChanged':
        take(this.tables.data, serverPath, out);
        take(this.tables.exist, serverPath, out);
        break;
      case 'deleted':
        take(this.tables.data, serverPath, out);
        take(this.tables.exist, serverPath, out);
        take(this.tables.child, serverPath, out);
        break;
      case 'childrenChanged':
        take(this.tables.child, serverPath, out);
        break;
      default:
        return out;
    }
    for (const w of this.table('persistent').get(serverPath) ?? []) out.add(w);
    const recursive = this.tables['persistent-recursive'];
    if (type !== 'childrenChanged' && recursive !== undefined) {
      for (const w of recursive.get(serverPath) ?? []) out.add(w);
      for (const a of ancestors(serverPath)) for (const w of recursive.get(a) ?? []) out.add(w);
    }
    return out;
  }

  /** Paths to re-set after a reconnect. */
  snapshot(): WatchSnapshot {
    return {
      data: [...this.table('data').keys()],
      exist: [...this.table('exist').keys()],
      child: [...this.table('child').keys()],
      persistent: [...this.table('persistent').keys()],
      persistentRecursive: [...this.table('persistent-recursive').keys()],
    };
  }

  counts(): WatchCounts {
    return {
      data: this.table('data').size,
      exist: this.table('exist').size,
      child: this.table('child').size,
      persistent: this.table('persistent').size,
      persistentRecursive: this.table('persistent-recursive').size,
    };
  }

  get size(): number {
    let n = 0;
    for (const t of Object.values(this.tables)) n += t.size;
    return n;
  }

  /**
   * The session is over: forget the watchers (every one, or only the one-shot ones when persistent watches go
   * on in a renewed session) and return them (the caller fails them in order).
   */
  takeAll(options: { keepPersistent?: boolean } = {}): Set<Watcher> {
    const out = new Set<Watcher>();
    const kinds: readonly (OneShotKind | PersistentKind)[] =
      options.keepPersistent === true ? ['data', 'exist', 'child'] : ['data', 'exist', 'child', 'persistent', 'persistent-recursive'];
    for (const kind of kinds) {
      for (const set of this.table(kind).values()) for (const w of set) out.add(w);
      this.tables[kind]?.clear();
    }
    return out;
  }

  /** Every persistent and persistent-recursive watcher with its server path. */
  persistentWatchers(): { serverPath: string; watcher: Watcher }[] {
    const out: { serverPath: string; watcher: Watcher }[] = [];
    for (const kind of ['persistent', 'persistent-recursive'] as const) {
      for (const [serverPath, set] of this.table(kind)) for (const watcher of set) out.push({ serverPath, watcher });
    }
    return out;
  }
}

/** SetWatches batches: at most 128 KB of path bytes each (ZOOKEEPER-706 caps Java's at 128 K characters). */
export const SET_WATCHES_MAX_LENGTH = 128 * 1024;

export interface SetWatchesBatch extends WatchSnapshot {
  /** Only batches holding persistent watches need op 105 (servers before 3.6 reject it). */
  needsSetWatches2: boolean;
}

export function setWatchesBatches(snapshot: WatchSnapshot, maxLength = SET_WATCHES_MAX_LENGTH): SetWatchesBatch[] {
  const batches: SetWatchesBatch[] = [];
  let cur: SetWatchesBatch | null = null;
  let length = 0;
  const kinds = ['data', 'exist', 'child', 'persistent', 'persistentRecursive'] as const;
  for (const kind of kinds) {
    for (const path of snapshot[kind]) {
      const size = Buffer.byteLength(path, 'utf8');
      if (cur === null || (length > 0 && length + size > maxLength)) {
        cur = { data: [], exist: [], child: [], persistent: [], persistentRecursive: [], needsSetWatches2: false };
        batches.push(cur);
        length = 0;
      }
      cur[kind].push(path);
      length += size;
      if (kind === 'persistent' || kind === 'persistentRecursive') cur.needsSetWatches2 = true;
    }
  }
  return batches;
}
