/**
 * Both watch managers of a server (data/exist and child), and the watch operations that span them: what the
 * data tree triggers, getData/exists/getChildren registrations, addWatch (persistent modes go in both
 * managers), setWatches/setWatches2 (DataTree.setWatches: fire at once for what changed after the client's
 * zxid, re-register the rest), checkWatches/removeWatches by WatcherType, and cleanup of a closed connection.
 */
import { EventType, type ACL } from '@zkts/protocol/codec';

import type { DataTree, WatchTrigger } from '../tree/data-tree.js';
import { WatchManager, type Watcher, type WatcherMode } from './watch-manager.js';

/** The lists a SetWatches/SetWatches2 record carries (null lists are empty). */
export interface WatchLists {
  relativeZxid: bigint;
  dataWatches: readonly (string | null)[] | null;
  existWatches: readonly (string | null)[] | null;
  childWatches: readonly (string | null)[] | null;
  persistentWatches?: readonly (string | null)[] | null;
  persistentRecursiveWatches?: readonly (string | null)[] | null;
}

function* present(list: readonly (string | null)[] | null | undefined): Generator<string> {
  for (const p of list ?? []) if (p !== null) yield p;
}

/** WatcherType numbers (checkWatches/removeWatches). */
const WatcherTypeCode = { Children: 1, Data: 2, Any: 3 } as const;

/** The data and child watch managers, wired to a data tree. */
export class WatchRegistry implements WatchTrigger {
  readonly data = new WatchManager();
  readonly child = new WatchManager();

  trigger(manager: 'data' | 'child', path: string, type: number, acl: readonly ACL[], suppress?: ReadonlySet<unknown>): ReadonlySet<unknown> {
    return (manager === 'data' ? this.data : this.child).trigger(path, type, acl, suppress);
  }

  /** addWatch (106): mode 0 persistent, 1 persistent-recursive; false for any other mode. */
  addPersistent(path: string, watcher: Watcher, mode: number): boolean {
    const m: WatcherMode | undefined = mode === 0 ? 'persistent' : mode === 1 ? 'persistentRecursive' : undefined;
    if (m === undefined) return false;
    this.data.add(path, watcher, m);
    this.child.add(path, watcher, m);
    return true;
  }

  /** DataTree.setWatches. */
  setWatches(tree: DataTree, lists: WatchLists, watcher: Watcher): void {
    for (const path of present(lists.dataWatches)) {
      const node = tree.getNode(path);
      if (node === undefined) watcher.notify(EventType.NodeDeleted, path);
      else if (node.stat.mzxid > lists.relativeZxid) watcher.notify(EventType.NodeDataChanged, path);
      else this.data.add(path, watcher);
    }
    for (const path of present(lists.existWatches)) {
      if (tree.getNode(path) !== undefined) watcher.notify(EventType.NodeCreated, path);
      else this.data.add(path, watcher);
    }
    for (const path of present(lists.childWatches)) {
      const node = tree.getNode(path);
      if (node === undefined) watcher.notify(EventType.NodeDeleted, path);
      else if (node.stat.pzxid > lists.relativeZxid) watcher.notify(EventType.NodeChildrenChanged, path);
      else this.child.add(path, watcher);
    }
    for (const path of present(lists.persistentWatches)) {
      this.child.add(path, watcher, 'persistent');
      this.data.add(path, watcher, 'persistent');
    }
    for (const path of present(lists.persistentRecursiveWatches)) {
      this.child.add(path, watcher, 'persistentRecursive');
      this.data.add(path, watcher, 'persistentRecursive');
    }
  }

  /** checkWatches: undefined for a WatcherType ZooKeeper 3.8.0 does not parse here (a marshalling error), 4 and 5 included. */
  contains(path: string, type: number): boolean | undefined {
    switch (type) {
      case WatcherTypeCode.Children:
        return this.child.contains(path);
      case WatcherTypeCode.Data:
        return this.data.contains(path);
      case WatcherTypeCode.Any:
        return this.child.contains(path) || this.data.contains(path);
      default:
        return undefined;
    }
  }

  /** removeWatches: undefined for an unparsable WatcherType. */
  remove(path: string, type: number, watcher: Watcher): boolean | undefined {
    switch (type) {
      case WatcherTypeCode.Children:
        return this.child.remove(path, watcher);
      case WatcherTypeCode.Data:
        return this.data.remove(path, watcher);
      case WatcherTypeCode.Any: {
        const c = this.child.remove(path, watcher);
        const d = this.data.remove(path, watcher);
        return c || d;
      }
      default:
        return undefined;
    }
  }

  /** A connection closed: its watches go (WatchManager.removeWatcher). */
  removeWatcher(watcher: Watcher): void {
    this.data.removeAll(watcher);
    this.child.removeAll(watcher);
  }
}
