/**
 * What the four Curator-compatible queues share: options, the consumer (a callback started by start(), or an
 * async iterator from messages()), put, size and close. Each queue only adds its own put signature and name
 * layout (queues.ts). A put is one `zkts:queue.put` trace, each item the consumer takes one `zkts:queue.take`
 * (consume.ts); the recipe they report is the queue's class name.
 */
import { systemClock, type Clock, type ACL } from '@zkts/protocol';

import { RecipeArgumentError, RecipeClosedError } from '../../errors.js';
import {
  aclRule, withAcl,
  checkArg, checkClientAndPath, checkOptions, checkWait, childrenOrEmpty, ensurePersistentDir, openScope, queuePut, rules, type OptionRules, type QueueTrace,
  type RecipeClient, type WaitOptions,
} from '../../internal/index.js';
import { ConsumerLoop, type ConsumerStats } from './consume.js';
import { bytesSerializer, type QueueSerializer } from './format.js';
import { Handoff } from './handoff.js';
import { sortItems, type ItemLayout, type ItemName } from './names.js';
import { putItem } from './put.js';

/** Options of the Curator-compatible queues (Curator's QueueBuilder settings). */
export interface CuratorQueueOptions<T> {
  /** Messages to bytes and back (Curator's QueueSerializer). Default: messages are Uint8Arrays as they are. */
  serializer?: QueueSerializer<T>;
  /** Called with each message once start() ran (Curator's QueueConsumer). Or iterate messages() instead. */
  consumer?: (message: T) => void | Promise<void>;
  /**
   * Lock-safe consumption (Curator's `lockPath`): an item is locked under this path while its consumer runs
   * and removed only after it returned; a consumer that dies (its session ends) leaves the item for another.
   */
  lockPath?: string;
  /** Lock-safe only: a consumer that throws has its item requeued at the back (default, as Curator) or removed. */
  errorMode?: 'requeue' | 'delete';
  /**
   * Priority and delay queues (Curator's minItemsBeforeRefresh, default 0): after this many items of one listing,
   * a change in the queue makes the consumer list again, so a more urgent item put meanwhile goes first.
   */
  minItemsBeforeRefresh?: number;
  /** put() waits while the queue holds this many items or more (Curator's maxItems). */
  maxItems?: number;
  /** Time source for the delay queue's due times and timers. */
  clock?: Clock;
  /** Told about failed consumers, corrupt items and unexpected errors; default: a process warning. */
  onError?: (error: Error) => void;
  /** The ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  acl?: ACL[];
}

const OPTION_RULES: OptionRules<CuratorQueueOptions<unknown>> = {
  serializer: rules.withMethods('a QueueSerializer', 'serialize', 'deserialize'),
  consumer: rules.function,
  lockPath: rules.path,
  errorMode: rules.oneOf(['requeue', 'delete']),
  minItemsBeforeRefresh: rules.integer(0),
  maxItems: rules.integer(1),
  clock: rules.clock,
  onError: rules.function,
  acl: aclRule,
};

/**
 * The shared part of DistributedQueue, DistributedPriorityQueue, DistributedDelayQueue and DistributedIdQueue.
 *
 * @internal The queues' pages show these members as their own; the base class is not part of the documented API.
 */
export abstract class CuratorQueueBase<T> implements AsyncDisposable {
  readonly client: RecipeClient;
  readonly path: string;
  protected readonly options: CuratorQueueOptions<T>;
  protected readonly serializer: QueueSerializer<T>;
  /** The class name, as the tracing channels report it. */
  private readonly recipe: string;
  private readonly counts: ConsumerStats = { delivered: 0, removed: 0, requeued: 0, lost: 0 };
  private loop: ConsumerLoop<T> | null = null;
  private handoff: Handoff<T> | null = null;
  private closed = false;

  protected abstract readonly layout: ItemLayout;
  /** Curator's minItemsBeforeRefresh for queues that re-list on a change (priority, delay); none for FIFO queues. */
  protected readonly refreshAfter: number | undefined = undefined;

  constructor(client: RecipeClient, path: string, options: CuratorQueueOptions<T> = {}) {
    checkClientAndPath(new.target.name, client, path);
    checkOptions(new.target.name, options, OPTION_RULES as OptionRules<CuratorQueueOptions<T>>);
    if (options.errorMode !== undefined && options.lockPath === undefined) {
      throw new RecipeArgumentError('errorMode needs a lockPath (as Curator: only lock-safe consumers can requeue)');
    }
    this.client = client = withAcl(client, options.acl);
    this.path = path;
    this.recipe = new.target.name;
    this.options = options;
    this.serializer = options.serializer ?? (bytesSerializer as unknown as QueueSerializer<T>);
  }

