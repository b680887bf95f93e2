/**
 * Hands a cache's events to its consumers: listeners and async iterators. Each consumer has its own buffer
 * (pending.ts, bounded by the merging policy) and its own pace, so a slow or failing one costs the others, the
 * cache and the client nothing:
 *
 * - a listener is called with one event at a time, from a microtask (never inside the cache's own bookkeeping);
 *   when it returns a promise, its next event waits for that promise, and only its own do;
 * - a throw or a rejection is handed to `onError` and the listener gets the next event as usual;
 * - an iterator reads at its own pace; when the cache closes it ends after what was buffered for it, and when
 *   the cache fails it throws that error after them.
 */
import type { CacheEvent, CacheListener } from '../types.js';
import { PendingQueue } from './pending.js';

abstract class Consumer<T> {
  readonly queue: PendingQueue<T>;

  constructor(limit: number) {
    this.queue = new PendingQueue(limit);
  }

  abstract wake(): void;
  abstract finish(error: Error | null): void;
}

class ListenerConsumer<T> extends Consumer<T> {
  private busy = false;
  private scheduled = false;
  private stopped = false;
  private readonly listener: CacheListener<T>;
  private readonly onError: (error: unknown) => void;

  constructor(limit: number, listener: CacheListener<T>, onError: (error: unknown) => void) {
    super(limit);
    this.listener = listener;
    this.onError = onError;
  }

  wake(): void {
    if (this.busy || this.scheduled || this.stopped) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (!this.busy && !this.stopped) {
      const event = this.queue.shift();
      if (event === undefined) return;
      let result: unknown;
      try {
        result = this.listener(event);
      } catch (error) {
        this.onError(error);
        continue;
      }
      if (result !== null && typeof result === 'object' && typeof (result as PromiseLike<void>).then === 'function') {
        this.busy = true;
        const resume = (): void => {
          this.busy = false;
          this.pump();
        };
        (result as PromiseLike<void>).then(resume, (error: unknown) => {
          this.onError(error);
          resume();
        });
      }
    }
  }

  finish(): void {
    this.stopped = true;
    this.queue.clear();
  }
}

class IteratorConsumer<T> extends Consumer<T> implements AsyncIterableIterator<CacheEvent<T>> {
  private waiter: ((result: IteratorResult<CacheEvent<T>>) => void) | null = null;
  private failWaiter: ((error: unknown) => void) | null = null;
  private ended: { error: Error | null } | null = null;
  private readonly detach: (c: Consumer<T>) => void;

  constructor(limit: number, detach: (c: Consumer<T>) => void) {
    super(limit);
    this.detach = detach;
  }

  wake(): void {
    if (this.waiter === null) return;
    const event = this.queue.shift();
    if (event === undefined) return;
    const resolve = this.waiter;
    this.waiter = null;
    this.failWaiter = null;
    resolve({ value: event, done: false });
  }

  finish(error: Error | null): void {
    if (this.ended !== null) return;
    this.ended = { error };
    const resolve = this.waiter;
    const reject = this.failWaiter;
    this.waiter = null;
    this.failWaiter = null;
    if (resolve === null) return;
    if (error !== null) reject?.(error);
    else resolve({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<CacheEvent<T>>> {
    const event = this.queue.shift();
    if (event !== undefined) return Promise.resolve({ value: event, done: false });
    if (this.ended !== null) {
      const { error } = this.ended;
      if (error !== null) {
        this.ended = { error: null };
        return Promise.reject(error);
      }
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => {
      this.waiter = resolve;
      this.failWaiter = reject;
    });
  }

  return(): Promise<IteratorResult<CacheEvent<T>>> {
    this.queue.clear();
    this.finish(null);
    this.detach(this);
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

export class Fanout<T> {
  private readonly consumers = new Set<Consumer<T>>();
  private readonly limit: number;
  private readonly onError: (error: unknown) => void;
  private ended: { error: Error | null } | null = null;

  constructor(limit: number, onError: (error: unknown) => void) {
    this.limit = limit;
    this.onError = onError;
  }

  get size(): number {
    return this.consumers.size;
  }

  /** Events folded together for consumers that fell behind (pending.ts), summed over the live consumers. */
  get merged(): number {
    let n = 0;
    for (const c of this.consumers) n += c.queue.mergedCount;
    return n;
  }

  emit(events: readonly CacheEvent<T>[]): void {
    if (events.length === 0 || this.ended !== null) return;
    for (const c of this.consumers) {
      for (const e of events) c.queue.push(e);
      c.wake();
    }
  }

  listen(listener: CacheListener<T>): () => void {
    if (this.ended !== null) return () => undefined;
    const consumer = new ListenerConsumer(this.limit, listener, this.onError);
    this.consumers.add(consumer);
    return () => {
      consumer.finish();
      this.consumers.delete(consumer);
    };
  }

  iterate(signal?: AbortSignal): AsyncIterableIterator<CacheEvent<T>> {
    const consumer = new IteratorConsumer<T>(this.limit, (c) => this.consumers.delete(c));
    if (this.ended !== null) {
      consumer.finish(this.ended.error);
      return consumer;
    }
    this.consumers.add(consumer);
    if (signal !== undefined) {
      if (signal.aborted) void consumer.return();
      else signal.addEventListener('abort', () => void consumer.return(), { once: true });
    }
    return consumer;
  }

  /** No more events: iterators end after what they hold (or throw `error`), listeners stop. */
  end(error: Error | null): void {
    if (this.ended !== null) return;
    this.ended = { error };
    for (const c of this.consumers) c.finish(error);
    this.consumers.clear();
  }
}
