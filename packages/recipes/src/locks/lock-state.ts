/**
 * The life of one lock instance as ONE value instead of separate flags: idle, waiting for a grant, held, or
 * releasing (the delete of our node is still under way, so a new acquire must wait for it or it could overlap a
 * stale node of ours). Separate `pending`/`hold`/`releasing` fields allowed combinations that mean nothing
 * (held and waiting at once); a union does not.
 */
import { LockLostError } from '../errors.js';
import { isExpiry, isLive, type Scope, type SessionState } from '../internal/index.js';

export type LockState<Held extends object> =
  | { readonly kind: 'idle' }
  | { readonly kind: 'waiting' }
  | ({ readonly kind: 'held' } & Held)
  | { readonly kind: 'releasing'; readonly done: Promise<void> };

export const IDLE = { kind: 'idle' } as const;

/** How an acquire proceeds when the lock is not free at once: wait for it, or give up (a try). */
export interface Attempt {
  /** Wait for a grant (acquire) rather than return at once (tryAcquire). */
  readonly blocking: boolean;
  /** Cancellation of this acquire (wait.ts); null when nothing can cancel it. */
  readonly scope: Scope;
  /** A blocking attempt whose session expires starts over in the renewed session (ExpiryPolicy 'restart'). */
  readonly restartOnExpiry?: boolean;
}

/**
 * Whether an attempt that failed with `e` starts over: it waits (a try never restarts), its policy says so,
 * the caller has not given up, the client renews its session, and the failure is that our session ended:
 * an expiry error, or our node vanished with a session that is no longer the client's (`owner`).
 */
export function restarts(attempt: Attempt, e: unknown, client: { readonly state: SessionState; readonly sessionId: bigint }, owner: bigint | undefined): boolean {
  if (!attempt.blocking || attempt.restartOnExpiry !== true || attempt.scope?.cancelled === true) return false;
  if (!isLive(client.state)) return false;
  if (isExpiry(e)) return true;
  return e instanceof LockLostError && owner !== undefined && client.sessionId !== owner;
}
