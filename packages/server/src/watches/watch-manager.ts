/**
 * Watch bookkeeping for one kind of watch (org.apache.zookeeper.server.watch.WatchManager): ZooKeeper keeps
 * one manager for data/exist watches and one for child watches. Each (watcher, path) pair has one mode —
 * standard (one-shot), persistent or persistent-recursive — and setting a watch again replaces the mode, as
 * WatcherModeManager does. A trigger walks the path and, when recursive watches exist, its ancestors; each
 * watcher gets at most one event per trigger, and only if it may READ the node (NIOServerCnxn.process, the
 * CVE-2024-23944 fix that Debian's 3.8.0 and ZooKeeper 3.8.4 carry).
 */
import { Perms, type ACL } from '@zkts/protocol/codec';

import { hasPermission, type AuthId } from '../tree/acl.js';

/** A connection that receives watch events. */
export interface Watcher {
  /** The connection's identities, for the READ check on delivery. */
  readonly authInfo: readonly AuthId[];
  /** Queues a notification (xid -1) on the connection. */
  notify(type: number, path: string): void;
}

/** WatcherMode. */
export type WatcherMode = 'standard' | 'persistent' | 'persistentRecursive';

/** The paths from `path` up to '/', the path itself first (PathParentIterator.forAll). */
function* pathAndParents(path: string): Generator<string> {
  yield path;
  let p = path;
  while (p.length > 1) {
    const slash = p.lastIndexOf('/');
    p = slash <= 0 ? '/' : p.slice(0, slash);
    yield p;
  }
}

/** Watches of one kind, by path then watcher. */
export class WatchManager {
  private readonly table = new Map<string, Map<Watcher, WatcherMode>>();
  private recursive = 0;

  /** addWatch: adds or re-moded `watcher` on `path`. */
  add(path: string, watcher: Watcher, mode: WatcherMode = 'standard'): void {
    let watchers = this.table.get(path);
    if (watchers === undefined) {
      watchers = new Map();
      this.table.set(path, watchers);
    }
    const previous = watchers.get(watcher);
    if (previous === 'persistentRecursive') this.recursive--;
    if (mode === 'persistentRecursive') this.recursive++;
    watchers.set(watcher, mode);
  }

  /** removeWatcher(path, watcher): false when that watcher had no watch on `path`. */
  remove(path: string, watcher: Watcher): boolean {
    const watchers = this.table.get(path);
    const mode = watchers?.get(watcher);
    if (watchers === undefined || mode === undefined) return false;
    watchers.delete(watcher);
    if (mode === 'persistentRecursive') this.recursive--;
    if (watchers.size === 0) this.table.delete(path);
    return true;
  }

  /** removeWatcher(watcher): drops every watch of a closed connection. */
  removeAll(watcher: Watcher): void {
    for (const [path, watchers] of this.table) {
      const mode = watchers.get(watcher);
      if (mode === undefined) continue;
      watchers.delete(watcher);
      if (mode === 'persistentRecursive') this.recursive--;
      if (watchers.size === 0) this.table.delete(path);
    }
  }

  /**
   * containsWatcher as ZooKeeper 3.8 answers it: true when any watcher (not only this one) watches `path`
   * itself. Its ancestor walk can only succeed when this first test already did.
   */
  contains(path: string): boolean {
    return this.table.has(path);
  }

  /** Whether `watcher` has a watch of `mode` on `path` (for tests and setWatches bookkeeping). */
  modeOf(path: string, watcher: Watcher): WatcherMode | undefined {
    return this.table.get(path)?.get(watcher);
  }

  /** Every watched path with its watchers (the dumps of the four-letter words). */
  *entries(): Generator<[string, Iterable<Watcher>]> {
    for (const [path, watchers] of this.table) yield [path, watchers.keys()];
  }

  /** Number of (path, watcher) pairs. */
  get size(): number {
    let n = 0;
    for (const w of this.table.values()) n += w.size;
    return n;
  }

  /** triggerWatch: delivers `type` on `path`; one-shot watches fire once and go. Returns who was notified. */
  trigger(path: string, type: number, acl: readonly ACL[], suppress?: ReadonlySet<unknown>): Set<Watcher> {
    const hit = new Set<Watcher>();
    const paths = this.recursive === 0 ? [path] : pathAndParents(path);
    for (const local of paths) {
      const watchers = this.table.get(local);
      if (watchers === undefined) continue;
      const atPath = local === path;
      for (const [watcher, mode] of watchers) {
        if (mode === 'persistentRecursive') {
          if (type !== 4 /* NodeChildrenChanged */) hit.add(watcher);
        } else if (atPath) {
          hit.add(watcher);
          if (mode === 'standard') watchers.delete(watcher);
        }
      }
      if (watchers.size === 0) this.table.delete(local);
    }
    for (const watcher of hit) {
      if (suppress?.has(watcher) === true) continue;
      if (!hasPermission(acl, Perms.READ, watcher.authInfo)) continue;
      watcher.notify(type, path);
    }
    return hit;
  }
}
