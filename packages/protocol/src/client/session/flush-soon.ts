/**
 * Writes that leave at the next microtask checkpoint, for every connection of the process: a write alone on its
 * connection waits until the code that made it yields, so the requests it makes in the same turn share one
 * socket write (a lock's create and getChildren), without waiting for the next tick.
 */

/** What flushes: a connection. */
export interface Flushable {
  flush(): void;
}

/** The connections waiting for the checkpoint: one list per process, not a closure each. */
const waiting: Flushable[] = [];

/**
 * Already settled: `then` on it queues one promise job, where Node's queueMicrotask makes an AsyncResource and a
 * bound function per call (about 500 bytes, in an uncontended lock cycle's allocation profile).
 */
const settled = Promise.resolve();

/** Flushes `conn` at the next microtask checkpoint; the caller makes sure it is queued once until then. */
export function flushSoon(conn: Flushable): void {
  if (waiting.push(conn) === 1) void settled.then(flushWaiting);
}

function flushWaiting(): void {
  // A flush that queues another connection extends the list; it is flushed in this same pass.
  for (let i = 0; i < waiting.length; i++) (waiting[i] as Flushable).flush();
  waiting.length = 0;
}
