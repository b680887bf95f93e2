/**
 * One term of leadership on the `zkts:election.term` tracing channel (internal/diagnostics.ts), for both election
 * styles: begun when leadership begins, with the leader's work (the selector's callback, the latch's change
 * listeners) run in the start's context, so a store a subscriber bound to start is active in it; ended once,
 * when the term ends, with why.
 */
import {
  beginTrace, electionTerm, finishTrace, type ElectionTermTrace,
} from '../internal/index.js';

export type TermEnd = NonNullable<ElectionTermTrace['reason']>;

export class TermTrace {
  private readonly context: ElectionTermTrace;
  private done = false;

  private constructor(context: ElectionTermTrace) {
    this.context = context;
  }

  /** A term's trace when somebody listens, else undefined (nothing is allocated). */
  static open(recipe: string, path: string, node: string, participantId: string, sessionId: bigint): TermTrace | undefined {
    return electionTerm.hasSubscribers ? new TermTrace({ recipe, path, node, participantId, sessionId }) : undefined;
  }

  /** Publishes the term's start and end, running `lead` in the start's context; returns what `lead` returns. */
  begin<R>(lead: () => R): R {
    return beginTrace(electionTerm, this.context, lead);
  }

  /** The term is over: `error` for a loss (or a callback that threw). Only the first call counts. */
  finish(reason: TermEnd, error?: unknown): void {
    if (this.done) return;
    this.done = true;
    this.context.reason = reason;
    finishTrace(electionTerm, this.context, error);
  }
}
