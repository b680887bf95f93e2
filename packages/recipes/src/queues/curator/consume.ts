/**
 * The consumer side of the Curator queues: one loop per queue that lists the items (with a child watch, as
 * Curator's ChildrenCache does), takes the due ones in the layout's order and hands each message to the
 * consumer, one at a time. Two ways to take an item, as in Curator:
 * - normal: the item is removed before its messages are delivered (at most once). The delete runs with a
 *   persistent receipt (claim.ts), so a delete whose reply was lost, even across an expiry, is settled and the
 *   item is neither dropped nor delivered twice.
 * - lock-safe (`lockPath`): the item is locked (item-lock.ts), delivered, and removed only once the consumer
 *   returned (at least once). A consumer that throws has the item requeued (`errorMode: 'requeue'`, Curator's
 *   default: the item goes to the back of the queue, as Curator's plain `queue-` name) or removed (`'delete'`).
 * Getting one item (removed, or locked, with its data) is one `zkts:queue.take` trace; the delivery comes after.
 */
import { joinPath, type Clock } from '@zkts/protocol';

import { QueueItemCorruptError } from '../../errors.js';
import {
  ensurePersistentDir, isConnectionLoss, isExpiry, isLive, isNoNode, queueTake, reconnected, retrying, type Op, type QueueTrace, type RecipeClient,
} from '../../internal/index.js';
import { claimByDelete } from '../claim.js';
import { decodeItem } from './format.js';
import { commitUnderLock, lockItem, unlockItem, type ItemLock } from './item-lock.js';
import { ITEM_PREFIX, sortItems, type ItemLayout, type ItemName } from './names.js';
import { putItem } from './put.js';

/** What the consumer loop needs to know about its queue. */
export interface ConsumerSetup<T> {
  readonly client: RecipeClient;
  readonly dir: string;
  /** The queue's class name, as the tracing channel reports it. */
  readonly recipe: string;
  readonly layout: ItemLayout;
  readonly lockPath: string | undefined;
  readonly errorMode: 'requeue' | 'delete';
  readonly clock: Clock;
  /**
   * Curator's minItemsBeforeRefresh with refreshOnWatch (its priority and delay queues): after this many items of
   * one listing, a change of the children ends the pass, so a more urgent item put meanwhile goes first.
   * Undefined: a listing is worked through to its end (FIFO queues: new items go to the back anyway).
   */
  readonly refreshAfter: number | undefined;
  /** The name's middle of a requeued item (Curator: the id for an id queue, else none). */
  readonly requeueMiddle: (item: ItemName) => string;
  /** The user's deserializer; a throw makes the item corrupt. */
  readonly deserialize: (bytes: Uint8Array) => T;
  /** Gets each message; a throw is a failed message. */
  readonly deliver: (message: T) => Promise<void>;
  /** Resolves when the consumer wants another item (the iterator's next()); false: stop. */
  readonly wanted: () => Promise<boolean>;
  readonly report: (error: Error) => void;
  /** Where the loop counts (the queue's, so the counts outlive one loop). */
  readonly stats: ConsumerStats;
}

/** Counters of one consumer, for diagnostics and tests. */
export interface ConsumerStats {
  /** Messages handed to the consumer. */
  delivered: number;
  /** Items this consumer removed from the queue (for lock-safe: after their consumer finished). */
  removed: number;
  /** Items put back at the end after a consumer failed (lock-safe, errorMode 'requeue'). */
  requeued: number;
  /** Items whose lock went with an ended session before they were removed (they are delivered again). */
  lost: number;
}

/** An item this consumer got: its data, and in lock-safe mode our lock on it. */
interface Obtained {
  readonly data: Uint8Array;
  readonly lock?: ItemLock;
}

/** Thrown into deliver() when the iterator was left while it held a message: the item is not finished. */
export class GivenBack extends Error {}

/** One running consumer loop. */
export class ConsumerLoop<T> {
  readonly stats: ConsumerStats;
  private readonly setup: ConsumerSetup<T>;
  private readonly stop = new AbortController();
  private readonly stopped: Promise<void>;
  readonly done: Promise<void>;

