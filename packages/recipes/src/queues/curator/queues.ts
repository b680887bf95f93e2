/**
 * Curator's queue family, node for node (names.ts, format.ts): DistributedQueue (FIFO), DistributedPriorityQueue
 * (lower priority first), DistributedDelayQueue (not before a time) and DistributedIdQueue (items with an id,
 * removable by id). A Curator process and a zkts process can put into and consume from the same queue.
 */
import { RecipeArgumentError } from '../../errors.js';
import { checkArg, childrenOrEmpty, retrying, rules, type Rule, type WaitOptions } from '../../internal/index.js';
import { claimByDelete } from '../claim.js';
import { joinPath } from '@zkts/protocol';
import { commitUnderLock, lockItem, unlockItem } from './item-lock.js';
import { delayLayout, delayMiddle, fixId, idLayout, idMiddle, idOf, plainLayout, priorityMiddle, sortItems, type ItemName } from './names.js';
import { CuratorQueueBase } from './queue-base.js';

const PRIORITY = rules.integer(-(2 ** 31), 2 ** 31 - 1);
/** Curator writes the due time in hex of a positive long; ms since 1970 as a safe integer. */
const DUE = rules.integer(1);

/** The name's middle from a put's positional argument, checked first (run by putMessages after its own checks). */
function checked<V>(name: string, value: V, rule: Rule, middle: (value: V) => string): (what: string) => string {
  return (what) => {
    checkArg(what, name, value, rule);
    return middle(value);
  };
}

/**
 * Curator's `DistributedQueue`: FIFO items `<path>/queue-<seq>` in Curator's item format, so Curator and zkts
 * producers and consumers share one queue. `put` resolves with the item's path and never adds an item twice, even
 * when the reply is lost; with `maxItems` it waits for room (`{ signal, timeout }`). Consume with a `consumer`
 * callback and `start()`, or `for await (const message of queue.messages())`. With `lockPath` (lock-safe), an item
 * is removed only after its consumer returned.
 *
 * @example
 * ```ts
 * import { connect } from '@zkts/protocol';
 * import { DistributedQueue, type QueueSerializer } from '@zkts/recipes';
 *
 * const text: QueueSerializer<string> = { serialize: (s) => new TextEncoder().encode(s), deserialize: (b) => new TextDecoder().decode(b) };
 * await using zk = await connect(process.env.ZKTS_SERVER ?? '127.0.0.1:2181');
 * {
 *   await using queue = new DistributedQueue(zk, '/example/queue', { serializer: text });
 *   await queue.put('first');
 *   await queue.putMulti(['second', 'third']); // one item, delivered together
 *   const received: string[] = [];
 *   // A message is finished when the loop asks for the next; leaving the loop gives the one in hand back.
 *   for await (const message of queue.messages()) if (received.push(message) === 3) break;
 *   console.log(received.join(', '), 'left', await queue.size(), 'of', (await queue.messages().next()).value);
 * }
 * await zk.removeRecursive('/example');
 * // first, second, third left 1 of third
 * ```
 */
export class DistributedQueue<T = Uint8Array> extends CuratorQueueBase<T> {
  protected readonly layout = plainLayout;

  /** Adds one message. */
  put(message: T, options: WaitOptions = {}): Promise<string> {
    return this.putMessages('DistributedQueue.put', () => '', [message], options);
  }

  /** Adds several messages as one item (one node), delivered together in this order (Curator's putMulti). */
  putMulti(messages: Iterable<T>, options: WaitOptions = {}): Promise<string> {
    return this.putMessages('DistributedQueue.putMulti', () => '', messages, options);
  }
}

/**
 * Curator's `DistributedPriorityQueue`: items `queue-<priority><seq>`, the lowest priority first, FIFO within one;
 * otherwise a {@link DistributedQueue}.
 *
 * @example
 * ```ts
 * import { connect } from '@zkts/protocol';
 * import { DistributedPriorityQueue, type QueueSerializer } from '@zkts/recipes';
 *
 * const text: QueueSerializer<string> = { serialize: (s) => new TextEncoder().encode(s), deserialize: (b) => new TextDecoder().decode(b) };
 * await using zk = await connect(process.env.ZKTS_SERVER ?? '127.0.0.1:2181');
 * {
 *   await using queue = new DistributedPriorityQueue(zk, '/example/queue', { serializer: text });
 *   await queue.put('reindex', 5);
 *   await queue.put('page the operator', -1);
 *   const received: string[] = [];
 *   for await (const message of queue.messages()) if (received.push(message) === 2) break;
 *   console.log(received.join(', '));
 * }
 * await zk.removeRecursive('/example');
 * // page the operator, reindex
 * ```
 */
export class DistributedPriorityQueue<T = Uint8Array> extends CuratorQueueBase<T> {
  protected readonly layout = plainLayout;
  protected override readonly refreshAfter = this.options.minItemsBeforeRefresh ?? 0;

  /** Adds one message with a 32-bit integer priority (lower is delivered first). */
  put(message: T, priority: number, options: WaitOptions = {}): Promise<string> {
    return this.putMessages('DistributedPriorityQueue.put', checked('priority', priority, PRIORITY, priorityMiddle), [message], options);
  }

  /** Adds several messages as one item with one priority. */
  putMulti(messages: Iterable<T>, priority: number, options: WaitOptions = {}): Promise<string> {
    return this.putMessages('DistributedPriorityQueue.putMulti', checked('priority', priority, PRIORITY, priorityMiddle), messages, options);
  }
}

