/**
 * The two writes zkts makes safe to repeat, and finishes in the background (background-writes.ts):
 *
 *   guaranteed delete  (Curator's `guaranteed()` with its FailedDeleteManager) tries until the node is gone,
 *                      across reconnects and session renewals. A NO_NODE after a lost try means that try was
 *                      applied. After a new session, an ephemeral node found at the path is not the one asked
 *                      for (that one went with its session): it is left alone (`replaced`). It stops on an error
 *                      a retry cannot fix (NO_AUTH, NOT_EMPTY, BAD_VERSION, NO_NODE on the first try…), at its
 *                      bounds, on close(), or when the session ends with no renewal.
 *   protected create   (Curator's `withProtection()`) names the node `_c_<uuid>-<name>`; after a lost reply it
 *                      syncs, then looks for that uuid among the parent's children before trying again, so a
 *                      create that was applied is found instead of made twice. An ephemeral found must be owned
 *                      by the current session; one made in an expired session is gone with it, and the create
 *                      fails. When the create fails with its outcome unknown (timeout, abort, connection loss, a
 *                      session end), a background clean-up syncs, lists the parent and deletes the child with
 *                      our uuid (Curator's FindAndDeleteProtectedNodeInBackground), so no orphan is left.
 *
 * Both are built only on the client's public operations; a repeated try says its number in its options
 * (`ATTEMPT`, request-trace.ts), so its zkts:request trace shows it as a retry.
 */
import { ConnectionLossError, ServerError, SessionExpiredError, ZkError } from '../errors/errors.js';
import { KeeperCode } from '../errors/codes.js';
import { raceCancel } from './cancel.js';
import type { BackgroundWrites, StepResult } from './background-writes.js';
import { basename, joinPath, parentPath } from './paths.js';
import { ATTEMPT, type AttemptOption } from './request-trace.js';
import type { CallOptions, CreateOptions, Data, Stat } from './types.js';

export type { BackgroundWrites } from './background-writes.js';

/** The operations these use (ZkClient has them). */
export interface IdempotentClient {
  readonly sessionId: bigint;
  connected(options?: CallOptions): Promise<void>;
  create(path: string, data?: Data | null, options?: CreateOptions & AttemptOption): Promise<{ path: string; stat: Stat }>;
  delete(path: string, options?: CallOptions & { version?: number } & AttemptOption): Promise<void>;
  exists(path: string, options?: CallOptions): Promise<Stat | null>;
  getChildren(path: string, options?: CallOptions): Promise<{ children: string[]; stat: Stat }>;
  sync(path: string, options?: CallOptions): Promise<void>;
}

const isCode = (e: unknown, code: number): boolean => e instanceof ServerError && e.keeperCode === code;

/** The prefix Curator's protection mode puts before a node's name. */
export function protectedName(uuid: string, name: string): string {
  return `_c_${uuid}-${name}`;
}

/**
 * Deletes `path` through a background write and waits for it: resolves once the node is gone (or, after a new
 * session, replaced by an ephemeral that is not ours). The caller's signal/timeout only stop the caller's
 * wait: the write goes on, listed in `pendingWrites`, until done or bounded.
 */
export function guaranteedDelete(client: IdempotentClient, background: BackgroundWrites, path: string, version: number | undefined, options: CallOptions): Promise<void> {
  // The session the caller asked in: an ephemeral it meant belongs to it, and goes when it ends.
  let session = client.sessionId;
  const step = async (attempt: number): Promise<StepResult> => {
    if (session === 0n) session = client.sessionId;
    if (client.sessionId !== session) {
      // A new session: our ephemeral went with the old one, so an ephemeral here now is another node.
      const stat = await client.exists(path);
      if (stat === null) return 'done';
      if (stat.ephemeralOwner !== 0n) return 'replaced';
      session = client.sessionId;
    }
    try {
      await client.delete(path, version === undefined ? { [ATTEMPT]: attempt } : { version, [ATTEMPT]: attempt });
    } catch (error) {
      if (attempt > 1 && isCode(error, KeeperCode.NO_NODE)) return 'done'; // a lost try was applied
      throw error;
    }
    return 'done';
  };
  return raceCancel(background.run('guaranteed-delete', path, step).then(() => undefined), options, 'guaranteed delete');
}

