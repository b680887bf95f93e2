/**
 * Which OpenTelemetry context is current for a request or a log line. The recipes' tracing channels run their
 * work inside `start.runStores(...)`, so a store bound with `bindStore` is active for every request the work makes
 * (a lock's create, getChildren and getData): this module's AsyncLocalStorage holds the recipe span's context there. The
 * application's own context manager (whatever `context.active()` answers) is kept as well: the bound context
 * wins only while the application has not entered a newer context of its own inside the recipe's work, which is
 * what `base` records (the application's context at the moment the store was bound).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

import { context, type Context } from '@opentelemetry/api';

export interface Bound {
  /** `context.active()` when the store was entered. */
  readonly base: Context;
  /** The context with the recipe's span, for the work inside. */
  readonly ctx: Context;
  /** The context the recipe's span started under. */
  readonly outer: Context;
  /**
   * Set when the recipe's span has ended. Its work's async chain can outlive it (a lock's hold starts in the
   * wait's last continuation): what starts there belongs beside the span, under `outer`, not inside it.
   */
  done: boolean;
}

/** The stores of the enabled instrumentations, for log correlation (usually one). */
const live = new Set<ContextStore>();

export class ContextStore {
  readonly storage = new AsyncLocalStorage<Bound>();

  /** The context a span started now should have as parent. */
  current(): Context {
    const active = context.active();
    const bound = this.storage.getStore();
    if (bound === undefined || bound.base !== active) return active;
    return bound.done ? bound.outer : bound.ctx;
  }

  /** What to enter for work that runs under `ctx`, a recipe span's context whose span started under `outer`. */
  bind(ctx: Context, outer: Context): Bound {
    return { base: context.active(), ctx, outer, done: false };
  }

  open(): void {
    live.add(this);
  }

  close(): void {
    live.delete(this);
  }
}

/**
 * The current context as log correlation sees it: a recipe's bound context when one of the enabled
 * instrumentations has one for this async call chain, else the application's active context.
 */
export function currentContext(): Context {
  for (const store of live) {
    const bound = store.storage.getStore();
    if (bound !== undefined) return store.current();
  }
  return context.active();
}
