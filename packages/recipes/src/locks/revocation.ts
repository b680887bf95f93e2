/**
 * Lock revocation, Curator style (InterProcessMutex.makeRevocable, RevocationSpec, Revoker.attemptRevoke): anyone
 * may ask the holder of a lock node to let go by writing the bytes of "__REVOKE__" into that node; a holder that
 * opted in watches its own node's data and, on seeing the marker, is told (it decides whether to release; the
 * request is a request, not a forced removal). The marker and the place it is written are Curator's, so a
 * Curator process can revoke a zkts holder and the other way round.
 *
 * Faults: the data watch is re-registered by the client after a reconnect, and the server then fires it if the
 * data changed meanwhile, so a request written while the holder was disconnected is heard after the reconnect.
 * Watching ends when the lock handle is released or lost (a lost lock has nothing left to revoke).
 */
import { LockLostError } from '../errors.js';
import { checkArg, clientRule, isConnectionLoss, isNoNode, rules, type RecipeClient } from '../internal/index.js';
import type { LockHandle } from './lock-handle.js';

/** Curator's revocation marker (LockInternals.REVOKE_MESSAGE): the bytes of "__REVOKE__". */
export const REVOKE_MESSAGE: Uint8Array = new TextEncoder().encode('__REVOKE__');

/** A lock handle, as far as watching its node needs one. */
const LEASE = {
  expect: 'a lock handle (node, lost, released)',
  test: (v: unknown) => typeof v === 'object' && v !== null && typeof (v as LockHandle).node === 'string' && (v as LockHandle).lost instanceof AbortSignal,
};

function isRevoke(data: Uint8Array): boolean {
  return data.length === REVOKE_MESSAGE.length && data.every((b, i) => b === REVOKE_MESSAGE[i]);
}

/**
 * Asks the holder of `node` (a lock node path, e.g. from a lock's `participants()`) to release it, by writing
 * Curator's marker into the node (Revoker.attemptRevoke). Resolves false if the node is already gone.
 */
export async function attemptRevoke(client: RecipeClient, node: string): Promise<boolean> {
  checkArg('attemptRevoke', 'client', client, clientRule);
  checkArg('attemptRevoke', 'node', node, rules.path);
  try {
    await client.setData(node, REVOKE_MESSAGE);
    return true;
  } catch (e) {
    if (isNoNode(e)) return false;
    throw e;
  }
}

/**
 * Makes a held lock revocable (Curator's makeRevocable for a granted lock): calls `listener` once when someone
 * writes the revocation marker into the lock's node, including one written before this call. Returns a function
 * that stops watching; watching also stops when the handle is released or lost.
 */
export function onRevocationRequest(client: RecipeClient, lease: LockHandle, listener: (lease: LockHandle) => void): () => void {
  checkArg('onRevocationRequest', 'client', client, clientRule);
  checkArg('onRevocationRequest', 'lease', lease, LEASE);
  checkArg('onRevocationRequest', 'listener', listener, rules.function);
  const stop = new AbortController();
  const ended = (): boolean => stop.signal.aborted || lease.released || lease.lost.aborted;
  const over = new Promise<void>((resolve) => {
    const done = (): void => resolve();
    stop.signal.addEventListener('abort', done, { once: true });
    lease.lost.addEventListener('abort', done, { once: true });
  });
  const watch = async (): Promise<void> => {
    while (!ended()) {
      try {
        const { data, watch: changed } = await client.getData(lease.node, { watch: true });
        if (isRevoke(data)) {
          if (!ended()) listener(lease);
          return;
        }
        const event = await Promise.race([changed, over]);
        if (event !== undefined && event.type === 'deleted') return;
      } catch (e) {
        if (isNoNode(e) || !isConnectionLoss(e)) return; // node gone, or the session: the lease is lost
        await Promise.race([client.connected(), over]).catch(() => undefined);
      }
    }
  };
  void watch();
  return () => stop.abort(new LockLostError('revocation watch stopped'));
}