/** Creates `path` under Curator's protection scheme; returns the node's real path (with the prefix) and Stat. */
export async function protectedCreate(client: IdempotentClient, background: BackgroundWrites, path: string, data: Data | null | undefined, options: CreateOptions): Promise<{ path: string; stat: Stat }> {
  const parent = parentPath(path);
  const prefix = protectedName(globalThis.crypto.randomUUID(), '');
  const target = joinPath(parent, `${prefix}${basename(path)}`);
  const ephemeral = options.mode === 'ephemeral' || options.mode === 'ephemeral-sequential';
  const session = client.sessionId;
  const { protected: _, ...createOptions } = options as CreateOptions & { protected?: boolean };
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        return await client.create(target, data, attempt === 1 ? createOptions : { ...createOptions, [ATTEMPT]: attempt });
      } catch (error) {
        if (!(error instanceof ConnectionLossError)) throw error;
      }
      await client.connected(pickSignal(options));
      if (ephemeral && client.sessionId !== session) throw new SessionExpiredError('the session ended before the protected create was confirmed');
      const found = (await childrenAfterSync(client, parent, pickSignal(options))).find((c) => c.startsWith(prefix));
      if (found === undefined) continue; // never applied: try again
      const foundPath = joinPath(parent, found);
      const stat = await client.exists(foundPath, pickSignal(options));
      if (stat === null) continue;
      if (ephemeral && stat.ephemeralOwner !== client.sessionId) throw new SessionExpiredError('the protected node belongs to a session that ended');
      return { path: foundPath, stat };
    }
  } catch (error) {
    if (outcomeUnknown(error) && !(ephemeral && client.sessionId !== session)) {
      void background.run('protected-cleanup', target, cleanupStep(client, parent, prefix, ephemeral, session)).catch(() => undefined);
    }
    throw error;
  }
}

/** Errors after which the create may have been applied (a definite server answer like NO_NODE says it was not). */
function outcomeUnknown(error: unknown): boolean {
  return error instanceof ZkError && (error.code === 'CONNECTION_LOSS' || error.code === 'TIMEOUT' || error.code === 'ABORTED' || error.code === 'SESSION_EXPIRED');
}

/**
 * Finds the child carrying our uuid and deletes it. An ephemeral made in a session that has ended is gone with it.
 */
function cleanupStep(client: IdempotentClient, parent: string, prefix: string, ephemeral: boolean, session: bigint): () => Promise<StepResult> {
  return async () => {
    if (ephemeral && client.sessionId !== session) return 'done';
    let children: string[];
    try {
      children = await childrenAfterSync(client, parent, {});
    } catch (error) {
      if (isCode(error, KeeperCode.NO_NODE)) return 'done'; // the parent is gone, and the node with it
      throw error;
    }
    const found = children.find((c) => c.startsWith(prefix));
    if (found === undefined) return 'done';
    try {
      await client.delete(joinPath(parent, found));
    } catch (error) {
      if (!isCode(error, KeeperCode.NO_NODE)) throw error;
    }
    return 'done';
  };
}

/**
 * The parent's children with every write the leader took before this call applied. On one connection a session's
 * requests are answered in order, but after a connection loss the list goes to whichever member we reach next,
 * which answers from what it has applied: a create of ours the leader had in flight when the connection broke
 * can reach that member a moment later, and a plain list would miss it.
 */
async function childrenAfterSync(client: IdempotentClient, parent: string, options: CallOptions): Promise<string[]> {
  await client.sync(parent, options);
  return (await client.getChildren(parent, options)).children;
}

function pickSignal(options: CallOptions): CallOptions {
  return options.signal === undefined ? {} : { signal: options.signal };
}
