/**
 * The diagnostics channels this package listens to, and the fields it reads from their messages. The shapes are
 * structural on purpose: the package talks to the clients only through `node:diagnostics_channel`, so a message
 * from another installed copy of @zkts/protocol or @zkts/recipes works as long as it carries these fields, and a
 * field a publisher leaves out is read as absent instead of breaking the subscriber. The publishers' own types
 * (`RequestTrace` of @zkts/protocol, the recipes' contexts) are the authority; a unit test checks they fit here.
 */

/** Tracing channels (Node derives `tracing:<name>:start|end|asyncStart|asyncEnd|error` from each). */
export const TRACING = {
  request: 'zkts:request',
  lockWait: 'zkts:lock.wait',
  lockHold: 'zkts:lock.hold',
  electionTerm: 'zkts:election.term',
  cacheResync: 'zkts:cache.resync',
  queuePut: 'zkts:queue.put',
  queueTake: 'zkts:queue.take',
} as const;

/** Plain channels. */
export const PLAIN = {
  state: 'zkts:state',
  connection: 'zkts:connection',
  session: 'zkts:session',
  auth: 'zkts:auth',
  event: 'zkts:event',
} as const;

/** What TracingChannel itself sets on every context. */
export interface Traced {
  error?: unknown;
  result?: unknown;
}

/** One request of the client API (`zkts:request`); fields are filled in as the request goes. */
export interface RequestMessage extends Traced {
  readonly op?: string;
  readonly path?: string | undefined;
  readonly sessionId?: bigint;
  readonly xid?: number;
  readonly server?: string | undefined;
  readonly bytesOut?: number;
  readonly bytesIn?: number;
  readonly attempt?: number;
  readonly ops?: readonly string[] | undefined;
  readonly errorCode?: string | undefined;
}

/** What every recipe channel's context carries: the recipe's class and its path. */
export interface RecipeMessage extends Traced {
  readonly recipe?: string;
  readonly path?: string;
}

/** `zkts:lock.wait` and `zkts:lock.hold`. */
export interface LockMessage extends RecipeMessage {
  readonly kind?: string;
  readonly node?: string | undefined;
  readonly queuePosition?: number | undefined;
  readonly fencingToken?: bigint | undefined;
  readonly sessionId?: bigint;
  readonly reason?: string | undefined;
}

/** `zkts:election.term`. */
export interface ElectionMessage extends RecipeMessage {
  readonly node?: string | undefined;
  readonly participantId?: string | undefined;
  readonly sessionId?: bigint;
  readonly reason?: string | undefined;
}

/** `zkts:cache.resync`. */
export interface CacheMessage extends RecipeMessage {
  readonly reason?: string;
  readonly size?: number | undefined;
}

/** `zkts:queue.put` and `zkts:queue.take`. */
export interface QueueMessage extends RecipeMessage {
  readonly node?: string | undefined;
  readonly bytes?: number | undefined;
}

/** A failure as the plain channels carry it: the ZkError's code and message, never the error object. */
export interface CauseMessage {
  readonly code?: string;
  readonly message?: string;
}

/** `zkts:state`. */
export interface StateMessage {
  readonly sessionId?: bigint;
  readonly from?: string;
  readonly to?: string;
  readonly cause?: CauseMessage | undefined;
}

/** `zkts:connection`. */
export interface ConnectionMessage {
  readonly sessionId?: bigint;
  readonly event?: string;
  readonly server?: string;
  readonly delayMs?: number | undefined;
  readonly reason?: string | undefined;
  readonly cause?: CauseMessage | undefined;
}

/** `zkts:session`. */
export interface SessionMessage {
  readonly event?: string;
  readonly sessionId?: bigint;
  readonly previousSessionId?: bigint | undefined;
  readonly timeoutMs?: number | undefined;
}

/** `zkts:auth`: the scheme and the outcome only, never a credential. */
export interface AuthMessage {
  readonly sessionId?: bigint;
  readonly scheme?: string;
  readonly outcome?: string;
  readonly server?: string;
  readonly cause?: CauseMessage | undefined;
}

/** `zkts:event`: a watch event handed to the application. */
export interface WatchMessage {
  readonly sessionId?: bigint;
  readonly type?: string;
  readonly path?: string;
  readonly zxid?: bigint;
  readonly deliveryDelayMs?: number | undefined;
}
