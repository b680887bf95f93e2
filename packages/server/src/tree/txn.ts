/**
 * Transactions and their application (DataTree.processTxn). A write request is validated into a Txn by
 * requests/prep.ts; applying it changes the tree (and so fires watches) and yields what the reply needs: the
 * created path, the node's Stat, or the error code of an error txn. A failed multi arrives with the txns of
 * the ops before the failing one (as ZooKeeper logs them), its code, then -2s; it changes nothing and answers
 * 0 for the ops before the failure.
 */
import type { ACL, Stat } from '@zkts/protocol/codec';

import type { DataTree } from './data-tree.js';

/** The create opcodes, which decide the reply record (create answers path only). */
export type CreateOp = 'create' | 'create2' | 'createContainer' | 'createTTL';

/** One transaction, as PrepRequestProcessor builds it. */
export type Txn =
  | { type: 'create'; op: CreateOp; path: string; data: Uint8Array | null; acl: readonly ACL[]; owner: bigint; parentCVersion: number }
  | { type: 'delete'; path: string }
  | { type: 'setData'; path: string; data: Uint8Array | null; version: number }
  | { type: 'setACL'; path: string; acl: readonly ACL[]; version: number }
  | { type: 'check'; path: string; version?: number }
  | { type: 'error'; err: number }
  | { type: 'createSession' }
  | { type: 'closeSession'; sessionId: bigint; paths: readonly string[] }
  | { type: 'multi'; txns: readonly Txn[] };

/** What applying a txn produced. */
export type TxnResult =
  | { type: 'create'; op: CreateOp; path: string; stat: Stat }
  | { type: 'delete' | 'check' | 'createSession' | 'closeSession' }
  | { type: 'setData' | 'setACL'; stat: Stat }
  | { type: 'error'; err: number }
  | { type: 'multi'; results: TxnResult[] };

/** Applies `txn` at `zxid` and `time` (ms), then records the zxid as the tree's last. */
export function applyTxn(tree: DataTree, txn: Txn, zxid: bigint, time: bigint): TxnResult {
  const result = apply(tree, txn, zxid, time);
  if (zxid > tree.lastZxid) tree.lastZxid = zxid;
  return result;
}

/** Request data arrives as a view into a socket chunk: the tree keeps its own copy, so no chunk stays pinned. */
function own(data: Uint8Array | null): Uint8Array | null {
  return data === null ? null : data.slice();
}

function apply(tree: DataTree, txn: Txn, zxid: bigint, time: bigint): TxnResult {
  switch (txn.type) {
    case 'create': {
      const node = tree.createNode(txn.path, own(txn.data), txn.acl, txn.owner, txn.parentCVersion, zxid, time);
      return { type: 'create', op: txn.op, path: txn.path, stat: tree.statOf(node) };
    }
    case 'delete':
      tree.deleteNode(txn.path, zxid);
      return { type: 'delete' };
    case 'setData':
      return { type: 'setData', stat: tree.statOf(tree.setData(txn.path, own(txn.data), txn.version, zxid, time)) };
    case 'setACL':
      return { type: 'setACL', stat: tree.statOf(tree.setACL(txn.path, txn.acl, txn.version)) };
    case 'check':
      return { type: 'check' };
    case 'error':
      return { type: 'error', err: txn.err };
    case 'createSession':
      return { type: 'createSession' };
    case 'closeSession':
      tree.killSession(txn.sessionId, txn.paths, zxid);
      return { type: 'closeSession' };
    case 'multi': {
      // A multi with an error txn was refused as a whole: the ops before the failure answer 0 (processTxn).
      if (txn.txns.some((t) => t.type === 'error')) {
        return { type: 'multi', results: txn.txns.map((t) => (t.type === 'error' ? { type: 'error', err: t.err } : { type: 'error', err: 0 })) };
      }
      return { type: 'multi', results: txn.txns.map((t) => apply(tree, t, zxid, time)) };
    }
  }
}
