/**
 * A committed transaction as ZooKeeper writes it into its transaction log (Request.serializeTxn): the
 * TxnHeader (session, cxid, zxid, time, type) and the txn record of its type — CreateTxn, CreateContainerTxn,
 * CreateTTLTxn, DeleteTxn (a reaper's delete is a deleteContainer), SetDataTxn, SetACLTxn, ErrorTxn,
 * CreateSessionTxn, CloseSessionTxn with the ephemerals it deletes, MultiTxn of sub-transactions. No TxnDigest
 * is written (ZooKeeper reads entries without one).
 */
import { OpCode, type SubTxn, type TxnEntry, type TxnRecord } from '@zkts/protocol/codec';

import type { DataTree } from '../tree/data-tree.js';
import { ttlOf } from '../tree/ephemeral-type.js';
import type { Txn } from '../tree/txn.js';

/** What the header needs besides the txn. */
export interface TxnOrigin {
  readonly sessionId: bigint;
  readonly cxid: number;
  readonly zxid: bigint;
  readonly time: bigint;
  /** The session's negotiated timeout (for createSession). */
  readonly timeout: number;
}

function record(txn: Txn, origin: TxnOrigin, tree: DataTree, top: boolean): { type: number; txn: TxnRecord } {
  switch (txn.type) {
    case 'create': {
      const acl = [...txn.acl];
      if (txn.op === 'createContainer') {
        return { type: OpCode.createContainer, txn: { kind: 'createContainer', path: txn.path, data: txn.data, acl, parentCVersion: txn.parentCVersion } };
      }
      if (txn.op === 'createTTL' && txn.owner !== 0n) {
        return { type: OpCode.createTTL, txn: { kind: 'createTTL', path: txn.path, data: txn.data, acl, parentCVersion: txn.parentCVersion, ttl: ttlOf(txn.owner) } };
      }
      const type = txn.op === 'create2' ? OpCode.create2 : OpCode.create;
      return { type, txn: { kind: 'create', path: txn.path, data: txn.data, acl, ephemeral: txn.owner !== 0n, parentCVersion: txn.parentCVersion } };
    }
    case 'delete':
      // Only the container reaper writes as the server itself (session 0): ContainerManager's deleteContainer.
      return { type: top && origin.sessionId === 0n ? OpCode.deleteContainer : OpCode.delete, txn: { kind: 'delete', path: txn.path } };
    case 'setData':
      return { type: OpCode.setData, txn: { kind: 'setData', path: txn.path, data: txn.data, version: txn.version } };
    case 'setACL':
      return { type: OpCode.setACL, txn: { kind: 'setACL', path: txn.path, acl: [...txn.acl], version: txn.version } };
    case 'check': {
      // CheckVersionTxn carries the checked version + 1. A lone check is logged as a harmless ErrorTxn(0):
      // ZooKeeper 3.8 logs type 13 at the top level but cannot read it back (SerializeUtils.deserializeTxn).
      if (top) return { type: OpCode.error, txn: { kind: 'error', err: 0 } };
      const version = txn.version ?? (tree.getNode(txn.path)?.stat.version ?? -1) + 1;
      return { type: OpCode.check, txn: { kind: 'check', path: txn.path, version } };
    }
    case 'error':
      return { type: OpCode.error, txn: { kind: 'error', err: txn.err } };
    case 'createSession':
      return { type: OpCode.createSession, txn: { kind: 'createSession', timeOut: origin.timeout } };
    case 'closeSession':
      return { type: OpCode.closeSession, txn: { kind: 'closeSession', paths2Delete: [...txn.paths] } };
    case 'multi': {
      const txns: SubTxn[] = txn.txns.map((sub) => {
        const r = record(sub, origin, tree, false);
        return { type: r.type, txn: r.txn, data: null };
      });
      return { type: OpCode.multi, txn: { kind: 'multi', txns } };
    }
  }
}

/** The log entry of `txn`, committed at `origin` (read `tree` before the txn is applied). */
export function txnEntryOf(txn: Txn, origin: TxnOrigin, tree: DataTree): TxnEntry {
  const { type, txn: rec } = record(txn, origin, tree, true);
  const header = { clientId: origin.sessionId, cxid: origin.cxid, zxid: origin.zxid, time: origin.time, type };
  return { header, txn: rec, digest: null, trailing: null };
}
