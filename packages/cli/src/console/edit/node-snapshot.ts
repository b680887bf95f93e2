/**
 * The node as it is now (data, Stat, ACL as api-types.ts NodeInfo), for the answer to a stale-version write:
 * the page shows it next to what the user wrote.
 */
import type { ZkClient } from '@zkts/protocol';

import type { NodeInfo } from '../api-types.js';
import { aclEntries, statInfo } from '../node-json.js';

/** Two reads: ZooKeeper has no single call for data and ACL. */
export async function readNode(client: ZkClient, path: string, signal?: AbortSignal): Promise<NodeInfo> {
  const options = signal === undefined ? {} : { signal };
  const [data, acl] = await Promise.all([client.getData(path, options), client.getACL(path, options)]);
  return { path, stat: statInfo(data.stat), data: data.data.toString('base64'), acl: aclEntries(acl.acl) };
}
