/**
 * The one ordered path for everything the user sees from the wire (Java's EventThread): reply completions
 * and watch notifications leave in the order their frames arrived.
 *
 * Completions resolve promises, whose continuations run as microtasks; listeners run synchronously. So a
 * listener that follows a completion waits for a macrotask turn (setImmediate), by which time every
 * continuation of the earlier replies has run. A listener that precedes a completion simply runs first.
 */
export type DispatchItem =
  | { kind: 'complete'; run: () => void }
  | { kind: 'notify'; run: () => void };

export class Dispatcher {
  private readonly queue: DispatchItem[] = [];
  private scheduled = false;
  /** A listener that triggers more dispatching (e.g. close() from a callback) must not drain re-entrantly. */
  private draining = false;
  private lastWasCompletion = false;
  private readonly onError: (error: unknown) => void;

  constructor(onError: (error: unknown) => void) {
    this.onError = onError;
  }

  complete(run: () => void): void {
    this.push({ kind: 'complete', run });
  }

  notify(run: () => void): void {
    this.push({ kind: 'notify', run });
  }

  private push(item: DispatchItem): void {
    this.queue.push(item);
    if (!this.scheduled && !this.draining) this.drain();
  }

  private drain(): void {
    this.scheduled = false;
    this.draining = true;
    try {
      this.drainLoop();
    } finally {
      this.draining = false;
    }
  }

  private drainLoop(): void {
    while (this.queue.length > 0) {
      const item = this.queue[0] as DispatchItem;
      if (item.kind === 'notify' && this.lastWasCompletion) {
        // Let the continuations of the completions already released run first.
        this.lastWasCompletion = false;
        this.scheduled = true;
        setImmediate(() => this.drain());
        return;
      }
      this.queue.shift();
      this.lastWasCompletion = item.kind === 'complete';
      try {
        item.run();
      } catch (err) {
        // A user listener threw: report it, never let it break the ordering of later items.
        this.onError(err);
      }
    }
    // Once the microtasks of this turn run, the next notify may go synchronously again.
    if (this.lastWasCompletion) {
      this.scheduled = true;
      setImmediate(() => {
        this.lastWasCompletion = false;
        this.drain();
      });
    }
  }
}