  constructor(setup: ConsumerSetup<T>) {
    this.setup = setup;
    this.stats = setup.stats;
    this.stopped = new Promise((resolve) => this.stop.signal.addEventListener('abort', () => resolve(), { once: true }));
    this.done = this.run();
  }

  /** Stops taking items; resolves once the item in hand is finished. */
  async close(): Promise<void> {
    this.stop.abort();
    await this.done;
  }

  private get running(): boolean {
    return !this.stop.signal.aborted && isLive(this.setup.client.state);
  }

  private async run(): Promise<void> {
    const { client, dir, layout, clock } = this.setup;
    while (this.running) {
      try {
        let listing: { children: string[]; watch?: Promise<unknown> };
        try {
          listing = await retrying(client, () => client.getChildren(dir, { watch: true }));
        } catch (e) {
          if (!isNoNode(e)) throw e;
          await ensurePersistentDir(client, dir);
          continue;
        }
        let soonest = Number.POSITIVE_INFINITY;
        const busy: string[] = [];
        let changed = false;
        listing.watch?.then(() => (changed = true), () => (changed = true));
        let taken = 0;
        const { refreshAfter } = this.setup;
        for (const item of sortItems(listing.children, layout)) {
          if (refreshAfter !== undefined && taken >= refreshAfter && changed) {
            soonest = 0; // list again at once
            break;
          }
          const wait = layout.delay(item, clock.now());
          if (wait > 0) {
            soonest = Math.min(soonest, wait);
            continue;
          }
          if (!this.running || !(await this.setup.wanted())) return;
          const lockedBy = await this.take(item);
          if (lockedBy !== undefined) busy.push(lockedBy);
          taken++;
        }
        await this.pause(listing.watch, soonest, busy);
      } catch (e) {
        if (!this.running) return;
        if (isExpiry(e) || isConnectionLoss(e)) {
          await reconnected(client).catch(() => undefined); // over for good: `running` ends the loop
          continue;
        }
        this.setup.report(e instanceof Error ? e : new Error(String(e)));
        await this.pause(undefined, 1000, []); // not a tight loop on a persistent failure
      }
    }
  }

  /**
   * Waits for a change of the children, the next due time, close(), or the release of an item another
   * consumer holds locked: a consumer that dies leaves its item without touching the queue's children, so
   * their watch alone would not wake us for it (Curator's consumer waits for the next change of the queue).
   */
  private async pause(watch: Promise<unknown> | undefined, ms: number, busy: readonly string[]): Promise<void> {
    const { client, clock } = this.setup;
    let timer: ReturnType<Clock['setTimeout']> | undefined;
    const waits: Promise<unknown>[] = [this.stopped];
    if (watch !== undefined) waits.push(watch.catch(() => undefined));
    for (const lock of busy) {
      const r = await client.exists(lock, { watch: true });
      if (r.stat === null) return; // released meanwhile: look again now
      waits.push(r.watch.catch(() => undefined));
    }
    if (ms <= 0) return;
    if (Number.isFinite(ms)) waits.push(new Promise<void>((resolve) => (timer = clock.setTimeout(resolve, ms, { unref: true }))));
    try {
      await Promise.race(waits);
    } finally {
      if (timer !== undefined) clock.clearTimeout(timer);
    }
  }

  /** Takes one item; resolves with the lock node when another consumer holds the item locked. */
  private async take(item: ItemName): Promise<string | undefined> {
    const { client, dir, lockPath } = this.setup;
    const path = joinPath(dir, item.name);
    const got = await this.obtainTraced(item, path);
    if (got === null) return lockPath === undefined ? undefined : joinPath(lockPath, item.name);
    if (got === undefined) return undefined;
    const { data, lock } = got;
    if (lock === undefined) {
      this.stats.removed++;
      const { rest } = await this.deliverAll(item, data, 'delete');
      // The iterator ended before these messages were handed out: they go back to the queue, as a new item.
      if (rest.length > 0) await putItem(client, { dir, middle: item.middle, messages: rest }, null);
      return undefined;
    }
    try {
      await this.takeLocked(item, path, lock, data);
    } finally {
      await unlockItem(client, lock);
    }
    return undefined;
  }

