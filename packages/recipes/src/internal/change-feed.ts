/**
 * How a long-running recipe tells the outside about its changes (leadership began/ended, our node's path):
 * listeners called in order, an async iterable per reader, and a Pulse that waits like `awaitLeadership()` use.
 * One copy, so LeaderElection and PersistentNode report changes the same way: a listener's failure is its own,
 * an iterator ends when the recipe closes or its reader's signal fires, and nothing stays subscribed after.
 */
import type { Clock } from '@zkts/protocol';

import { Pulse } from './pulse.js';
import { checkOptions, rules } from './validate.js';
import { openScope, within } from './wait.js';

export class ChangeFeed<T> {
  private readonly listeners = new Set<(value: T) => void>();
  /** Fires after every emit() and on end(): waits re-check their condition then. */
  readonly changed = new Pulse();
  private over = false;

  get ended(): boolean {
    return this.over;
  }

  on(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(value: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(value);
      } catch {
        // a listener's failure is its own; the recipe goes on
      }
    }
    this.changed.fire();
  }

  /** No more values: iterators finish once they have yielded what was emitted before. */
  end(): void {
    this.over = true;
    this.changed.fire();
  }

  /** Every value emitted from now on, until end() or the signal fires. */
  iterate(options: { signal?: AbortSignal }, what: string, clock?: Clock): AsyncIterableIterator<T> {
    // Checked here, not in the generator, so that a bad signal throws at the call rather than at the first next().
    checkOptions(what, options, { signal: rules.signal });
    return this.values(options, what, clock);
  }

  private async *values(options: { signal?: AbortSignal }, what: string, clock?: Clock): AsyncIterableIterator<T> {
    const queue: T[] = [];
    const off = this.on((v) => queue.push(v));
    const scope = openScope(options, what, clock);
    try {
      for (;;) {
        const changed = this.changed.next();
        while (queue.length > 0) yield queue.shift() as T;
        if (this.over || scope?.cancelled === true) return;
        try {
          await within(scope, changed);
        } catch {
          return; // broken off by the caller's signal
        }
      }
    } finally {
      off();
      scope?.dispose();
    }
  }
}
