/**
 * Curator's SimpleDistributedQueue (the ZooKeeper distribution's DistributedQueue layout): items are
 * PERSISTENT_SEQUENTIAL children `<path>/qn-<seq>` holding the bytes; the head is the first `qn-` name in string
 * order (Java's Collections.sort, which is also JavaScript's default sort: both compare UTF-16 code units), other
 * children are skipped. offer/peek/element/remove/poll/take keep Curator's meaning; the queue path is made as a
 * container on use, as Curator's EnsurePathContainers does.
 *
 * Taking is exact where Curator's is not: Curator reads then deletes, and a delete whose reply is lost is retried
 * into NoNode, so the item is lost. Here the delete runs in one multi with an EPHEMERAL receipt (claim.ts) named
 * `<path>/zkts-claim-<item>`: not `qn-`, so Curator's consumers skip it; it is deleted right after the claim
 * (or, if that delete meets a connection loss, goes with our session). A
 * lost reply is settled by the receipt: each item goes to exactly one consumer, zkts's or Curator's.
 * Offering is as Curator's: a create whose reply is lost is sent again, so such an item may be queued twice
 * (the `qn-` name leaves no room for a protected prefix Curator's consumers would still take).
 */
import { joinPath, type ACL, type ZkError } from '@zkts/protocol';

import { QueueEmptyError } from '../errors.js';
import {
  aclRule, checkArg, checkClientAndPath, checkOptions, withAcl, checkpoint, checkWait, childrenOrEmpty, ensureDir, isNoNode, openScope, retrying, rules, within,
  type Data, type RecipeClient, type Scope, type WaitOptions,
} from '../internal/index.js';
import { claimByDelete } from './claim.js';

const PREFIX = 'qn-';

/** Curator SimpleDistributedQueue: `qn-` PERSISTENT_SEQUENTIAL items taken in name order; a take is exact even when a reply is lost. */
export class SimpleDistributedQueue {
  readonly client: RecipeClient;
  readonly path: string;

  /** `acl`: the ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  constructor(client: RecipeClient, path: string, options: { acl?: ACL[] } = {}) {
    checkClientAndPath('SimpleDistributedQueue', client, path);
    checkOptions('SimpleDistributedQueue', options, { acl: aclRule });
    this.client = withAcl(client, options.acl);
    this.path = path;
  }

  /** Appends an item (Curator's offer); resolves true once it is queued. */
  async offer(data: Data): Promise<true> {
    checkArg('SimpleDistributedQueue.offer', 'data', data, rules.data);
    await ensureDir(this.client, this.path);
    await retrying(this.client, async () => {
      try {
        await this.client.create(joinPath(this.path, PREFIX), data, { mode: 'persistent-sequential' });
      } catch (e) {
        if (!isNoNode(e)) throw e;
        await ensureDir(this.client, this.path); // the container went while empty: make it again
        await this.client.create(joinPath(this.path, PREFIX), data, { mode: 'persistent-sequential' });
      }
    });
    return true;
  }

  /** The head item's data without taking it, or null when the queue is empty. */
  async peek(): Promise<Uint8Array | null> {
    return this.head(await childrenOrEmpty(this.client, this.path), false);
  }

  /** The head item's data without taking it; QueueEmptyError when the queue is empty. */
  async element(): Promise<Uint8Array> {
    return (await this.peek()) ?? Promise.reject(new QueueEmptyError(this.path));
  }

  /** Takes the head item; QueueEmptyError when the queue is empty. */
  async remove(): Promise<Uint8Array> {
    return (await this.head(await childrenOrEmpty(this.client, this.path), true)) ?? Promise.reject(new QueueEmptyError(this.path));
  }

  /**
   * Takes the head item, or null when there is none. With `timeout`, waits up to that long for one first (null
   * when it passes, as Curator's poll(timeout, unit)); `signal` aborts the wait with AbortError.
   */
  async poll(options: WaitOptions = {}): Promise<Uint8Array | null> {
    checkWait('SimpleDistributedQueue.poll', options);
    if (options.timeout === undefined && options.signal === undefined) return this.head(await childrenOrEmpty(this.client, this.path), true);
    try {
      return await this.waitAndTake(options);
    } catch (e) {
      if ((e as ZkError).code === 'TIMEOUT' && options.signal?.aborted !== true) return null;
      throw e;
    }
  }

  /** Waits for an item and takes it (Curator's take); `timeout` and `signal` end the wait with TimeoutError / AbortError. */
  async take(options: WaitOptions = {}): Promise<Uint8Array> {
    checkWait('SimpleDistributedQueue.take', options);
    return this.waitAndTake(options);
  }

  private async waitAndTake(options: WaitOptions): Promise<Uint8Array> {
    const scope: Scope = openScope(options, `queue ${this.path}`);
    try {
      for (;;) {
        checkpoint(scope);
        let read: { children: string[]; watch?: Promise<unknown> };
        try {
          read = await within(scope, retrying(this.client, () => this.client.getChildren(this.path, { watch: true })));
        } catch (e) {
          if (!isNoNode(e)) throw e;
          await within(scope, ensureDir(this.client, this.path));
          continue;
        }
        // Not cut by the scope: a claim that committed must hand its item back, or the item would be lost.
        const item = await this.head(read.children, true);
        if (item !== null) return item;
        if (read.watch !== undefined) await within(scope, read.watch.catch(() => undefined));
      }
    } finally {
      scope?.dispose();
    }
  }

  /** The first `qn-` item still there, read (and with `take`, claimed); null when none is left. */
  private async head(children: readonly string[], take: boolean): Promise<Uint8Array | null> {
    const { client } = this;
    for (const name of children.filter((c) => c.startsWith(PREFIX)).sort()) {
      const item = joinPath(this.path, name);
      let data: Uint8Array;
      try {
        data = (await retrying(client, () => client.getData(item))).data;
      } catch (e) {
        if (isNoNode(e)) continue; // another consumer took it: try the next
        throw e;
      }
      if (!take || (await claimByDelete(client, { item, receipt: joinPath(this.path, `zkts-claim-${name}`) }))) return data;
    }
    return null;
  }
}
