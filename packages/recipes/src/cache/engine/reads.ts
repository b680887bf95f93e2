/**
 * The reads a cache makes, for one watch scheme. With a persistent watch the reads set no watch; with one-shot
 * watches (servers before 3.6, or `watchMode: 'one-shot'`) every read re-arms the watch it stands for, with the
 * cache's one listener (so the client keeps one watcher per path however often it is set, and delivers its events
 * in wire order with the replies, which a promise-based watch would not).
 *
 * A node that does not exist reads as null; every other failure is the caller's to judge.
 */
import { ProtocolError, parentPath, type Stat, type WatchListener } from '@zkts/protocol';

import { isNoNode, isUnimplemented } from '../../internal/index.js';
import type { CacheClient } from '../client.js';

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

/**
 * Batches of full reads (multiRead): a request per node is what a large load costs on the server (10,000
 * getData take 10-30 times longer than 100 multiReads of 100), so a full read asks for many nodes at once. The
 * reply must stay under the client's maxPacket, and a node's size is only known once read: a batch holds at most
 * BATCH_BYTES of data, counting each node at the largest size the cache has seen (at least 4 KiB). A node far
 * larger than any before can still overflow it: the client then drops the connection once (a frame over
 * maxPacket), and the caches of that client read one node per request from then on.
 */
const BATCH_BYTES = 384 * 1024;
const BATCH_FLOOR = 4 * 1024;
const BATCH_MAX = 100;

/**
 * What the caches of one client learnt about batching, shared by them (a fact about the client's server and
 * data, so a second cache does not overflow a reply the first one already did): the largest data length read,
 * and whether batches are off for good.
 */
interface Learnt {
  biggest: number;
  off: boolean;
}
const learnt = new WeakMap<CacheClient, Learnt>();

export class Reads {
  private readonly client: CacheClient;
  private readonly withBytes: boolean;
  private readonly wanted: boolean;
  private readonly learnt: Learnt;
  /** Set in one-shot mode: the listener every read arms. */
  private listener: WatchListener | undefined;

  constructor(client: CacheClient, withBytes: boolean, batching: boolean) {
    this.client = client;
    this.withBytes = withBytes;
    this.wanted = batching && client.multiRead !== undefined;
    let known = learnt.get(client);
    if (known === undefined) learnt.set(client, (known = { biggest: 0, off: false }));
    this.learnt = known;
  }

  /** How many nodes one batch may hold now (1: no batches). */
  get batchSize(): number {
    if (!this.wanted || this.learnt.off || this.oneShot) return 1;
    return Math.max(1, Math.min(BATCH_MAX, Math.floor(BATCH_BYTES / Math.max(BATCH_FLOOR, this.learnt.biggest))));
  }

  /** A node's size was learnt. */
  saw(stat: Stat): void {
    if (stat.dataLength > this.learnt.biggest) this.learnt.biggest = stat.dataLength;
  }

  /**
   * Several nodes' Stats and data in one request. Each slot: the read, null (no such node), or the error of that
   * node alone. A server without multiRead, or a reply too big for the client, switches batching off (and the
   * error propagates: the caller's full read starts over).
   */
  async dataBatch(paths: string[]): Promise<(DataRead | null | Error)[]> {
    const multiRead = this.client.multiRead;
    if (multiRead === undefined) throw new Error('multiRead unavailable');
    try {
      const results = await multiRead.call(this.client, paths.map((path) => ({ op: 'getData' as const, path })));
      return results.map((r) => {
        if (r.op === 'getData') return { stat: r.stat, bytes: this.withBytes ? r.data : undefined };
        if (r.op === 'error') return isNoNode(r.error) ? null : r.error;
        return new Error(`unexpected multiRead result ${r.op}`);
      });
    } catch (e) {
      if (isUnimplemented(e) || (e instanceof Error && e.cause instanceof ProtocolError)) this.learnt.off = true;
      throw e;
    }
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
