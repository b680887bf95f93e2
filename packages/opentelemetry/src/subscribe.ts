/**
 * Subscribing to diagnostics channels safely. A subscriber that throws would not reach the publisher: Node
 * re-throws it on the next tick as an uncaught exception and takes the application down, so every handler here
 * reports its own failure to OpenTelemetry's diagnostic logger (`diag`) instead. Each subscription returns the
 * function that undoes it, so disabling the instrumentation leaves no listener and no bound store behind.
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';

import { diag } from '@opentelemetry/api';

/** What one tracing channel's events call; a missing one is not subscribed. */
export interface TraceHandlers<T> {
  start?(message: T): void;
  end?(message: T): void;
  asyncStart?(message: T): void;
  asyncEnd?(message: T): void;
  error?(message: T): void;
}

export type Undo = () => void;

const EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;

function guarded<T>(where: string, fn: (message: T) => void): (message: unknown) => void {
  return (message) => {
    if (typeof message !== 'object' || message === null) return;
    try {
      fn(message as T);
    } catch (err) {
      diag.error(`@zkts/opentelemetry: the ${where} handler failed`, err);
    }
  };
}

/**
 * Subscribes `handlers` to the tracing channel `name`, and, with `bind`, binds `bind.storage` to its `start`
 * event: Node calls `bind.enter(message)` before the start subscribers, and the work the publisher runs inside
 * `start.runStores` sees the value it returns.
 */
export function onTracing<T extends object, S>(
  name: string,
  handlers: TraceHandlers<T>,
  bind?: { storage: AsyncLocalStorage<S>; enter: (message: T) => S | undefined },
): Undo {
  const channels = tracingChannel(name);
  const undo: Undo[] = [];
  for (const event of EVENTS) {
    const handler = handlers[event];
    if (handler === undefined) continue;
    const fn = guarded<T>(`${name} ${event}`, handler.bind(handlers));
    channels[event].subscribe(fn);
    undo.push(() => channels[event].unsubscribe(fn));
  }
  if (bind !== undefined) {
    channels.start.bindStore(bind.storage as AsyncLocalStorage<unknown>, (message: unknown) => {
      try {
        return bind.enter(message as T);
      } catch (err) {
        diag.error(`@zkts/opentelemetry: binding the context of ${name} failed`, err);
        return undefined;
      }
    });
    undo.push(() => channels.start.unbindStore(bind.storage as AsyncLocalStorage<unknown>));
  }
  return () => {
    for (const u of undo) u();
  };
}

/** Subscribes `handler` to the plain channel `name`. */
export function onChannel<T extends object>(name: string, handler: (message: T) => void): Undo {
  const fn = guarded<T>(name, handler);
  subscribe(name, fn);
  return () => {
    unsubscribe(name, fn);
  };
}
