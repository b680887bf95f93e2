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
 * Curator's DistributedQueue: FIFO items `<path>/queue-<seq>`. `put` resolves with the item's path; it never
 * adds an item twice, even when the reply is lost. With `maxItems`, put waits for room (`{ signal, timeout }`).
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

/** Curator's DistributedPriorityQueue: items `queue-<priority><seq>`, the lowest priority first, FIFO within one. */
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
 * Curator's DistributedDelayQueue: items `queue-|<due epoch ms, hex>|<seq>`, delivered in due order and never
 * before their time (by the consumer's clock, as Curator: producers' and consumers' clocks should agree).
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

/** Curator's DistributedIdQueue: FIFO items `queue-|<id>|<seq>`; `remove(id)` takes out every item with that id. */
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
