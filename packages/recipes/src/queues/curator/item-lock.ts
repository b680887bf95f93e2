/**
 * The lock-safe mode's per-item lock (Curator's `lockPath`): an EPHEMERAL node `<lockPath>/<item name>` while a
 * consumer works on the item. The item is removed only after its consumer finished; if the consumer's session
 * ends first, the lock goes with it and the item is delivered again. The lock node holds a random token, so a
 * create whose reply was lost is recognised as ours (and a lock of another instance on the same session is not).
 * Every removal runs only while the session that owns the lock is the client's current one: a request made then
 * is sent in that session or fails with it (the client fails queued requests at expiry), so a consumer that
 * lost its lock never removes an item someone else is now working on.
 */
import { joinPath, MultiError } from '@zkts/protocol';

import {
  ensurePersistentDir, isConnectionLoss, isExpiry, isNodeExists, isNoNode, reconnected, retrying, utf8, type Op,
  type RecipeClient,
} from '../../internal/index.js';

/** A lock we hold on one item. */
export interface ItemLock {
  readonly node: string;
  /** The session that owns the lock node; the lock is gone once the client is in another one. */
  readonly session: bigint;
  /** The lock node was deleted with the item, in the same multi: nothing is left to unlock. */
  released?: boolean;
}

/** Locks `<lockDir>/<name>`; null when another consumer holds it. */
export async function lockItem(client: RecipeClient, lockDir: string, name: string): Promise<ItemLock | null> {
  const node = joinPath(lockDir, name);
  const token = globalThis.crypto.randomUUID();
  for (;;) {
    try {
      const { stat } = await client.create(node, token, { mode: 'ephemeral' });
      return { node, session: stat.ephemeralOwner };
    } catch (e) {
      if (isNoNode(e)) {
        await ensurePersistentDir(client, lockDir);
        continue;
      }
      if (!isNodeExists(e) && !isConnectionLoss(e) && !isExpiry(e)) throw e;
    }
    // Exists, or the reply was lost: whose is it? (After an expiry ours is gone with its session: lock again.)
    await reconnected(client);
    try {
      const { data, stat } = await retrying(client, () => client.getData(node));
      return utf8(data) === token ? { node, session: stat.ephemeralOwner } : null;
    } catch (e) {
      if (!isNoNode(e) && !isExpiry(e)) throw e; // absent: our create did not happen (or its session ended): again
    }
  }
}

/** The lock is still ours: the client is in the session that owns it. */
export function stillHeld(client: RecipeClient, lock: ItemLock): boolean {
  return client.sessionId === lock.session;
}

/**
 * Runs `ops` (removing or requeueing the item) while we hold the lock, and deletes the lock in the same multi, so
 * no one ever sees the item finished and its lock still there; retried after a lost reply. True when the item is
 * gone: our multi committed (after a lost reply: the item is gone, which under our lock only we can do), or
 * someone who ignores locks removed it first (the lock then stays for unlockItem). False when the lock went
 * first, with the session or deleted by someone, so the item stays for the next consumer.
 */
export async function commitUnderLock(client: RecipeClient, lock: ItemLock, item: string, ops: Op[]): Promise<boolean> {
  const withLock: Op[] = [...ops, { op: 'delete', path: lock.node }];
  let sent = false;
  for (;;) {
    if (!stillHeld(client, lock)) return false;
    try {
      if (sent && (await client.exists(item)) === null) {
        // Ours committed, lock and all, unless someone who ignores locks removed the item first.
        lock.released = (await client.exists(lock.node)) === null;
        return true;
      }
      if (!stillHeld(client, lock)) return false;
      sent = true;
      await client.multi(withLock);
      return (lock.released = true);
    } catch (e) {
      if (e instanceof MultiError && isNoNode(e)) return e.failedIndex < ops.length;
      if (!isConnectionLoss(e) && !isExpiry(e)) throw e;
    }
    await reconnected(client); // after an expiry the next check finds the lock gone
  }
}

/** Deletes our lock node (Curator's guaranteed delete), unless its session already took it away. */
export async function unlockItem(client: RecipeClient, lock: ItemLock): Promise<void> {
  for (;;) {
    if (lock.released === true || !stillHeld(client, lock)) return;
    try {
      await client.delete(lock.node);
      return;
    } catch (e) {
      if (isNoNode(e)) return;
      if (!isConnectionLoss(e) && !isExpiry(e)) throw e;
    }
    await reconnected(client); // after an expiry the next check finds the lock gone
  }
}
