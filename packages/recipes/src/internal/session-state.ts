/** What a session state means for a recipe: whether requests go out now, whether the client has a future. */
import type { SessionState } from '@zkts/protocol';

/**
 * The client can still have a session: not closed, not auth-failed, and not expired for good. With session
 * renewal (the client's default) `expired` is a passing state, heard only by state listeners: by the time a
 * recipe's own code reads `client.state` again, it is `connecting` to a new session. So `!isLive(client.state)`
 * means "this client is over" and a recipe stops; a renewed client is live and the recipe carries on in the
 * new session.
 */
export function isLive(state: SessionState): boolean {
  return state !== 'expired' && state !== 'closed' && state !== 'auth-failed';
}

/** A state in which requests go out now. */
export function isConnectedState(state: SessionState): boolean {
  return state === 'connected' || state === 'connected-read-only';
}

/** States after which nothing more will happen with this client. */
export function isFinalState(state: SessionState): boolean {
  return state === 'closed' || state === 'auth-failed';
}
