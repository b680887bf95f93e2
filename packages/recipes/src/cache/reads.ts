/**
 * The reads a cache makes, for one watch scheme. With a persistent watch the reads set no watch; with one-shot
 * watches (servers before 3.6, or `watchMode: 'one-shot'`) every read re-arms the watch it stands for, with the
 * cache's one listener (so the client keeps one watcher per path however often it is set, and delivers its events
 * in wire order with the replies, which a promise-based watch would not).
 *
 * A node that does not exist reads as null; every other failure is the caller's to judge.
 */
import { parentPath, type Stat, type WatchListener } from '@zkts/protocol';

import { isNoNode } from '../zk.js';
import type { CacheClient } from './client.js';

export interface DataRead {
  stat: Stat;
  /** undefined when the cache keeps Stats only (the read was an exists). */
  bytes: Uint8Array | undefined;
}

export interface ChildrenRead {
  children: string[];
  stat: Stat;
}

function orNull<R>(promise: Promise<R>): Promise<R | null> {
  return promise.catch((e: unknown) => {
    if (isNoNode(e)) return null;
    throw e;
  });
}

export class Reads {
  private readonly client: CacheClient;
  private readonly withBytes: boolean;
  /** Set in one-shot mode: the listener every read arms. */
  private listener: WatchListener | undefined;

  constructor(client: CacheClient, withBytes: boolean) {
    this.client = client;
    this.withBytes = withBytes;
  }

  get oneShot(): boolean {
    return this.listener !== undefined;
  }

  useOneShot(listener: WatchListener): void {
    this.listener = listener;
  }

  /**
   * A node's Stat and (unless Stats only) data. In one-shot mode the root is read with exists first: only exists
   * leaves a watch on a node that is missing, and the root's creation must be heard.
   */
  async data(path: string, isRoot: boolean): Promise<DataRead | null> {
    const watch = this.listener;
    if (watch !== undefined && !this.withBytes) {
      const stat = await this.client.exists(path, { watch });
      return stat === null ? null : { stat, bytes: undefined };
    }
    if (watch !== undefined && isRoot) {
      // Both requests go out together (nothing of the cache's can come between them on the wire); the data read
      // decides, unless the node is missing, and then the exists has left its watch.
      const [, read] = await Promise.all([this.client.exists(path, { watch }), orNull(this.client.getData(path, { watch }))]);
      return read === null ? null : { stat: read.stat, bytes: read.data };
    }
    if (!this.withBytes) {
      const stat = await this.client.exists(path);
      return stat === null ? null : { stat, bytes: undefined };
    }
    const read = await orNull(watch === undefined ? this.client.getData(path) : this.client.getData(path, { watch }));
    return read === null ? null : { stat: read.stat, bytes: read.data };
  }

  children(path: string): Promise<ChildrenRead | null> {
    const watch = this.listener;
    return orNull(watch === undefined ? this.client.getChildren(path) : this.client.getChildren(path, { watch }));
  }

  /** The Stat of `path`'s parent (for its pzxid), or null when the parent is gone too. */
  parentStat(path: string): Promise<Stat | null> {
    return this.client.exists(parentPath(path));
  }

  /** In one-shot mode, arms the exist watch on a root that was found missing (so its creation is heard). */
  async armRoot(path: string): Promise<Stat | null> {
    const watch = this.listener;
    return watch === undefined ? null : this.client.exists(path, { watch });
  }
}
