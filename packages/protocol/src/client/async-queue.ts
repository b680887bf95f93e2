/**
 * A push-based async iterable for one consumer: values pushed before anyone reads are buffered, `end()`
 * finishes the iteration, and leaving a `for await` early (or an abort signal) detaches it via `onReturn`.
 */
export class AsyncQueue<T> implements AsyncIterableIterator<T> {
  private readonly buffer: T[] = [];
  private readonly waiting: ((result: IteratorResult<T> | PromiseLike<IteratorResult<T>>) => void)[] = [];
  private done = false;
  private failure: { error: unknown } | null = null;
  private readonly onReturn: (() => void) | undefined;

  constructor(onReturn?: () => void) {
    this.onReturn = onReturn;
  }

  get ended(): boolean {
    return this.done;
  }

  push(value: T): void {
    if (this.done) return;
    const waiter = this.waiting.shift();
    if (waiter !== undefined) waiter({ value, done: false });
    else this.buffer.push(value);
  }

  /** Ends the iteration once the buffered values are read. */
  end(): void {
    if (this.done) return;
    this.done = true;
    for (const waiter of this.waiting.splice(0)) waiter({ value: undefined, done: true });
  }

  /** Ends the iteration with an error, thrown once the buffered values are read. */
  fail(error: unknown): void {
    if (this.done) return;
    this.failure = { error };
    this.done = true;
    for (const waiter of this.waiting.splice(0)) waiter(Promise.reject(error) as never);
  }

  next(): Promise<IteratorResult<T>> {
    if (this.buffer.length > 0) return Promise.resolve({ value: this.buffer.shift() as T, done: false });
    if (this.failure !== null) {
      const { error } = this.failure;
      this.failure = null;
      return Promise.reject(error);
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  return(): Promise<IteratorResult<T>> {
    this.buffer.length = 0;
    this.end();
    this.onReturn?.();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
