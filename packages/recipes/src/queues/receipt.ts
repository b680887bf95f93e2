/**
 * Exactly-once for a multi that cannot be retried blindly (sequential creates: a repeat adds a second node), when
 * the nodes' names have no room for a uuid to find them by (another library's layout). The multi also creates
 * an EPHEMERAL receipt node with a fresh uuid name: after a lost reply, in the same session, the receipt exists
 * iff the multi committed (sync first, so a write the old connection got through is visible). If the session
 * ended before we could look, the receipt went with it and the outcome is unknown: OutcomeUnknownError, never
 * a guess. The receipt is deleted once the outcome is known (the session's end would remove it anyway).
 */
import { joinPath, MultiError } from '@zkts/protocol';

import { OutcomeUnknownError } from '../errors.js';
import {
  isConnectionLoss, isExpiry, isLive, isNoNode, reconnected, type Op, type RecipeClient,
} from '../internal/index.js';

/**
 * Commits `ops` once, with a receipt `<receiptDir>/_zkts-put-<uuid>` in the same multi. `onNoNode` runs when a
 * parent is missing (then the multi is sent again). Resolves once the multi is known to have committed.
 */
export async function commitOnce(client: RecipeClient, receiptDir: string, ops: readonly Op[], onNoNode: () => Promise<void>): Promise<void> {
  const receipt = joinPath(receiptDir, `_zkts-put-${globalThis.crypto.randomUUID()}`);
  const all: Op[] = [...ops, { op: 'create', path: receipt, mode: 'ephemeral' }];
  for (;;) {
    const session = client.sessionId;
    try {
      await client.multi(all);
      void client.delete(receipt).catch(() => undefined);
      return;
    } catch (e) {
      if (e instanceof MultiError && isNoNode(e)) {
        await onNoNode();
        continue;
      }
      // The client fails a request with the session's expiry only if it was never sent (one in flight fails
      // with a connection loss), and the server refuses one for an expired session: not applied, send again.
      if (isExpiry(e) && isLive(client.state)) continue;
      if (!isConnectionLoss(e)) throw e;
      if (await receiptFound(client, receipt, session)) return;
    }
  }
}

/** After a lost reply: true if the receipt shows the multi committed; false = it did not, send it again. */
async function receiptFound(client: RecipeClient, receipt: string, session: bigint): Promise<boolean> {
  for (;;) {
    await reconnected(client);
    if (client.sessionId !== session) {
      throw new OutcomeUnknownError(`${receipt}: the session ended before the outcome of a write was known`);
    }
    try {
      await client.sync(receipt);
      if ((await client.exists(receipt)) === null) return false;
      void client.delete(receipt).catch(() => undefined);
      return true;
    } catch (e) {
      if (!isConnectionLoss(e) && !isExpiry(e)) throw e;
    }
  }
}
