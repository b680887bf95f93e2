/** The retry rules the recipes share: which calls go again after a connection loss, and across an expiry. */
import { isConnectionLoss, isExpiry } from './error-kinds.js';
import type { RecipeClient } from './recipe-client.js';
import { isLive } from './session-state.js';

/**
 * Runs an idempotent call (a read, or a write whose repeat is harmless), retrying after a connection loss once
 * the client is connected again. A gone session surfaces as the client's own error.
 */
export async function retrying<T>(client: RecipeClient, call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (e) {
      if (!isConnectionLoss(e)) throw e;
      await client.connected();
    }
  }
}

/**
 * Waits until the client is connected again: in the same session, or after an expiry (with renewal) in the next
 * one. `client.connected()` alone rejects at an expiry, because what its caller waited for is gone; a step
 * whose outcome does not depend on the session (a persistent node, a read) can go on in the next session.
 * Rejects only when the client is over (closed, auth-failed, expired without renewal).
 */
export async function reconnected(client: RecipeClient): Promise<void> {
  for (;;) {
    try {
      await client.connected();
      return;
    } catch (e) {
      if (!isExpiry(e) || !isLive(client.state)) throw e;
    }
  }
}

/** Like `retrying`, also across an expiry: for calls whose meaning does not depend on the session (reads of persistent nodes). */
export async function retryingAcrossSessions<T>(client: RecipeClient, call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (e) {
      if (!isConnectionLoss(e) && !isExpiry(e)) throw e;
      await reconnected(client);
    }
  }
}
