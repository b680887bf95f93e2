/**
 * What a failed ZooKeeper call means for a recipe: which server code it carries, whether the connection or the
 * session is gone.
 */
import { AuthFailedError, ClientClosedError, ConnectionLossError, ServerError, SessionExpiredError } from '@zkts/protocol';

export function isServerCode(e: unknown, code: string): boolean {
  return e instanceof ServerError && e.code === code;
}
export const isNoNode = (e: unknown): boolean => isServerCode(e, 'NO_NODE');
export const isNodeExists = (e: unknown): boolean => isServerCode(e, 'NODE_EXISTS');
export const isConnectionLoss = (e: unknown): boolean => e instanceof ConnectionLossError;

/**
 * The session is gone for good: nothing ephemeral of ours survives, and retrying cannot help. A server-sent
 * SESSION_EXPIRED (-112) reply arrives as a ServerError today and as a SessionExpiredError once the client maps
 * it (protocol's pending change): both count.
 */
export function isSessionGone(e: unknown): boolean {
  return (
    e instanceof SessionExpiredError ||
    e instanceof ClientClosedError ||
    e instanceof AuthFailedError ||
    isServerCode(e, 'SESSION_EXPIRED')
  );
}

/**
 * The error says our session ended (not the client): with renewal the client goes on in a new session, and a
 * recipe waiting in the old one may start over there.
 */
export function isExpiry(e: unknown): boolean {
  return e instanceof SessionExpiredError || isServerCode(e, 'SESSION_EXPIRED');
}

/** A server before 3.6 answers addWatch with UNIMPLEMENTED: the caches then fall back to one-shot watches. */
export const isUnimplemented = (e: unknown): boolean => isServerCode(e, 'UNIMPLEMENTED');