/**
 * Curator's `DistributedDelayQueue`: items `queue-|<due epoch ms, hex>|<seq>`, delivered in due order and never
 * before their time (by the consumer's clock, as Curator: producers' and consumers' clocks should agree);
 * otherwise a {@link DistributedQueue}.
 *
 * @example
 * ```ts
 * import { connect } from '@zkts/protocol';
 * import { DistributedDelayQueue, type QueueSerializer } from '@zkts/recipes';
 *
 * const text: QueueSerializer<string> = { serialize: (s) => new TextEncoder().encode(s), deserialize: (b) => new TextDecoder().decode(b) };
 * await using zk = await connect(process.env.ZKTS_SERVER ?? '127.0.0.1:2181');
 * {
 *   await using queue = new DistributedDelayQueue(zk, '/example/queue', { serializer: text });
 *   const due = Date.now() + 300;
 *   await queue.put('later', due);
 *   await queue.put('now', Date.now());
 *   const received: string[] = [];
 *   for await (const message of queue.messages()) if (received.push(message) === 2) break;
 *   console.log(received.join(', '), 'not early:', Date.now() >= due);
 * }
 * await zk.removeRecursive('/example');
 * // now, later not early: true
 * ```
 */
export class DistributedDelayQueue<T = Uint8Array> extends CuratorQueueBase<T> {
  protected readonly layout = delayLayout;
  protected override readonly refreshAfter = this.options.minItemsBeforeRefresh ?? 0;

  /** Adds one message, due at `dueEpochMs` (ms since 1970, like Date.now()). */
  put(message: T, dueEpochMs: number, options: WaitOptions = {}): Promise<string> {
    return this.putMessages('DistributedDelayQueue.put', checked('dueEpochMs', dueEpochMs, DUE, delayMiddle), [message], options);
  }

  /** Adds several messages as one item, due at one time. */
  putMulti(messages: Iterable<T>, dueEpochMs: number, options: WaitOptions = {}): Promise<string> {
    return this.putMessages('DistributedDelayQueue.putMulti', checked('dueEpochMs', dueEpochMs, DUE, delayMiddle), messages, options);
  }
}

/**
 * Curator's `DistributedIdQueue`: FIFO items `queue-|<id>|<seq>`; `has(id)` looks for one, `remove(id)` takes
 * out every item with that id before it is delivered. Otherwise a {@link DistributedQueue}.
 *
 * @example
 * ```ts
 * import { connect } from '@zkts/protocol';
 * import { DistributedIdQueue, type QueueSerializer } from '@zkts/recipes';
 *
 * const text: QueueSerializer<string> = { serialize: (s) => new TextEncoder().encode(s), deserialize: (b) => new TextDecoder().decode(b) };
 * await using zk = await connect(process.env.ZKTS_SERVER ?? '127.0.0.1:2181');
 * const queue = new DistributedIdQueue(zk, '/example/queue', { serializer: text });
 * await queue.put('build #1', 'build-1');
 * await queue.put('build #2', 'build-2');
 * console.log(await queue.has('build-1'), 'removed', await queue.remove('build-1'), 'left', await queue.size());
 * await queue.close();
 * await zk.removeRecursive('/example');
 * // true removed 1 left 1
 * ```
 */
export class DistributedIdQueue<T = Uint8Array> extends CuratorQueueBase<T> {
  protected readonly layout = idLayout;

  /** Adds one message under an id (`/` and `|` in it become `_`, as Curator stores it). */
  put(message: T, id: string, options: WaitOptions = {}): Promise<string> {
    return this.putMessages('DistributedIdQueue.put', checked('id', id, rules.nonEmptyString, idMiddle), [message], options);
  }

  /** Whether an item with this id is in the queue now. */
  async has(id: string): Promise<boolean> {
    checkArg('DistributedIdQueue.has', 'id', id, rules.nonEmptyString);
    return (await this.itemsWithId(id)).length > 0;
  }

  /**
   * Removes the items with this id, undelivered; resolves with how many this call removed. Lock-safe queues
   * lock each item first, so an item a consumer is working on is left to it.
   */
  async remove(id: string): Promise<number> {
    checkArg('DistributedIdQueue.remove', 'id', id, rules.nonEmptyString);
    const { client, path } = this;
    const { lockPath } = this.options;
    let removed = 0;
    for (const item of await this.itemsWithId(id)) {
      const itemPath = joinPath(path, item.name);
      if (lockPath === undefined) {
        const receipt = joinPath(path, `_zkts-claim-${globalThis.crypto.randomUUID()}`);
        if (await claimByDelete(client, { item: itemPath, receipt, receiptMode: 'persistent' })) removed++;
        continue;
      }
      const lock = await lockItem(client, lockPath, item.name);
      if (lock === null) continue;
      try {
        if ((await retrying(client, () => client.exists(itemPath))) !== null && (await commitUnderLock(client, lock, itemPath, [{ op: 'delete', path: itemPath }]))) removed++;
      } finally {
        await unlockItem(client, lock);
      }
    }
    return removed;
  }

  protected override requeueMiddle(item: ItemName): string {
    const id = idOf(item);
    return id === undefined ? '' : idMiddle(id);
  }

  private async itemsWithId(id: string): Promise<ItemName[]> {
    if (typeof id !== 'string' || id.length === 0) throw new RecipeArgumentError('an item id must be a non-empty string');
    const stored = fixId(id);
    return sortItems(await childrenOrEmpty(this.client, this.path), this.layout).filter((item) => idOf(item) === stored);
  }
}
