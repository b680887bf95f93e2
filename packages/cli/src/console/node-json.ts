/** ZooKeeper's records as the API's JSON (api-types.ts): Stat with `0x…` zxids, ACL perms as `cdrwa` letters. */
import type { ACL, Stat } from '@zkts/protocol';

import type { AclEntry, StatInfo } from './api-types.js';
import { hexId } from '../ids.js';

export function statInfo(stat: Stat): StatInfo {
  return {
    czxid: hexId(stat.czxid),
    mzxid: hexId(stat.mzxid),
    pzxid: hexId(stat.pzxid),
    ctime: stat.ctime,
    mtime: stat.mtime,
    version: stat.version,
    cversion: stat.cversion,
    aversion: stat.aversion,
    ephemeralOwner: hexId(stat.ephemeralOwner),
    dataLength: stat.dataLength,
    numChildren: stat.numChildren,
  };
}

/** ZooKeeper's permission bits in `cdrwa` order (the order zkCli prints them). */
const PERM_LETTERS: readonly (readonly [string, number])[] = [
  ['c', 4],
  ['d', 8],
  ['r', 1],
  ['w', 2],
  ['a', 16],
];

export function permsText(perms: number): string {
  return PERM_LETTERS.filter(([, bit]) => (perms & bit) !== 0)
    .map(([letter]) => letter)
    .join('');
}

export function aclEntries(acl: readonly ACL[]): AclEntry[] {
  return acl.map((entry) => ({ scheme: entry.id.scheme, id: entry.id.id, perms: permsText(entry.perms) }));
}
