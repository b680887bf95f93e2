/**
 * The one ordered path for everything the user sees from the wire (Java's EventThread): reply completions
 * and watch notifications leave in the order their frames arrived.
 *
 * Completions resolve promises, whose continuations run as microtasks; listeners run synchronously. So a
 * listener that follows a completion waits for a macrotask turn (setImmediate), by which time every
 * continuation of the earlier replies has run. A listener that precedes a completion simply runs first.
 *
 * Nothing is scheduled per completion: the "last item was a completion" mark is cleared lazily, by the next
 * listener, which then takes its macrotask hop (even when the completion was several turns ago, and the hop
 * was not needed). A setImmediate per reply, only to clear the mark, would cost ~0.5 µs per request on the
 * sequential path (about 40% of zkts's overhead over a bare socket); instead a listener after a completion
 * always waits one turn, never less, so the order holds.
 */
const COMPLETE = 0;
const NOTIFY = 1;

/** One queued item: `fn(arg)`. Completions pass the resolve/reject function and its value, so settling a
 *  request allocates no closure. */
interface DispatchItem {
  kind: typeof COMPLETE | typeof NOTIFY;
  fn: (arg: unknown) => void;
  arg: unknown;
}

/**
 * The queue of a dispatcher with nothing waiting, shared and never written to (push replaces it): most items
 * run at once (see settle), and an idle client in a pool of thousands keeps no array of its own.
 */
const EMPTY: DispatchItem[] = [];

export class Dispatcher {
  /** FIFO with a head index (no Array#shift per item). */
  private queue = EMPTY;
  private head = 0;
  private scheduled = false;
  /** A listener that triggers more dispatching (e.g. close() from a callback) must not drain re-entrantly. */
  private draining = false;
  private lastWasCompletion = false;
  private readonly onError: (error: unknown) => void;
  /** Made the first time a notification has to wait for the next turn (an idle session never does). */
  private drainFn: (() => void) | null = null;

  constructor(onError: (error: unknown) => void) {
    this.onError = onError;
  }

  complete(run: () => void): void {
    this.push({ kind: COMPLETE, fn: run, arg: undefined });
  }

  /** A completion that calls `settle(value)` (a promise's resolve or reject). */
  settle(settle: (value: unknown) => void, value: unknown): void {
    if (this.head === this.queue.length && !this.draining) {
      // Nothing is waiting ahead of it, so it may run now: the common case of a reply with no notification in
      // between costs no queue item and schedules nothing. A notification that comes next waits for the
      // macrotask turn (drainLoop sees the mark).
      this.lastWasCompletion = true;
      try {
        settle(value);
      } catch (err) {
        this.onError(err);
      }
      return;
    }
    this.push({ kind: COMPLETE, fn: settle, arg: value });
  }

  notify(run: () => void): void {
    this.push({ kind: NOTIFY, fn: run, arg: undefined });
  }

  private push(item: DispatchItem): void {
    if (this.queue === EMPTY) this.queue = [item];
    else this.queue.push(item);
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
    const queue = this.queue;
    while (this.head < queue.length) {
      const item = queue[this.head] as DispatchItem;
      if (item.kind === NOTIFY && this.lastWasCompletion) {
        // Let the continuations of the completions already released run first.
        this.lastWasCompletion = false;
        this.scheduled = true;
        setImmediate((this.drainFn ??= (): void => this.drain()));
        return;
      }
      queue[this.head] = undefined as unknown as DispatchItem;
      this.head++;
      this.lastWasCompletion = item.kind === COMPLETE;
      try {
        item.fn(item.arg);
      } catch (err) {
        // A user listener threw: report it, never let it break the ordering of later items.
        this.onError(err);
      }
    }
    this.queue = EMPTY;
    this.head = 0;
    // lastWasCompletion stays set: the next notify takes its hop then (see the header).
  }
}