  /** obtain() as one `zkts:queue.take` trace when somebody listens: the item's node, and its size once ours. */
  private obtainTraced(item: ItemName, path: string): Promise<Obtained | null | undefined> {
    if (!queueTake.hasSubscribers) return this.obtain(item, path);
    const trace: QueueTrace = { recipe: this.setup.recipe, path: this.setup.dir, node: path };
    return queueTake.tracePromise(async () => {
      const got = await this.obtain(item, path);
      if (got) trace.bytes = payloadLength(got.data);
      return got;
    }, trace);
  }

  /**
   * Gets one item with its data: removed (normal mode: claimed by a delete with a receipt, claim.ts) or locked
   * (lock-safe). Null when another consumer holds its lock; undefined when someone else took or finished it.
   */
  private async obtain(item: ItemName, path: string): Promise<Obtained | null | undefined> {
    const { client, dir, lockPath } = this.setup;
    if (lockPath === undefined) {
      let data: Uint8Array;
      let version: number;
      try {
        ({ data, stat: { version } } = await retrying(client, () => client.getData(path)));
      } catch (e) {
        if (isNoNode(e)) return undefined; // another consumer took it
        throw e;
      }
      const receipt = joinPath(dir, `_zkts-claim-${globalThis.crypto.randomUUID()}`);
      return (await claimByDelete(client, { item: path, receipt, version, receiptMode: 'persistent' })) ? { data } : undefined;
    }
    const lock = await lockItem(client, lockPath, item.name);
    if (lock === null) return null;
    try {
      return { data: (await retrying(client, () => client.getData(path))).data, lock };
    } catch (e) {
      await unlockItem(client, lock);
      if (isNoNode(e)) return undefined; // finished by someone before our lock
      throw e;
    }
  }

  private async takeLocked(item: ItemName, path: string, lock: ItemLock, data: Uint8Array): Promise<void> {
    const { client, dir, errorMode } = this.setup;
    const { outcome } = await this.deliverAll(item, data, errorMode);
    if (outcome === 'keep') return;
    const ops: Op[] = [{ op: 'delete', path }];
    if (outcome === 'requeue') {
      const requeued = joinPath(dir, ITEM_PREFIX + this.setup.requeueMiddle(item));
      ops.push({ op: 'create', path: requeued, data, mode: 'persistent-sequential' });
    }
    if (await commitUnderLock(client, lock, path, ops)) {
      if (outcome === 'requeue') this.stats.requeued++;
      else this.stats.removed++;
    } else {
      this.stats.lost++;
    }
  }

  /**
   * Delivers the item's messages; what to do with the item afterwards, and the bytes of the messages not handed
   * out because the iterator ended (the one it held included).
   */
  private async deliverAll(item: ItemName, data: Uint8Array, errorMode: 'requeue' | 'delete'): Promise<{ outcome: 'remove' | 'requeue' | 'keep'; rest: Uint8Array[] }> {
    let raw: Uint8Array[];
    let messages: T[];
    try {
      raw = decodeItem(data).messages;
      messages = raw.map((bytes) => this.setup.deserialize(bytes));
    } catch (e) {
      const corrupt = e instanceof QueueItemCorruptError ? e : new QueueItemCorruptError(`queue item ${item.name}: the deserializer failed`, { cause: e });
      this.setup.report(corrupt);
      return { outcome: 'remove', rest: [] }; // Curator drops a corrupt item too: it could never be consumed
    }
    for (const [i, message] of messages.entries()) {
      try {
        await this.setup.deliver(message);
        this.stats.delivered++;
      } catch (e) {
        if (e instanceof GivenBack) return { outcome: 'keep', rest: raw.slice(i) };
        this.stats.delivered++;
        this.setup.report(new Error(`queue consumer failed on ${item.name}`, { cause: e }));
        if (errorMode === 'requeue') return { outcome: 'requeue', rest: [] };
      }
    }
    return { outcome: 'remove', rest: [] };
  }
}

/** The messages' bytes in an item, as a put counts them (the framing left out); a corrupt item: all its bytes. */
function payloadLength(data: Uint8Array): number {
  try {
    return decodeItem(data).messages.reduce((n, m) => n + m.byteLength, 0);
  } catch {
    return data.byteLength;
  }
}
