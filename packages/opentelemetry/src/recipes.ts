/**
 * The recipes' tracing channels → one span per lock wait, lock hold, election term, cache resync, queue put and
 * take, with the lock duration histograms and the cache sizes. Each channel's `start` is bound to the context
 * store, so the requests a recipe makes inside its work (a lock's create, getChildren and getData) are children of its span.
 * A span ends at `asyncEnd`, or at `end` after an `error` before it (a synchronous failure: no async events).
 * Attributes are read at start and again at the end, as the recipe fills fields in (the lock node, the queue
 * position, the fencing token, the cache size, why a hold or a term ended).
 */
import { performance } from 'node:perf_hooks';

import { SpanKind, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';

import type { CacheMessage, ElectionMessage, LockMessage, QueueMessage, RecipeMessage, Traced } from './channels.js';
import { TRACING } from './channels.js';
import type { Bound, ContextStore } from './context-store.js';
import type { Instruments } from './instruments.js';
import { ATTR, DB_SYSTEM, SPAN } from './names.js';
import { onTracing, type Undo } from './subscribe.js';
import { errorMessage, errorType, hex, id, num, text } from './values.js';

interface RecipeSpec<T extends Traced> {
  readonly channel: string;
  readonly name: string;
  readonly kind: SpanKind;
  /** Writes the message's attributes (called at start and at the end). */
  attributes(message: T, into: Attributes): void;
  /** Records the metrics of a finished span: its duration and, on failure, its `error.type`. */
  finished?(message: T, seconds: number, failure: string | undefined): void;
}

interface Running {
  readonly span: Span;
  readonly started: number;
  bound: Bound | undefined;
  failed: boolean;
}

function set(into: Attributes, key: string, value: string | number | undefined): void {
  if (value !== undefined) into[key] = value;
}

/** The recipe's class and path, which every recipe span and most of their metric points carry. */
function recipeAttributes(message: RecipeMessage, into: Attributes): void {
  set(into, ATTR.recipe, text(message.recipe));
  set(into, ATTR.path, text(message.path));
}

function lockAttributes(message: LockMessage, into: Attributes): void {
  recipeAttributes(message, into);
  set(into, ATTR.lockKind, text(message.kind));
  set(into, ATTR.lockNode, text(message.node));
  set(into, ATTR.lockQueuePosition, num(message.queuePosition));
  if (typeof message.fencingToken === 'bigint') into[ATTR.lockFencingToken] = hex(message.fencingToken);
  set(into, ATTR.sessionId, id(message.sessionId));
}

function lockMetricAttributes(message: LockMessage): Attributes {
  const out: Attributes = {};
  set(out, ATTR.recipe, text(message.recipe));
  set(out, ATTR.lockKind, text(message.kind));
  return out;
}

function queueAttributes(operation: 'put' | 'take'): (message: QueueMessage, into: Attributes) => void {
  return (message, into) => {
    into[ATTR.messagingSystem] = DB_SYSTEM;
    into[ATTR.messagingOperationType] = operation === 'put' ? 'send' : 'receive';
    into[ATTR.messagingOperationName] = operation;
    set(into, ATTR.recipe, text(message.recipe));
    set(into, ATTR.messagingDestination, text(message.path));
    set(into, ATTR.messagingMessageId, text(message.node));
    set(into, ATTR.messagingBodySize, num(message.bytes));
  };
}

function specs(instruments: Instruments): RecipeSpec<never>[] {
  const lockWait: RecipeSpec<LockMessage> = {
    channel: TRACING.lockWait,
    name: SPAN.lockWait,
    kind: SpanKind.INTERNAL,
    attributes: lockAttributes,
    finished(message, seconds, failure) {
      const attributes = lockMetricAttributes(message);
      set(attributes, ATTR.errorType, failure);
      instruments.lockWaitDuration.record(seconds, attributes);
    },
  };
  const lockHold: RecipeSpec<LockMessage> = {
    channel: TRACING.lockHold,
    name: SPAN.lockHold,
    kind: SpanKind.INTERNAL,
    attributes(message, into) {
      lockAttributes(message, into);
      set(into, ATTR.lockReleaseReason, text(message.reason));
    },
    finished(message, seconds, failure) {
      const attributes = lockMetricAttributes(message);
      set(attributes, ATTR.lockReleaseReason, text(message.reason) ?? (failure === undefined ? 'released' : 'lost'));
      instruments.lockHoldDuration.record(seconds, attributes);
    },
  };
  const electionTerm: RecipeSpec<ElectionMessage> = {
    channel: TRACING.electionTerm,
    name: SPAN.electionTerm,
    kind: SpanKind.INTERNAL,
    attributes(message, into) {
      recipeAttributes(message, into);
      set(into, ATTR.electionNode, text(message.node));
      set(into, ATTR.electionParticipant, text(message.participantId));
      set(into, ATTR.sessionId, id(message.sessionId));
      set(into, ATTR.electionEndReason, text(message.reason));
    },
  };
  const cacheResync: RecipeSpec<CacheMessage> = {
    channel: TRACING.cacheResync,
    name: SPAN.cacheResync,
    kind: SpanKind.INTERNAL,
    attributes(message, into) {
      recipeAttributes(message, into);
      set(into, ATTR.cacheResyncReason, text(message.reason));
      set(into, ATTR.cacheSize, num(message.size));
    },
    finished(message, _seconds, failure) {
      const size = num(message.size);
      if (failure !== undefined || size === undefined) return;
      const attributes: Attributes = {};
      recipeAttributes(message, attributes);
      instruments.cacheSizes.set(`${String(message.recipe)}\u0000${String(message.path)}`, { attributes, size });
    },
  };
  const queuePut: RecipeSpec<QueueMessage> = { channel: TRACING.queuePut, name: SPAN.queuePut, kind: SpanKind.PRODUCER, attributes: queueAttributes('put') };
  const queueTake: RecipeSpec<QueueMessage> = { channel: TRACING.queueTake, name: SPAN.queueTake, kind: SpanKind.CONSUMER, attributes: queueAttributes('take') };
  return [lockWait, lockHold, electionTerm, cacheResync, queuePut, queueTake] as RecipeSpec<never>[];
}

function subscribeRecipe<T extends Traced>(spec: RecipeSpec<T>, tracer: Tracer, store: ContextStore): Undo {
  const running = new WeakMap<object, Running>();

  const begin = (message: T): Running => {
    let run = running.get(message);
    if (run === undefined) {
      const attributes: Attributes = {};
      spec.attributes(message, attributes);
      const span = tracer.startSpan(spec.name, { kind: spec.kind, attributes }, store.current());
      run = { span, started: performance.now(), bound: undefined, failed: false };
      running.set(message, run);
    }
    return run;
  };

  const finish = (message: T, run: Running): void => {
    running.delete(message);
    if (run.bound !== undefined) run.bound.done = true;
    const attributes: Attributes = {};
    spec.attributes(message, attributes);
    let failure: string | undefined;
    if (run.failed) {
      failure = errorType(undefined, message.error);
      attributes[ATTR.errorType] = failure;
      const description = errorMessage(message.error);
      run.span.setStatus(description === undefined ? { code: SpanStatusCode.ERROR } : { code: SpanStatusCode.ERROR, message: description });
    }
    run.span.setAttributes(attributes);
    // Read before the span ends, whose processors' work is not the recipe's time (as for requests).
    const seconds = (performance.now() - run.started) / 1000;
    run.span.end();
    spec.finished?.(message, seconds, failure);
  };

  return onTracing<T, Bound>(
    spec.channel,
    {
      start: begin,
      end(message) {
        const run = running.get(message);
        if (run?.failed === true) finish(message, run);
      },
      error(message) {
        const run = running.get(message);
        if (run !== undefined) run.failed = true;
      },
      asyncEnd(message) {
        const run = running.get(message);
        if (run !== undefined) finish(message, run);
      },
    },
    {
      storage: store.storage,
      enter(message) {
        const outer = store.current();
        const run = begin(message);
        run.bound = store.bind(trace.setSpan(outer, run.span), outer);
        return run.bound;
      },
    },
  );
}

/** Subscribes to every recipe channel; returns what undoes it all. */
export function subscribeRecipes(tracer: Tracer, instruments: Instruments, store: ContextStore): Undo {
  const undo = specs(instruments).map((spec) => subscribeRecipe(spec, tracer, store));
  return () => {
    for (const u of undo) u();
  };
}
