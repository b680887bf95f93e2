/**
 * Runs the cache's reads and hands their outcomes back strictly in the order the reads went out.
 *
 * One session answers in request order, and the client's dispatcher runs a reply's continuations before any
 * notification that followed it on the wire. But two replies settled in one turn have continuations of different
 * depths (an async read helper adds hops), so the second could be handled first: a "node is present" fact
 * applied after a newer "node is gone" one would leave a deleted node in the cache for good. Outcomes therefore
 * wait here for every earlier read; the wait never crosses a macrotask, since the replies settle together.
 *
 * `sent` numbers reads in sending order; the cache compares it with the number current when a notification
 * arrived (was a node re-created after this check went out?).
 */
export class Sequencer {
  /** Reads sent so far (the number of the last one). */
  sent = 0;
  private done = 0;
  private readonly waiting = new Map<number, () => void>();
  private readonly onFault: (error: unknown) => void;

  /** `onFault`: a handler threw (a bug of the cache: reported, the order goes on). */
  constructor(onFault: (error: unknown) => void) {
    this.onFault = onFault;
  }

  /** Sends `read` now; `onResult`/`onError` run in sending order, after those of earlier reads. */
  run<R>(read: () => Promise<R>, onResult: (result: R, seq: number) => void, onError: (error: unknown, seq: number) => void): number {
    const seq = ++this.sent;
    let promise: Promise<R>;
    try {
      promise = read();
    } catch (error) {
      promise = Promise.reject(error);
    }
    promise.then(
      (result) => this.complete(seq, () => onResult(result, seq)),
      (error: unknown) => this.complete(seq, () => onError(error, seq)),
    );
    return seq;
  }

  private complete(seq: number, handle: () => void): void {
    this.waiting.set(seq, handle);
    for (;;) {
      const next = this.waiting.get(this.done + 1);
      if (next === undefined) return;
      this.waiting.delete(++this.done);
      try {
        next();
      } catch (error) {
        this.onFault(error);
      }
    }
  }
}
