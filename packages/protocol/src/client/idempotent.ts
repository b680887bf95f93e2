/**
 * The two writes zkts repeats after a lost reply, because they are made safe to repeat:
 *
 *   guaranteed delete  (Curator's `guaranteed()`) keeps trying across reconnects until the node is gone. A
 *                      NO_NODE after a lost try means that try was applied. It gives up only when the session
 *                      ends (an expiry: the client's ephemerals went with it; a close) or on an error that a
 *                      retry cannot fix (NO_AUTH, NOT_EMPTY, BAD_VERSION on the first try…).
 *   protected create   (Curator's `withProtection()`) names the node `_c_<uuid>-<name>`; after a lost reply it
 *                      looks for that uuid among the parent's children before trying again, so a create that
 *                      was applied is found instead of made twice. An ephemeral found must be owned by the
 *                      current session; one made in an expired session is gone with it, and the create fails.
 *
 * Both are built only on the client's public operations; a repeated try says its number in its options
 * (`ATTEMPT`, request-trace.ts), so its zkts:request trace shows it as a retry.
 */
import { ConnectionLossError, ServerError, SessionExpiredError } from '../errors/errors.js';
import { KeeperCode } from '../errors/codes.js';
import { raceCancel } from './cancel.js';
import { basename, joinPath, parentPath } from './paths.js';
import { ATTEMPT, type AttemptOption } from './request-trace.js';
import type { CallOptions, CreateOptions, Data, Stat } from './types.js';

/** The operations these use (ZkClient has them). */
export interface IdempotentClient {
  readonly sessionId: bigint;
  connected(options?: CallOptions): Promise<void>;
  create(path: string, data?: Data | null, options?: CreateOptions & AttemptOption): Promise<{ path: string; stat: Stat }>;
  delete(path: string, options?: CallOptions & { version?: number } & AttemptOption): Promise<void>;
  exists(path: string, options?: CallOptions): Promise<Stat | null>;
  getChildren(path: string, options?: CallOptions): Promise<{ children: string[]; stat: Stat }>;
}

const isCode = (e: unknown, code: number): boolean => e instanceof ServerError && e.keeperCode === code;

/** The prefix Curator's protection mode puts before a node's name. */
export function protectedName(uuid: string, name: string): string {
  return `_c_${uuid}-${name}`;
}

/**
 * Deletes `path`, retrying after every connection loss once connected again. The caller's signal/timeout only
 * stop the caller's wait: the work goes on in the background until it is done or the session is gone.
 */
export function guaranteedDelete(client: IdempotentClient, path: string, version: number | undefined, options: CallOptions): Promise<void> {
  return raceCancel(deleteUntilGone(client, path, version), options, 'guaranteed delete');
}

async function deleteUntilGone(client: IdempotentClient, path: string, version: number | undefined): Promise<void> {
  const session = client.sessionId;
  for (let attempt = 1; ; attempt++) {
    try {
      await client.delete(path, version === undefined ? { [ATTEMPT]: attempt } : { version, [ATTEMPT]: attempt });
      return;
    } catch (error) {
      if (attempt > 1 && isCode(error, KeeperCode.NO_NODE)) return; // a lost try was applied
      if (!(error instanceof ConnectionLossError)) throw error;
    }
    // Rejects when the session ends meanwhile: the delete is abandoned with it.
    await client.connected();
    if (session !== 0n && client.sessionId !== session) throw new SessionExpiredError('the session ended before the guaranteed delete was done');
  }
}

/** Creates `path` under Curator's protection scheme; returns the node's real path (with the prefix) and Stat. */
export async function protectedCreate(client: IdempotentClient, path: string, data: Data | null | undefined, options: CreateOptions): Promise<{ path: string; stat: Stat }> {
  const parent = parentPath(path);
  const prefix = protectedName(globalThis.crypto.randomUUID(), '');
  const target = joinPath(parent, `${prefix}${basename(path)}`);
  const ephemeral = options.mode === 'ephemeral' || options.mode === 'ephemeral-sequential';
  const session = client.sessionId;
  const { protected: _, ...createOptions } = options as CreateOptions & { protected?: boolean };
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.create(target, data, attempt === 1 ? createOptions : { ...createOptions, [ATTEMPT]: attempt });
    } catch (error) {
      if (!(error instanceof ConnectionLossError)) throw error;
    }
    await client.connected(pickSignal(options));
    if (ephemeral && client.sessionId !== session) throw new SessionExpiredError('the session ended before the protected create was confirmed');
    const { children } = await client.getChildren(parent, pickSignal(options));
    const found = children.find((c) => c.startsWith(prefix));
    if (found === undefined) continue; // never applied: try again
    const foundPath = joinPath(parent, found);
    const stat = await client.exists(foundPath, pickSignal(options));
    if (stat === null) continue;
    if (ephemeral && stat.ephemeralOwner !== client.sessionId) throw new SessionExpiredError('the protected node belongs to a session that ended');
    return { path: foundPath, stat };
  }
}

function pickSignal(options: CallOptions): CallOptions {
  return options.signal === undefined ? {} : { signal: options.signal };
}