  /** Counters of this queue's consumer: messages delivered, items removed, requeued, and lost with a session. */
  get stats(): Readonly<ConsumerStats> {
    return this.counts;
  }

  /** Creates the queue (and lock) directories, then starts the `consumer`, if one was given. */
  async start(): Promise<void> {
    this.checkOpen(this.options.consumer !== undefined);
    await ensurePersistentDir(this.client, this.path);
    if (this.options.lockPath !== undefined) await ensurePersistentDir(this.client, this.options.lockPath);
    const { consumer } = this.options;
    if (consumer === undefined) return;
    this.startLoop(() => Promise.resolve(true), async (message) => {
      await consumer(message);
    });
  }

  /**
   * The messages, in queue order, as they become due. A message is finished when you ask for the next one
   * (lock-safe: its item is removed then); leaving the loop gives the message in hand back to the queue.
   */
  messages(): AsyncIterableIterator<T> {
    this.checkOpen(true);
    const handoff = new Handoff<T>();
    this.handoff = handoff;
    let loop: ConsumerLoop<T> | null = null;
    const iterator: AsyncIterableIterator<T> = {
      next: () => {
        loop ??= this.startLoop(() => handoff.wanted(), (message) => handoff.deliver(message));
        return handoff.next();
      },
      return: async () => {
        handoff.end();
        await loop?.close();
        // This instance may consume again (another messages() or start()).
        if (this.loop === loop) this.loop = null;
        if (this.handoff === handoff) this.handoff = null;
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  /** The number of items in the queue now (a node with several messages counts once). */
  async size(): Promise<number> {
    return sortItems(await childrenOrEmpty(this.client, this.path), this.layout).length;
  }

  /** Stops the consumer; resolves once the message in hand is finished (lock-safe: removed). Puts are not affected. */
  async close(): Promise<void> {
    this.closed = true;
    this.handoff?.end(); // an iterator waiting for a message ends
    await this.loop?.close();
  }

  /** Same as close(). */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** The name's middle of a requeued item; Curator keeps only an id queue's id. */
  protected requeueMiddle(_item: ItemName): string {
    return '';
  }

  protected async putMessages(what: string, middle: (what: string) => string, messages: Iterable<T>, options: WaitOptions): Promise<string> {
    checkArg(what, 'messages', messages, rules.iterable);
    const list = [...messages];
    if (list.length === 0) throw new RecipeArgumentError(`${what}: messages must be a non-empty iterable, got none`);
    checkWait(what, options);
    const name = middle(what);
    const bytes = list.map((m) => this.serializer.serialize(m));
    for (const b of bytes) checkArg(what, 'serializer.serialize(message)', b, rules.bytes);
    const scope = openScope(options, `queue put ${this.path}`, this.options.clock);
    const request = { dir: this.path, middle: name, messages: bytes, maxItems: this.options.maxItems };
    try {
      if (!queuePut.hasSubscribers) return await putItem(this.client, request, scope);
      // bytes: the messages as serialized (the item's framing not counted).
      const trace: QueueTrace = { recipe: this.recipe, path: this.path, bytes: bytes.reduce((n, b) => n + b.byteLength, 0) };
      return await queuePut.tracePromise(async () => (trace.node = await putItem(this.client, request, scope)), trace);
    } finally {
      scope?.dispose();
    }
  }

  private checkOpen(consuming: boolean): void {
    if (this.closed) throw new RecipeClosedError(`queue ${this.path} is closed`);
    if (consuming && (this.loop !== null || this.handoff !== null)) throw new RecipeArgumentError(`queue ${this.path} already has a consumer (one per instance)`);
  }

  private startLoop(wanted: () => Promise<boolean>, deliver: (message: T) => Promise<void>): ConsumerLoop<T> {
    const { onError } = this.options;
    this.loop = new ConsumerLoop<T>({
      client: this.client,
      dir: this.path,
      recipe: this.recipe,
      layout: this.layout,
      lockPath: this.options.lockPath,
      errorMode: this.options.errorMode ?? 'requeue',
      clock: this.options.clock ?? systemClock,
      refreshAfter: this.refreshAfter,
      stats: this.counts,
      requeueMiddle: (item) => this.requeueMiddle(item),
      deserialize: (bytes) => this.serializer.deserialize(bytes),
      deliver,
      wanted,
      report: (error) => {
        try {
          if (onError === undefined) throw error;
          onError(error);
        } catch (e) {
          process.emitWarning(e instanceof Error ? e : String(e), { code: 'ZKTS_QUEUE' }); // never from the loop
        }
      },
    });
    return this.loop;
  }
}
