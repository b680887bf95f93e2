/**
 * Loading ZooKeeper's files into a DataTree: a snapshot's nodes with their persisted Stats, and the replay of
 * logged transactions as DataTree.processTxn applies them on restore — tolerant where ZooKeeper is, since a
 * (fuzzy) snapshot may already contain some of them: a create whose node exists only raises the parent's
 * cversion/pzxid, a delete of a missing node only its parent's pzxid, changes to missing nodes are skipped.
 * A failed multi changes nothing. createSession and closeSession also update the session table.
 */
import { DataFileError, OpCode, snapshotAcl, type ACL, type Snapshot, type TxnEntry, type TxnRecord } from '@zkts/protocol/codec';

import { OPEN_ACL } from '../tree/acl.js';
import type { DataTree } from '../tree/data-tree.js';
import { CONTAINER_EPHEMERAL_OWNER, isValidTtl, ttlOwner } from '../tree/ephemeral-type.js';
import { parentOf } from '../tree/path.js';

/** Session id → timeout (ms), as FileTxnSnapLog.restore fills it. */
export type SessionTimeouts = Map<bigint, number>;

/** Puts the nodes of `snap` into a fresh tree (the built-in nodes are overwritten). */
export function loadSnapshot(tree: DataTree, snap: Snapshot, file: string): void {
  const cache = new Map<bigint, readonly ACL[]>();
  for (const node of snap.nodes) {
    let acl = cache.get(node.acl);
    if (acl === undefined) {
      const list = snapshotAcl(snap, node.acl);
      if (list === undefined) throw new DataFileError('FILE_BAD_RECORD', `node ${node.path} refers to a missing ACL ${node.acl}`, node.offset, { file });
      acl = list;
      cache.set(node.acl, acl);
    }
    const path = node.path;
    let target = tree.getNode(path);
    if (target === undefined) {
      if (path === '' || tree.getNode(parentOf(path)) === undefined) {
        throw new DataFileError('FILE_BAD_RECORD', `node ${path} comes before its parent`, node.offset, { file });
      }
      target = tree.createNode(path, node.data, acl, node.stat.ephemeralOwner, Number.MIN_SAFE_INTEGER, node.stat.czxid, node.stat.ctime);
    }
    target.data = node.data;
    target.acl = acl;
    Object.assign(target.stat, node.stat);
  }
}

function aclOf(acl: ACL[] | null): readonly ACL[] {
  return acl === null ? OPEN_ACL : acl;
}

function copy(data: Uint8Array | null): Uint8Array | null {
  return data === null ? null : data.slice();
}

/** DataTree.setCversionPzxid. */
function raiseCversion(tree: DataTree, path: string, cversion: number, zxid: bigint): void {
  const node = tree.getNode(path);
  if (node === undefined) return;
  const next = cversion === -1 ? node.stat.cversion + 1 : cversion;
  if (next > node.stat.cversion) {
    node.stat.cversion = next;
    node.stat.pzxid = zxid;
  }
}

function create(tree: DataTree, type: number, path: string | null, data: Uint8Array | null, acl: ACL[] | null, owner: bigint, parentCVersion: number, h: TxnEntry['header']): void {
  if (path === null) return;
  const parentPath = parentOf(path);
  const parent = tree.getNode(parentPath);
  if (parent === undefined) return;
  if (tree.getNode(path) !== undefined) {
    if (type === OpCode.create) raiseCversion(tree, parentPath, parentCVersion, h.zxid);
    return;
  }
  const cversion = parentCVersion === -1 ? parent.stat.cversion + 1 : parentCVersion;
  tree.createNode(path, copy(data), aclOf(acl), owner, cversion, h.zxid, h.time);
}

/** deleteNode: the parent's pzxid moves even when the child is already gone. */
function remove(tree: DataTree, path: string | null, zxid: bigint): void {
  if (path === null) return;
  const parent = tree.getNode(parentOf(path));
  if (parent === undefined) return;
  if (tree.getNode(path) === undefined) {
    if (zxid > parent.stat.pzxid) parent.stat.pzxid = zxid;
    return;
  }
  tree.deleteNode(path, zxid);
}

function apply(tree: DataTree, type: number, txn: TxnRecord | null, h: TxnEntry['header']): void {
  if (txn === null) return;
  switch (txn.kind) {
    case 'create':
    case 'createV0':
      create(tree, type, txn.path, txn.data, txn.acl, txn.ephemeral ? h.clientId : 0n, txn.kind === 'create' ? txn.parentCVersion : -1, h);
      return;
    case 'createContainer':
      create(tree, type, txn.path, txn.data, txn.acl, CONTAINER_EPHEMERAL_OWNER, txn.parentCVersion, h);
      return;
    case 'createTTL':
      if (!isValidTtl(txn.ttl)) throw new DataFileError('FILE_BAD_RECORD', `zxid 0x${h.zxid.toString(16)}: invalid ttl ${txn.ttl}`, 0);
      create(tree, type, txn.path, txn.data, txn.acl, ttlOwner(txn.ttl), txn.parentCVersion, h);
      return;
    case 'delete':
      remove(tree, txn.path, h.zxid);
      return;
    case 'setData':
      if (txn.path !== null && tree.getNode(txn.path) !== undefined) tree.setData(txn.path, copy(txn.data), txn.version, h.zxid, h.time);
      return;
    case 'setACL':
      if (txn.path !== null && tree.getNode(txn.path) !== undefined) tree.setACL(txn.path, aclOf(txn.acl), txn.version);
      return;
    case 'multi': {
      const subs = txn.txns ?? [];
      // DataTree.processTxn: a multi with an error sub-transaction was refused as a whole.
      if (subs.some((s) => s.type === OpCode.error)) return;
      for (const sub of subs) {
        if (sub.txn === null) throw new DataFileError('FILE_BAD_RECORD', `zxid 0x${h.zxid.toString(16)}: multi sub-transaction of type ${sub.type} does not decode`, 0);
        apply(tree, sub.type, sub.txn, h);
      }
      return;
    }
    default:
      return;
  }
}

/** Applies one logged transaction (FileTxnSnapLog.processTransaction + DataTree.processTxn). */
export function replayEntry(tree: DataTree, sessions: SessionTimeouts, entry: TxnEntry): void {
  const h = entry.header;
  const txn = entry.txn;
  if (h.type === OpCode.createSession) {
    if (txn?.kind === 'createSession') sessions.set(h.clientId, txn.timeOut);
  } else if (h.type === OpCode.closeSession) {
    sessions.delete(h.clientId);
    const listed = txn?.kind === 'closeSession' ? (txn.paths2Delete ?? []) : [];
    for (const path of listed) remove(tree, path, h.zxid);
    tree.killSession(h.clientId, [], h.zxid);
  } else {
    apply(tree, h.type, txn, h);
  }
  if (h.zxid > tree.lastZxid) tree.lastZxid = h.zxid;
}
