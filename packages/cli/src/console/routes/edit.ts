/**
 * Writes: POST /api/create, /api/set, /api/delete, /api/acl, and GET /api/count (what a recursive delete
 * removes). Every write goes through the console's zkts client; a refusal keeps ZooKeeper's code and says what
 * was tried in words (edit/words.ts). A stale version (BAD_VERSION) is answered 409 with the node as it is now,
 * so the page can show what changed meanwhile. The HTTP layer has already refused POSTs under --read-only and
 * without the CSRF header before these run.
 */
import type { ZkClient } from '@zkts/protocol';

import { ConsoleApiError } from '../api-error.js';
import type { CreateReply, DeleteReply, NodeInfo, SubtreeCount } from '../api-types.js';
import { readNode } from '../edit/node-snapshot.js';
import { aclCall, createCall, deleteCall, pathField, setCall } from '../edit/requests.js';
import { countSubtree, deleteSubtree, walkSubtree } from '../edit/subtree.js';
import { isCode, refusal } from '../edit/words.js';
import { aclEntries, statInfo } from '../node-json.js';
import type { Route } from '../router.js';

export interface EditDeps {
  readonly client: ZkClient;
  /** The largest subtree /api/count counts and /api/delete removes (default 1,000,000 nodes). */
  readonly maxSubtree?: number;
}

const DEFAULT_MAX_SUBTREE = 1_000_000;

/** A refusal for a stale version, with the node as it is now (when it can still be read). */
async function conflict(client: ZkClient, action: string, path: string, error: unknown): Promise<ConsoleApiError> {
  let current: NodeInfo | undefined;
  try {
    current = await readNode(client, path);
  } catch {
    // Gone or unreadable now: the refusal still says what happened.
  }
  if (current === undefined) return refusal(action, error);
  return refusal(action, error, { current, detail: `it is at version ${current.stat.version}, ACL version ${current.stat.aversion} now` });
}

export function editRoutes(deps: EditDeps): Route[] {
  const { client } = deps;
  const limit = deps.maxSubtree ?? DEFAULT_MAX_SUBTREE;
  /** A write at a version read: BAD_VERSION answers with the node as it is now, any other refusal in words. */
  const versioned = async <T>(action: string, path: string, write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } catch (error) {
      throw isCode(error, 'BAD_VERSION') ? await conflict(client, action, path, error) : refusal(action, error);
    }
  };
  return [
    {
      method: 'POST',
      path: '/api/create',
      handle: async ({ body }): Promise<CreateReply> => {
        const call = createCall(body);
        const options = { mode: call.mode, ...(call.ttl === undefined ? {} : { ttl: call.ttl }), ...(call.acl === undefined ? {} : { acl: call.acl }) };
        try {
          return { path: (await client.create(call.path, call.data, options)).path };
        } catch (error) {
          throw refusal(`create ${call.path} (${call.modeName})`, error);
        }
      },
    },
    {
      method: 'POST',
      path: '/api/set',
      handle: async ({ body }): Promise<NodeInfo> => {
        const call = setCall(body);
        const stat = await versioned(`set the data of ${call.path} at version ${call.version}`, call.path, () =>
          client.setData(call.path, call.data, { version: call.version }));
        // The reply's Stat, not a fresh read: a write landing just after ours must show up as the next conflict.
        const acl = await client.getACL(call.path).then((r) => aclEntries(r.acl), () => []);
        return { path: call.path, stat: statInfo(stat), data: call.data.toString('base64'), acl };
      },
    },
    {
      method: 'POST',
      path: '/api/acl',
      handle: async ({ body }): Promise<NodeInfo> => {
        const call = aclCall(body);
        const stat = await versioned(`set the ACL of ${call.path} at ACL version ${call.aversion}`, call.path, () =>
          client.setACL(call.path, call.acl, { version: call.aversion }));
        // The new ACL may no longer let the console read the data: the answer then carries none.
        const data = await client.getData(call.path).then((r) => r.data.toString('base64'), () => '');
        return { path: call.path, stat: statInfo(stat), data, acl: aclEntries(call.acl) };
      },
    },
    {
      method: 'POST',
      path: '/api/delete',
      handle: async ({ body }): Promise<DeleteReply> => {
        const call = deleteCall(body);
        if (!call.recursive) {
          const action = `delete ${call.path}${call.version === -1 ? '' : ` at version ${call.version}`}`;
          await versioned(action, call.path, () => client.delete(call.path, { version: call.version }));
          return { deleted: 1 };
        }
        const confirmed = call.confirmCount ?? 0;
        // Re-counted now: the user confirmed a number, and a subtree that grew since must be confirmed again.
        const subtree = await walkSubtree(
          client,
          call.path,
          Math.min(confirmed, limit),
          () =>
            confirmed >= limit
              ? new ConsoleApiError(413, 'TOO_LARGE', `more than ${limit.toLocaleString('en-US')} nodes under ${call.path}: too many for the console to delete`)
              : new ConsoleApiError(409, 'CONFLICT', `${call.path} has more than the ${confirmed.toLocaleString('en-US')} nodes confirmed now: count again and confirm the new number`),
        );
        return { deleted: await deleteSubtree(client, call.path, subtree) };
      },
    },
    {
      method: 'GET',
      path: '/api/count',
      handle: async ({ query, signal }): Promise<SubtreeCount> => {
        const path = pathField(query.get('path') ?? undefined);
        return { path, count: await countSubtree(client, path, limit, signal) };
      },
    },
  ];
}
