/**
 * The life of one lock instance as ONE value instead of separate flags: idle, waiting for a grant, held, or
 * releasing (the delete of our node is still under way, so a new acquire must wait for it or it could overlap a
 * stale node of ours). Separate `pending`/`hold`/`releasing` fields allowed combinations that mean nothing
 * (held and waiting at once); a union does not.
 */
import type { Scope } from './wait.js';

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
}
