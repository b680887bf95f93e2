/**
 * A FIFO queue of PERSISTENT_SEQUENTIAL items `<path>/_c_<uuid>-qn-<seq>`, in sequence order. A consumer claims
 * an item by deleting it: the delete that succeeds owns the item, so each item goes to one consumer.
 * The delete runs in a multi with the create of an EPHEMERAL receipt `<item>.claim` holding a random token, so
 * a claim whose reply was lost is settled after the reconnect: the receipt with our token exists iff our multi
 * committed (it is ours until our session ends; we delete it right after). Exactly one consumer gets each item.
 * `offer` is protected too: if the create reply is lost, the uuid finds the item again instead of adding a second.
 * An offer is a `zkts:queue.put` trace, a poll or take a `zkts:queue.take` (internal/diagnostics.ts).
 */
import { joinPath, type ACL } from '@zkts/protocol';

import {
  aclRule, checkOptions, withAcl,
  byteLength, checkArg, checkClientAndPath, checkWait, rules, checkpoint, childrenAfterSync, childrenOrEmpty, ensureDir, isConnectionLoss, isNoNode, openScope, protectedPrefix,
  queuePut, queueTake, retrying, sortContenders, within, type Data, type MarkerTable, type QueueTrace, type RecipeClient, type WaitOptions,
} from '../internal/index.js';
import { claimByDelete } from './claim.js';

const ITEM_MARKERS: MarkerTable = { 'qn-': 'write' };

/**
 * A FIFO queue of nodes (`<path>/_c_<uuid>-qn-<seq>`). `offer` adds an item; `poll` takes the first or resolves
 * null, `take({ timeout, signal })` waits for one. A consumer claims an item by deleting it in one multi with an
 * ephemeral receipt, so an item is never delivered twice, even when a reply is lost.
 *
 * @example
 * ```ts
 * import { connect } from '@zkts/protocol';
 * import { Queue } from '@zkts/recipes';
 *
 * await using zk = await connect(process.env.ZKTS_SERVER ?? '127.0.0.1:2181');
 * const queue = new Queue(zk, '/example/queue');
 * await queue.offer('first');
 * await queue.offer('second');
 * console.log(new TextDecoder().decode(await queue.take({ timeout: 5_000 })), await queue.size());
 * const next = await queue.poll();
 * console.log(next === null ? 'empty' : new TextDecoder().decode(next), await queue.poll());
 * await zk.removeRecursive('/example');
 * // first 1
 * // second null
 * ```
 */
export class Queue {
  readonly client: RecipeClient;
  readonly path: string;

  /** `acl`: the ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  constructor(client: RecipeClient, path: string, options: { acl?: ACL[] } = {}) {
    checkClientAndPath('Queue', client, path);
    checkOptions('Queue', options, { acl: aclRule });
    this.client = withAcl(client, options.acl);
    this.path = path;
  }

  /** Appends an item; resolves with its node path. */
  async offer(data: Data): Promise<string> {
    checkArg('Queue.offer', 'data', data, rules.data);
    if (!queuePut.hasSubscribers) return this.append(data);
    const trace: QueueTrace = { recipe: 'Queue', path: this.path, bytes: byteLength(data) };
    return queuePut.tracePromise(async () => (trace.node = await this.append(data)), trace);
  }

  private async append(data: Data): Promise<string> {
    const { client } = this;
    const prefix = protectedPrefix(globalThis.crypto.randomUUID());
    for (;;) {
      try {
        return (await client.create(joinPath(this.path, `${prefix}qn-`), data, { mode: 'persistent-sequential' })).path;
      } catch (e) {
        if (isNoNode(e)) {
          await ensureDir(client, this.path);
          continue;
        }
        if (!isConnectionLoss(e)) throw e;
        await client.connected();
        const found = (await childrenAfterSync(client, this.path)).find((c) => c.startsWith(prefix));
        if (found !== undefined) return joinPath(this.path, found);
      }
    }
  }

  /** Takes the head item, or null when the queue is empty. */
  async poll(): Promise<Uint8Array | null> {
    const trace = this.takeTrace();
    return trace === undefined ? this.pollOnce() : queueTake.tracePromise(() => this.pollOnce(trace), trace);
  }

  private async pollOnce(trace?: QueueTrace): Promise<Uint8Array | null> {
    return this.claimFirst(await childrenOrEmpty(this.client, this.path), trace);
  }

  /** Waits for an item and takes it. */
  async take(options: WaitOptions = {}): Promise<Uint8Array> {
    checkWait('Queue.take', options);
    const trace = this.takeTrace();
    return trace === undefined ? this.waitAndTake(options) : queueTake.tracePromise(() => this.waitAndTake(options, trace), trace);
  }

  /** A take's context when somebody listens to `zkts:queue.take`. */
  private takeTrace(): QueueTrace | undefined {
    return queueTake.hasSubscribers ? { recipe: 'Queue', path: this.path } : undefined;
  }

  private async waitAndTake(options: WaitOptions, trace?: QueueTrace): Promise<Uint8Array> {
    const scope = openScope(options, `queue ${this.path}`);
    try {
      for (;;) {
        checkpoint(scope);
        let r: { children: string[]; watch?: Promise<unknown> };
        try {
          r = await within(scope, retrying(this.client, () => this.client.getChildren(this.path, { watch: true })));
        } catch (e) {
          if (!isNoNode(e)) throw e;
          await ensureDir(this.client, this.path);
          continue;
        }
        const item = await this.claimFirst(r.children, trace);
        if (item !== null) return item;
        if (r.watch !== undefined) await within(scope, r.watch);
      }
    } finally {
      scope?.dispose();
    }
  }

  /** Number of items now. */
  async size(): Promise<number> {
    return sortContenders(await childrenOrEmpty(this.client, this.path), ITEM_MARKERS).length;
  }

  /** Claims the first item still there; a traced take learns its node and size. */
  private async claimFirst(children: readonly string[], trace: QueueTrace | undefined): Promise<Uint8Array | null> {
    const { client } = this;
    for (const item of sortContenders(children, ITEM_MARKERS)) {
      const path = joinPath(this.path, item.name);
      let data: Uint8Array;
      try {
        data = (await retrying(client, () => client.getData(path))).data;
      } catch (e) {
        if (isNoNode(e)) continue; // another consumer took it
        throw e;
      }
      if (await this.claim(path)) {
        if (trace !== undefined) {
          trace.node = path;
          trace.bytes = data.byteLength;
        }
        return data;
      }
    }
    return null;
  }

  /** Deletes the item with a receipt in one multi; true if our claim committed. */
  private claim(item: string): Promise<boolean> {
    return claimByDelete(this.client, { item, receipt: `${item}.claim` });
  }
}
