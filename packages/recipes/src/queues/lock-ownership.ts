/**
 * Whose is a LockingQueue's lock node, and what became of a consume whose reply was lost (locking-queue.ts). A
 * lock node is `<path>/taken/<entry name>`, EPHEMERAL, holding the consumer's id; only its owner deletes it, by
 * consume or release, or its session does by ending.
 */
import { OutcomeUnknownError } from '../errors.js';
import { isConnectionLoss, isExpiry, isNoNode, reconnected, retrying, utf8, type RecipeClient } from '../internal/index.js';

/** What these helpers read of a held entry. */
export interface HeldLock {
  /** Full path of the entry node. */
  readonly path: string;
  /** Full path of our lock node on it. */
  readonly lockPath: string;
  /** The session that made the lock node. */
  readonly sessionId: bigint;
}

/**
 * Whose is a lock node, after a reconnect: our current session's (its id) if it holds our id (`consumerId`) and
 * that session owns it; false if it is someone else's or an older session's (dying with it); undefined if absent.
 * The id is one queue instance's alone, and an instance locks one entry at a time.
 */
export async function lockOwner(client: RecipeClient, consumerId: string, lockPath: string): Promise<bigint | false | undefined> {
  for (;;) {
    await reconnected(client);
    try {
      await client.sync(lockPath);
      const { data, stat } = await client.getData(lockPath);
      return stat.ephemeralOwner === client.sessionId && utf8(data) === consumerId ? stat.ephemeralOwner : false;
    } catch (e) {
      if (isNoNode(e)) return undefined;
      if (!isConnectionLoss(e) && !isExpiry(e)) throw e;
    }
  }
}

/** Is our lock node still there, ours, in our session? (kazoo's holds_lock, plus the session.) */
export async function owns(client: RecipeClient, consumerId: string, entry: HeldLock): Promise<boolean> {
  for (;;) {
    if (client.sessionId !== entry.sessionId) return false;
    try {
      await client.sync(entry.lockPath);
      const { data, stat } = await client.getData(entry.lockPath);
      return stat.ephemeralOwner === entry.sessionId && utf8(data) === consumerId;
    } catch (e) {
      if (isNoNode(e)) return false;
      if (!isConnectionLoss(e) && !isExpiry(e)) throw e;
      if (!(await stillIn(client, entry.sessionId))) return false;
    }
  }
}

/** A consume whose reply was lost: true = committed, false = not (and the lock is lost), undefined = retry. */
export async function settleConsume(client: RecipeClient, entry: HeldLock): Promise<boolean | undefined> {
  for (;;) {
    if (!(await stillIn(client, entry.sessionId))) return settleAfterExpiry(client, entry);
    try {
      await client.sync(entry.lockPath);
      // Our lock node is deleted only by our own consume or release, or with our session.
      return (await client.exists(entry.lockPath)) === null ? true : undefined;
    } catch (e) {
      if (!isConnectionLoss(e) && !isExpiry(e)) throw e;
    }
  }
}

/** Our session ended around a consume: an entry still present was not removed; a gone one cannot be told. */
export async function settleAfterExpiry(client: RecipeClient, entry: HeldLock): Promise<boolean> {
  await retrying(client, () => client.sync(entry.path));
  if ((await retrying(client, () => client.exists(entry.path))) !== null) return false;
  throw new OutcomeUnknownError(`${entry.path}: the session ended while a consume was under way, and the entry is gone`);
}

/** Waits for a connection; true if it is still in `sessionId`. A client that is over rejects. */
async function stillIn(client: RecipeClient, sessionId: bigint): Promise<boolean> {
  await reconnected(client);
  return client.sessionId === sessionId;
}
