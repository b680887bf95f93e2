/**
 * Taking an item out of a queue exactly once, even when the reply is lost. The delete that succeeds owns the
 * item; it runs in one multi with the create of an EPHEMERAL receipt holding a random token, so after a lost
 * reply the receipt tells whether OUR multi committed (it lives as long as our session; we delete it at once).
 * A bare delete could not tell "I deleted it" from "someone else did" after a lost reply: the item would be
 * dropped or delivered twice. Used by zkts's Queue and by the Curator-compatible queues.
 */
import {
  isConnectionLoss, isExpiry, isNodeExists, isNoNode, isServerCode, reconnected, retrying, retryingAcrossSessions,
  utf8, type RecipeClient,
} from '../internal/index.js';

export interface ClaimTarget {
  /** The item's full path. */
  readonly item: string;
  /** Where the receipt goes (a path nobody else uses; it exists only for the length of the claim). */
  readonly receipt: string;
  /** Delete only this version of the item (Curator deletes with the version it read). */
  readonly version?: number;
  /**
   * `ephemeral` (default): an expiry with the multi in flight rejects (its receipt went with the session).
   * `persistent`: the receipt outlives an expiry too, so the outcome is known even then; only a process that
   * dies between the commit and the receipt's delete leaves it behind.
   */
  readonly receiptMode?: 'ephemeral' | 'persistent';
}

/** Deletes the item with a receipt in one multi; true iff our claim committed, false when someone else took it. */
export async function claimByDelete(client: RecipeClient, target: ClaimTarget): Promise<boolean> {
  const { item, receipt, version } = target;
  const mode = target.receiptMode ?? 'ephemeral';
  const token = globalThis.crypto.randomUUID();
  const del = version === undefined ? { op: 'delete' as const, path: item } : { op: 'delete' as const, path: item, version };
  for (;;) {
    try {
      await client.multi([del, { op: 'create', path: receipt, data: token, mode }]);
      await dropReceipt(client, receipt, mode);
      return true;
    } catch (e) {
      if (isNoNode(e) || isNodeExists(e) || isServerCode(e, 'BAD_VERSION')) return false; // another consumer took it
      if (!isConnectionLoss(e) && !(mode === 'persistent' && isExpiry(e))) throw e;
    }
    // A persistent receipt outlives the session, so its answer is good in the next one too.
    const read = mode === 'persistent' ? retryingAcrossSessions : retrying;
    if (mode === 'persistent') await reconnected(client);
    else await client.connected();
    try {
      const { data } = await read(client, () => client.getData(receipt));
      if (utf8(data) === token) {
        await dropReceipt(client, receipt, mode);
        return true;
      }
      return false;
    } catch (e) {
      if (!isNoNode(e)) throw e;
    }
    // No receipt of ours: our multi did not commit (or its session ended). Try again if the item is still there.
    if ((await read(client, () => client.exists(item))) === null) return false;
  }
}

async function dropReceipt(client: RecipeClient, receipt: string, mode: 'ephemeral' | 'persistent'): Promise<void> {
  if (mode === 'ephemeral') {
    void client.delete(receipt).catch(() => undefined); // the session's end would remove it anyway
    return;
  }
  // A persistent receipt stays unless we delete it: retried across connection losses and expiries (deleting it
  // twice is harmless, it is ours alone).
  try {
    await retryingAcrossSessions(client, () => client.delete(receipt));
  } catch (e) {
    if (!isNoNode(e)) throw e;
  }
}
