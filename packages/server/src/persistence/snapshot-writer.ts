/**
 * Writes the tree and the sessions as a ZooKeeper snapshot (FileSnap.serialize): the sessions with their
 * timeouts, the ACL cache (ReferenceCountedACLCache: one key per distinct ACL list, -1 for the open ACL of
 * the nodes ZooKeeper creates with it), then every node parents first in ZooKeeper's child order, sealed with
 * the Adler-32 checksums, then the tree digest at the last zxid (DataTree.serializeZxidDigest), sealed again. The file appears under its final name `snapshot.<hex zxid>` only once complete.
 */
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { DATA_FILE_VERSION, encodeSnapshot, OPEN_ACL_ID, SNAP_MAGIC, type ACL, type SnapshotAcl, type SnapshotContents, type SnapshotNode } from '@zkts/protocol/codec';

import type { DataTree } from '../tree/data-tree.js';
import { DIGEST_VERSION, nodeDigest } from './digest.js';
import { dataFileName } from './txn-log-writer.js';

/** The paths ZooKeeper's DataTree creates with the open ACL's key (-1). */
const BUILT_IN = new Set(['', '/zookeeper', '/zookeeper/quota']);

function aclKey(acl: readonly ACL[]): string {
  return acl.map((a) => `${a.perms}\u0000${a.id.scheme}\u0000${a.id.id}`).join('\u0001');
}

function isOpen(acl: readonly ACL[]): boolean {
  const a = acl[0];
  return acl.length === 1 && a !== undefined && a.perms === 31 && a.id.scheme === 'world' && a.id.id === 'anyone';
}

/** The snapshot of `tree` and `sessions` (id → timeout). */
export function snapshotContents(tree: DataTree, sessions: Iterable<{ id: bigint; timeout: number }>): SnapshotContents {
  let digest = 0n;
  const acls: SnapshotAcl[] = [];
  const keys = new Map<string, bigint>();
  const keyOf = (path: string, acl: readonly ACL[]): bigint => {
    if (BUILT_IN.has(path) && isOpen(acl)) return OPEN_ACL_ID;
    const text = aclKey(acl);
    let key = keys.get(text);
    if (key === undefined) {
      key = BigInt(keys.size + 1);
      keys.set(text, key);
      acls.push({ id: key, acl: acl.map((a) => ({ perms: a.perms, id: { scheme: a.id.scheme, id: a.id.id } })) });
    }
    return key;
  };
  const nodes: Pick<SnapshotNode, 'path' | 'data' | 'acl' | 'stat'>[] = [];
  const visit = (path: string): void => {
    const node = tree.getNode(path);
    if (node === undefined) return;
    nodes.push({ path, data: node.data, acl: keyOf(path, node.acl), stat: { ...node.stat } });
    digest = BigInt.asIntN(64, digest + nodeDigest(path, node));
    for (const child of tree.childrenOf(node)) visit(`${path}/${child}`);
  };
  visit('');
  const list = [...sessions].map((s) => ({ id: s.id, timeout: s.timeout }));
  // DataTree.serializeZxidDigest: the digest at the last zxid (an empty one, zxid 0, before any txn).
  const zxidDigest = tree.lastZxid > 0n ? { zxid: tree.lastZxid, digestVersion: DIGEST_VERSION, digest } : { zxid: 0n, digestVersion: DIGEST_VERSION, digest: 0n };
  return { header: { magic: SNAP_MAGIC, version: DATA_FILE_VERSION, dbid: -1n }, sessions: list, acls, nodes, digest: zxidDigest };
}

/** Writes `snapshot.<zxid>` into `dir` (through a temporary name ZooKeeper ignores). Returns its path. */
export function writeSnapshotFile(dir: string, zxid: bigint, contents: SnapshotContents, fsync: boolean): string {
  const bytes = encodeSnapshot(contents);
  const name = dataFileName('snapshot', zxid);
  const tmp = join(dir, `.${name}.tmp`);
  const fd = openSync(tmp, 'w');
  try {
    let done = 0;
    while (done < bytes.byteLength) done += writeSync(fd, bytes, done, bytes.byteLength - done);
    if (fsync) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const path = join(dir, name);
  renameSync(tmp, path);
  return path;
}
