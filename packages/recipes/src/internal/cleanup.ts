/**
 * Guaranteed removal of our own nodes. A contender node left behind blocks everyone queued after it forever
 * (pitfall 6: zk-ruby/zk#49, kazoo #732), and a release that gives up on a connection loss leaves the lock held
 * (pitfall 8: CURATOR-678). So removal never uses the caller's signal (it may be the reason we are cleaning
 * up: vitess#15756) and retries after every reconnect until the node is gone or the session that owns it is.
 */
import { joinPath } from '@zkts/protocol';

import { clientState } from './client-state.js';
import { isConnectionLoss, isExpiry, isNoNode, isSessionGone } from './error-kinds.js';
import type { RecipeClient } from './recipe-client.js';
import { childrenAfterSync } from './nodes.js';
import { isLive } from './session-state.js';

/** A removal not tied to one session goes on after an expiry while the client renews its session. */
function outlivesSession(client: RecipeClient, ownerSession: bigint | undefined): boolean {
  return ownerSession === undefined && isLive(client.state);
}

/**
 * Settles once every cleanup these clients started so far has finished (tests use it to check for orphans).
 * The registry is per client (client-state.ts): settling one client never waits on another's outage.
 */
export async function settleCleanups(...clients: RecipeClient[]): Promise<void> {
  for (const client of clients) {
    const { cleanups } = clientState(client);
    while (cleanups.size > 0) await Promise.allSettled([...cleanups]);
  }
}

/** What to remove: a known node, or the node whose create reply was lost (found by its protected prefix). */
export type CleanupTarget =
  | { readonly path: string }
  | { readonly dir: string; readonly prefix: string; readonly create?: Promise<{ path: string }> };

/**
 * Deletes the target, retrying across reconnects. Resolves when it is gone, when the owning session is gone
 * (ephemerals go with it) or when `ownerSession` is no longer the client's session. Without `ownerSession`
 * the node is not tied to a session (a persistent node, or one whose owner we do not know): an expiry does not
 * end the removal, which goes on in the renewed session until the node is gone or the client is over.
 */
export function removeNode(client: RecipeClient, target: CleanupTarget, ownerSession?: bigint): Promise<void> {
  const { cleanups } = clientState(client);
  const job = removeLoop(client, target, ownerSession);
  cleanups.add(job);
  // Settled either way; not with `finally`, which makes two promises more per removal.
  const done = (): void => void cleanups.delete(job);
  void job.then(done, done);
  return job;
}

async function removeLoop(client: RecipeClient, target: CleanupTarget, ownerSession: bigint | undefined): Promise<void> {
  let path: string | undefined;
  if ('path' in target) {
    path = target.path;
  } else if (target.create !== undefined) {
    // A create still in flight: wait for its outcome instead of racing it, or it could land after our search.
    try {
      path = (await target.create).path;
    } catch (e) {
      if (!isConnectionLoss(e)) return; // definitely not created
    }
  }
  for (;;) {
    if (ownerSession !== undefined && client.sessionId !== ownerSession) return;
    try {
      if (path === undefined && !('path' in target)) {
        const found = (await childrenAfterSync(client, target.dir)).find((c) => c.startsWith(target.prefix));
        if (found === undefined) return;
        path = joinPath(target.dir, found);
      }
      if (path === undefined) return;
      await client.delete(path);
      return;
    } catch (e) {
      if (isNoNode(e)) return;
      const expired = isExpiry(e);
      if (isSessionGone(e) && !(expired && outlivesSession(client, ownerSession))) return;
      if (!isConnectionLoss(e) && !expired) return; // e.g. NO_AUTH: retrying cannot help; nothing else is safe to do
      try {
        await client.connected();
      } catch (again) {
        // The session ended: its ephemerals are gone; a node not tied to it is removed in the next session.
        if (!(isExpiry(again) && outlivesSession(client, ownerSession))) return;
      }
    }
  }
}

/**
 * Starts a removal and waits for it while the connection is up; if the client is (or becomes) disconnected, or
 * the removal must first hear how a create in flight ends, the removal goes on in the background and this
 * returns, so a timeout or abort is not held hostage by an outage or a slow write. A recipe that gave up a create
 * on its own close() waits for that removal with settleRemovals (see `owner`).
 */
export async function removeSoon(client: RecipeClient, target: CleanupTarget, ownerSession?: bigint, owner?: object): Promise<void> {
  const job = removeNode(client, target, ownerSession);
  if (owner !== undefined) track(owner, job);
  // Nor by a create still unanswered: a write waits for the leader, and a paused leader holds it while the
  // member we are connected to keeps answering our pings.
  if ('create' in target && target.create !== undefined) return;
  await whileConnected(client, job);
}

/** The background removals each recipe object started (removeSoon's `owner`), until they end. */
const removalsOf = new WeakMap<object, Set<Promise<void>>>();

function track(owner: object, job: Promise<void>): void {
  let jobs = removalsOf.get(owner);
  if (jobs === undefined) removalsOf.set(owner, (jobs = new Set()));
  jobs.add(job);
  const done = (): void => void jobs.delete(job);
  job.then(done, done);
}

/**
 * Waits, while the connection is up, for the removals `owner` started: a close() that aborted its own create
 * returns once that node is gone, as it does for a node it held.
 */
export async function settleRemovals(client: RecipeClient, owner: object): Promise<void> {
  const jobs = removalsOf.get(owner);
  if (jobs === undefined || jobs.size === 0) return;
  await whileConnected(client, Promise.allSettled([...jobs]));
}

/** Waits for `job` while the client stays connected. */
async function whileConnected(client: RecipeClient, job: Promise<unknown>): Promise<void> {
  if (client.state !== 'connected') return;
  let off: (() => void) | undefined;
  const left = new Promise<void>((resolve) => {
    off = client.onStateChange((c) => {
      if (c.state !== 'connected') resolve();
    });
  });
  try {
    await Promise.race([job, left]);
  } finally {
    off?.();
  }
}
