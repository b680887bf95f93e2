/**
 * A node as the console's JSON shows it (api-types.ts NodeInfo): Stat ids as `0x…` hex, ACL perms as `cdrwa`
 * letters, data as base64. The write routes answer with one after a write and attach one to a version conflict,
 * so the page can show the node as it is now.
 */
import type { ACL, Stat, ZkClient } from '@zkts/protocol';

import type { AclEntry, NodeInfo, StatInfo } from '../api-types.js';

const hex = (value: bigint): string => `0x${value.toString(16)}`;

export function statInfo(stat: Stat): StatInfo {
  return {
    czxid: hex(stat.czxid),
    mzxid: hex(stat.mzxid),
    pzxid: hex(stat.pzxid),
    ctime: stat.ctime,
    mtime: stat.mtime,
    version: stat.version,
    cversion: stat.cversion,
    aversion: stat.aversion,
    ephemeralOwner: hex(stat.ephemeralOwner),
    dataLength: stat.dataLength,
    numChildren: stat.numChildren,
  };
}

/** ZooKeeper's permission bits, in the `cdrwa` order the console writes them. */
export const PERM_BITS: readonly (readonly [string, number])[] = [
  ['c', 4],
  ['d', 8],
  ['r', 1],
  ['w', 2],
  ['a', 16],
];

export function permsText(perms: number): string {
  return PERM_BITS.filter(([, bit]) => (perms & bit) !== 0)
    .map(([letter]) => letter)
    .join('');
}

export function aclEntries(acl: readonly ACL[]): AclEntry[] {
  return acl.map((entry) => ({ scheme: entry.id.scheme, id: entry.id.id, perms: permsText(entry.perms) }));
}

/** The node's data, Stat and ACL as read now (two reads: ZooKeeper has no single call for all three). */
export async function readNode(client: ZkClient, path: string, signal?: AbortSignal): Promise<NodeInfo> {
  const options = signal === undefined ? {} : { signal };
  const [data, acl] = await Promise.all([client.getData(path, options), client.getACL(path, options)]);
  return { path, stat: statInfo(data.stat), data: data.data.toString('base64'), acl: aclEntries(acl.acl) };
}
