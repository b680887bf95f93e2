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

/**
 * A path's watchers of one kind: the watcher itself while it is the only one (almost always: one listener per
 * path), a Set from the second on. A Set holding one entry costs ~100 bytes more than the reference, per
 * watched path, and a Set to visit on every event.
 */
type Slot = Watcher | Set<Watcher>;
type WatchTable = Map<string, Slot>;

function add(table: WatchTable, path: string, watcher: Watcher): void {
  const slot = table.get(path);
  if (slot === undefined) table.set(path, watcher);
  else if (slot instanceof Set) slot.add(watcher);
  else if (slot !== watcher) table.set(path, new Set([slot, watcher]));
}

function slotHas(slot: Slot | undefined, watcher: Watcher): boolean {
  return slot instanceof Set ? slot.has(watcher) : slot === watcher;
}

function slotSize(slot: Slot | undefined): number {
  return slot === undefined ? 0 : slot instanceof Set ? slot.size : 1;
}

/** Adds the slot's watchers to `into` (a watcher in several slots is called once). */
function addAll(slot: Slot | undefined, into: Set<Watcher>): void {
  if (slot === undefined) return;
  if (slot instanceof Set) for (const w of slot) into.add(w);
  else into.add(slot);
}

function take(table: WatchTable | undefined, path: string, into: Set<Watcher>): void {
  const slot = table?.get(path);
  if (table === undefined || slot === undefined) return;
  table.delete(path);
  addAll(slot, into);
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

type Tables = { [K in OneShotKind | PersistentKind]?: WatchTable };
const NO_TABLES: Tables = Object.freeze({});

/** Read side of an absent table: nothing is ever written to it (see `WatchManager.tables`). */
const NO_WATCHES: ReadonlyMap<string, Slot> = new Map();

export class WatchManager {
  /**
   * One table per kind, made on the first registration: most sessions use one or two kinds, and an idle
   * session in a pool of thousands should not carry five empty Maps (about 180 bytes each), nor the record
   * that holds them (NO_TABLES, shared, until the first).
   */
  private tables: Tables = NO_TABLES;

  private table(kind: OneShotKind | PersistentKind): ReadonlyMap<string, Slot> {
    return this.tables[kind] ?? NO_WATCHES;
  }

  private writable(kind: OneShotKind | PersistentKind): WatchTable {
    if (this.tables === NO_TABLES) this.tables = {};
    return (this.tables[kind] ??= new Map());
  }

  register(kind: OneShotKind | PersistentKind, serverPath: string, watcher: Watcher): void {
    add(this.writable(kind), serverPath, watcher);
  }

  /** Removes one watcher; returns true when it was the last of its kind on that path (the server watch can go). */
  unregister(kind: OneShotKind | PersistentKind, serverPath: string, watcher: Watcher): boolean {
    const table = this.tables[kind];
    const slot = table?.get(serverPath);
    if (table === undefined || slot === undefined) return false;
    if (slot instanceof Set) {
      if (!slot.delete(watcher)) return false;
      // Back to the single-watcher form, so a path's bytes stay as small as if the others had never come.
      if (slot.size === 1) table.set(serverPath, slot.values().next().value as Watcher);
      return false;
    }
    if (slot !== watcher) return false;
    table.delete(serverPath);
    return true;
  }

  /** Whether this watcher is registered for `kind` on the path. */
  holds(kind: OneShotKind | PersistentKind, serverPath: string, watcher: Watcher): boolean {
    return slotHas(this.table(kind).get(serverPath), watcher);
  }

  has(kind: OneShotKind | PersistentKind, serverPath: string): boolean {
    return slotSize(this.table(kind).get(serverPath)) > 0;
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
    addAll(this.table('persistent').get(serverPath), out);
    const recursive = this.tables['persistent-recursive'];
    if (type !== 'childrenChanged' && recursive !== undefined) {
      addAll(recursive.get(serverPath), out);
      for (const a of ancestors(serverPath)) addAll(recursive.get(a), out);
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
    // for…in, not Object.values: every reconnect asks (watches.ts replayBatches), most sessions have no table.
    let n = 0;
    for (const kind in this.tables) n += this.tables[kind as OneShotKind | PersistentKind]?.size ?? 0;
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
      for (const slot of this.table(kind).values()) addAll(slot, out);
      this.tables[kind]?.clear();
    }
    return out;
  }

  /** Every persistent and persistent-recursive watcher with its server path. */
  persistentWatchers(): { serverPath: string; watcher: Watcher }[] {
    const out: { serverPath: string; watcher: Watcher }[] = [];
    for (const kind of ['persistent', 'persistent-recursive'] as const) {
      for (const [serverPath, slot] of this.table(kind)) {
        if (slot instanceof Set) for (const watcher of slot) out.push({ serverPath, watcher });
        else out.push({ serverPath, watcher: slot });
      }
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
