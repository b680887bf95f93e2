/**
 * Hands a consumer loop's messages to an async iterator one at a time. A message counts as finished when the
 * iterator asks for the next one; leaving the loop (break, throw, return) while holding one gives it back
 * (deliver rejects with GivenBack), so in lock-safe mode the item stays in the queue for the next consumer.
 * The loop asks `wanted()` before it takes an item, so nothing is taken while nobody iterates.
 */
import { GivenBack } from './consume.js';

export class Handoff<T> {
  private pull: ((result: IteratorResult<T>) => void) | null = null;
  private pulled: (() => void) | null = null;
  private ack: { resolve: () => void; reject: (error: Error) => void } | null = null;
  private ended = false;

  /** Loop side: resolves true when an iterator waits for a message, false once iteration ended. */
  wanted(): Promise<boolean> {
    if (this.ended) return Promise.resolve(false);
    if (this.pull !== null) return Promise.resolve(true);
    return new Promise((resolve) => (this.pulled = () => resolve(!this.ended)));
  }

  /** Loop side: hands over a message; resolves when the iterator asks for the next one. */
  async deliver(value: T): Promise<void> {
    if (this.pull === null && !(await this.wanted())) throw new GivenBack('the queue iterator ended');
    if (this.ended || this.pull === null) throw new GivenBack('the queue iterator ended');
    const pull = this.pull;
    this.pull = null;
    return new Promise<void>((resolve, reject) => {
      this.ack = { resolve, reject };
      pull({ value, done: false });
    });
  }

  /** Iterator side: the previous message is finished; wait for the next. */
  next(): Promise<IteratorResult<T>> {
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    const result = new Promise<IteratorResult<T>>((resolve) => (this.pull = resolve));
    const ack = this.ack;
    this.ack = null;
    ack?.resolve();
    const pulled = this.pulled;
    this.pulled = null;
    pulled?.();
    return result;
  }

  /** Iterator side: iteration is over; a message in hand is given back. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.ack?.reject(new GivenBack('the queue iterator ended'));
    this.ack = null;
    this.pull?.({ value: undefined, done: true });
    this.pull = null;
    this.pulled?.();
    this.pulled = null;
  }
}
