/**
 * The transaction records a ZooKeeper server writes into its transaction log, after a TxnHeader
 * (zookeeper.jute, module org.apache.zookeeper.txn). These are the server's view of a write — what was
 * applied, with the values it decided (the sequential name, the parent's new cversion) — not the client's
 * request.
 *
 *   class TxnDigest          { int version; long treeDigest; }
 *   class TxnHeader          { long clientId; int cxid; long zxid; long time; int type; }
 *   class CreateTxnV0        { ustring path; buffer data; vector<org.apache.zookeeper.data.ACL> acl;
 *                              boolean ephemeral; }
 *   class CreateTxn          { ustring path; buffer data; vector<org.apache.zookeeper.data.ACL> acl;
 *                              boolean ephemeral; int parentCVersion; }
 *   class CreateTTLTxn       { ustring path; buffer data; vector<org.apache.zookeeper.data.ACL> acl;
 *                              int parentCVersion; long ttl; }
 *   class CreateContainerTxn { ustring path; buffer data; vector<org.apache.zookeeper.data.ACL> acl;
 *                              int parentCVersion; }
 *   class DeleteTxn          { ustring path; }
 *   class SetDataTxn         { ustring path; buffer data; int version; }
 *   class CheckVersionTxn    { ustring path; int version; }
 *   class SetACLTxn          { ustring path; vector<org.apache.zookeeper.data.ACL> acl; int version; }
 *   class SetMaxChildrenTxn  { ustring path; int max; }
 *   class CreateSessionTxn   { int timeOut; }
 *   class CloseSessionTxn    { vector<ustring> paths2Delete; }
 *   class ErrorTxn           { int err; }
 *   class Txn                { int type; buffer data; }
 *   class MultiTxn           { vector<org.apache.zookeeper.txn.Txn> txns; }
 *
 * Each record carries a `kind` so the union in txn-entry.ts can be switched on; the wire has no such field.
 * Readers borrow `data` buffers from the input (copy to keep them).
 */
import type { JuteReader } from '../jute/reader.js';
import type { JuteWriter } from '../jute/writer.js';
import { readACLs, writeACLs, type ACL } from '../records/data.js';

/** The `TxnHeader` record, field names as in ZooKeeper. */
export interface TxnHeader {
  /** The session that asked for the write (0 for the server itself: the container/TTL reaper). */
  clientId: bigint;
  /** The client's xid of the request. */
  cxid: number;
  zxid: bigint;
  /** Milliseconds since the epoch, as the leader's clock said. */
  time: bigint;
  /** OpCode of the transaction (OpCode.error for a failed write). */
  type: number;
}

/** Bytes of an encoded TxnHeader. */
export const TXN_HEADER_SIZE = 32;

/** Writes one `TxnHeader` record (Jute), byte for byte as ZooKeeper does. */
export function writeTxnHeader(w: JuteWriter, v: TxnHeader): void {
  w.writeLong(v.clientId);
  w.writeInt(v.cxid);
  w.writeLong(v.zxid);
  w.writeLong(v.time);
  w.writeInt(v.type);
}

/** Reads one `TxnHeader` record (Jute), as ZooKeeper writes it. */
export function readTxnHeader(r: JuteReader): TxnHeader {
  return { clientId: r.readLong(), cxid: r.readInt(), zxid: r.readLong(), time: r.readLong(), type: r.readInt() };
}

/** The `TxnDigest` record, field names as in ZooKeeper. */
export interface TxnDigest {
  version: number;
  treeDigest: bigint;
}

/** Txn digest size. */
export const TXN_DIGEST_SIZE = 12;

/** Writes one `TxnDigest` record (Jute), byte for byte as ZooKeeper does. */
export function writeTxnDigest(w: JuteWriter, v: TxnDigest): void {
  w.writeInt(v.version);
  w.writeLong(v.treeDigest);
}

/** Reads one `TxnDigest` record (Jute), as ZooKeeper writes it. */
export function readTxnDigest(r: JuteReader): TxnDigest {
  return { version: r.readInt(), treeDigest: r.readLong() };
}

/** The `CreateTxnV0` record, field names as in ZooKeeper. */
export interface CreateTxnV0 {
  kind: 'createV0';
  path: string | null;
  data: Uint8Array | null;
  acl: ACL[] | null;
  ephemeral: boolean;
}

/** Writes one `CreateTxnV0` record (Jute), byte for byte as ZooKeeper does. */
export function writeCreateTxnV0(w: JuteWriter, v: Omit<CreateTxnV0, 'kind'>): void {
  w.writeString(v.path);
  w.writeBuffer(v.data);
  writeACLs(w, v.acl);
  w.writeBool(v.ephemeral);
}

/** Reads one `CreateTxnV0` record (Jute), as ZooKeeper writes it. */
export function readCreateTxnV0(r: JuteReader): CreateTxnV0 {
  const path = r.readString();
  const data = r.readBuffer();
  const acl = readACLs(r);
  return { kind: 'createV0', path, data, acl, ephemeral: r.readBool() };
}

/** The `CreateTxn` record, field names as in ZooKeeper. */
export interface CreateTxn {
  kind: 'create';
  path: string | null;
  data: Uint8Array | null;
  acl: ACL[] | null;
  ephemeral: boolean;
  parentCVersion: number;
}

/** Writes one `CreateTxn` record (Jute), byte for byte as ZooKeeper does. */
export function writeCreateTxn(w: JuteWriter, v: CreateTxn): void {
  writeCreateTxnV0(w, v);
  w.writeInt(v.parentCVersion);
}

/** Reads one `CreateTxn` record (Jute), as ZooKeeper writes it. */
export function readCreateTxn(r: JuteReader): CreateTxn {
  const v0 = readCreateTxnV0(r);
  return { kind: 'create', path: v0.path, data: v0.data, acl: v0.acl, ephemeral: v0.ephemeral, parentCVersion: r.readInt() };
}

/** The `CreateContainerTxn` record, field names as in ZooKeeper. */
export interface CreateContainerTxn {
  kind: 'createContainer';
  path: string | null;
  data: Uint8Array | null;
  acl: ACL[] | null;
  parentCVersion: number;
}

/** Writes one `CreateContainerTxn` record (Jute), byte for byte as ZooKeeper does. */
export function writeCreateContainerTxn(w: JuteWriter, v: Omit<CreateContainerTxn, 'kind'>): void {
  w.writeString(v.path);
  w.writeBuffer(v.data);
  writeACLs(w, v.acl);
  w.writeInt(v.parentCVersion);
}

/** Reads one `CreateContainerTxn` record (Jute), as ZooKeeper writes it. */
export function readCreateContainerTxn(r: JuteReader): CreateContainerTxn {
  const path = r.readString();
  const data = r.readBuffer();
  const acl = readACLs(r);
  return { kind: 'createContainer', path, data, acl, parentCVersion: r.readInt() };
}

/** The `CreateTTLTxn` record, field names as in ZooKeeper. */
export interface CreateTTLTxn {
  kind: 'createTTL';
  path: string | null;
  data: Uint8Array | null;
  acl: ACL[] | null;
  parentCVersion: number;
  /** Milliseconds. */
  ttl: bigint;
}

/** Writes one `CreateTTLTxn` record (Jute), byte for byte as ZooKeeper does. */
export function writeCreateTTLTxn(w: JuteWriter, v: CreateTTLTxn): void {
  writeCreateContainerTxn(w, v);
  w.writeLong(v.ttl);
}

/** Reads one `CreateTTLTxn` record (Jute), as ZooKeeper writes it. */
export function readCreateTTLTxn(r: JuteReader): CreateTTLTxn {
  const base = readCreateContainerTxn(r);
  return { kind: 'createTTL', path: base.path, data: base.data, acl: base.acl, parentCVersion: base.parentCVersion, ttl: r.readLong() };
}

/** The `DeleteTxn` record, field names as in ZooKeeper. */
export interface DeleteTxn {
  kind: 'delete';
  path: string | null;
}

/** Writes one `DeleteTxn` record (Jute), byte for byte as ZooKeeper does. */
export function writeDeleteTxn(w: JuteWriter, v: DeleteTxn): void {
  w.writeString(v.path);
}

/** Reads one `DeleteTxn` record (Jute), as ZooKeeper writes it. */
export function readDeleteTxn(r: JuteReader): DeleteTxn {
  return { kind: 'delete', path: r.readString() };
}

/** The `SetDataTxn` record, field names as in ZooKeeper. */
export interface SetDataTxn {
  kind: 'setData';
  path: string | null;
  data: Uint8Array | null;
  /** The node's new data version. */
  version: number;
}

/** Writes one `SetDataTxn` record (Jute), byte for byte as ZooKeeper does. */
export function writeSetDataTxn(w: JuteWriter, v: SetDataTxn): void {
  w.writeString(v.path);
  w.writeBuffer(v.data);
  w.writeInt(v.version);
}

/** Reads one `SetDataTxn` record (Jute), as ZooKeeper writes it. */
export function readSetDataTxn(r: JuteReader): SetDataTxn {
  const path = r.readString();
  const data = r.readBuffer();
  return { kind: 'setData', path, data, version: r.readInt() };
}

/** The `CheckVersionTxn` record, field names as in ZooKeeper. */
export interface CheckVersionTxn {
  kind: 'check';
  path: string | null;
  version: number;
}

/** Writes one `CheckVersionTxn` record (Jute), byte for byte as ZooKeeper does. */
export function writeCheckVersionTxn(w: JuteWriter, v: CheckVersionTxn): void {
  w.writeString(v.path);
  w.writeInt(v.version);
}

/** Reads one `CheckVersionTxn` record (Jute), as ZooKeeper writes it. */
export function readCheckVersionTxn(r: JuteReader): CheckVersionTxn {
  const path = r.readString();
  return { kind: 'check', path, version: r.readInt() };
}

/** The `SetACLTxn` record, field names as in ZooKeeper. */
export interface SetACLTxn {
  kind: 'setACL';
  path: string | null;
  acl: ACL[] | null;
  /** The node's new ACL version. */
  version: number;
}

/** Writes one `SetACLTxn` record (Jute), byte for byte as ZooKeeper does. */
export function writeSetACLTxn(w: JuteWriter, v: SetACLTxn): void {
  w.writeString(v.path);
  writeACLs(w, v.acl);
  w.writeInt(v.version);
}

/** Reads one `SetACLTxn` record (Jute), as ZooKeeper writes it. */
export function readSetACLTxn(r: JuteReader): SetACLTxn {
  const path = r.readString();
  const acl = readACLs(r);
  return { kind: 'setACL', path, acl, version: r.readInt() };
}

/** The `SetMaxChildrenTxn` record, field names as in ZooKeeper. */
export interface SetMaxChildrenTxn {
  kind: 'setMaxChildren';
  path: string | null;
  max: number;
}

/** Writes one `SetMaxChildrenTxn` record (Jute), byte for byte as ZooKeeper does. */
export function writeSetMaxChildrenTxn(w: JuteWriter, v: SetMaxChildrenTxn): void {
  w.writeString(v.path);
  w.writeInt(v.max);
}

/** Reads one `SetMaxChildrenTxn` record (Jute), as ZooKeeper writes it. */
export function readSetMaxChildrenTxn(r: JuteReader): SetMaxChildrenTxn {
  const path = r.readString();
  return { kind: 'setMaxChildren', path, max: r.readInt() };
}

/** The `CreateSessionTxn` record, field names as in ZooKeeper. */
export interface CreateSessionTxn {
  kind: 'createSession';
  /** The negotiated session timeout, ms. */
  timeOut: number;
}

/** Writes one `CreateSessionTxn` record (Jute), byte for byte as ZooKeeper does. */
export function writeCreateSessionTxn(w: JuteWriter, v: CreateSessionTxn): void {
  w.writeInt(v.timeOut);
}

/** Reads one `CreateSessionTxn` record (Jute), as ZooKeeper writes it. */
export function readCreateSessionTxn(r: JuteReader): CreateSessionTxn {
  return { kind: 'createSession', timeOut: r.readInt() };
}

/** The `CloseSessionTxn` record, field names as in ZooKeeper. */
export interface CloseSessionTxn {
  kind: 'closeSession';
  /** The session's ephemeral nodes, deleted with it. */
  paths2Delete: (string | null)[] | null;
}

/** Writes one `CloseSessionTxn` record (Jute), byte for byte as ZooKeeper does. */
export function writeCloseSessionTxn(w: JuteWriter, v: CloseSessionTxn): void {
  w.writeVector(v.paths2Delete, (x, p) => x.writeString(p));
}

/** Reads one `CloseSessionTxn` record (Jute), as ZooKeeper writes it. */
export function readCloseSessionTxn(r: JuteReader): CloseSessionTxn {
  return { kind: 'closeSession', paths2Delete: r.readStringVector() };
}

/** The `ErrorTxn` record, field names as in ZooKeeper. */
export interface ErrorTxn {
  kind: 'error';
  /** A KeeperException code (e.g. -101 NONODE). */
  err: number;
}

/** Writes one `ErrorTxn` record (Jute), byte for byte as ZooKeeper does. */
export function writeErrorTxn(w: JuteWriter, v: ErrorTxn): void {
  w.writeInt(v.err);
}

/** Reads one `ErrorTxn` record (Jute), as ZooKeeper writes it. */
export function readErrorTxn(r: JuteReader): ErrorTxn {
  return { kind: 'error', err: r.readInt() };
}

/** The wire form of one multi sub-transaction: its type and its record's bytes. */
export interface RawTxn {
  type: number;
  data: Uint8Array | null;
}

/** Smallest Txn: the type and an empty (or null) buffer. */
export const RAW_TXN_MIN_SIZE = 8;

/** Writes one `RawTxn` record (Jute), byte for byte as ZooKeeper does. */
export function writeRawTxn(w: JuteWriter, v: RawTxn): void {
  w.writeInt(v.type);
  w.writeBuffer(v.data);
}

/** Reads one `RawTxn` record (Jute), as ZooKeeper writes it. */
export function readRawTxn(r: JuteReader): RawTxn {
  const type = r.readInt();
  return { type, data: r.readBuffer() };
}

/** Writes one `RawTxns` record (Jute), byte for byte as ZooKeeper does. */
export function writeRawTxns(w: JuteWriter, v: readonly RawTxn[] | null): void {
  w.writeVector(v, writeRawTxn);
}

/** Reads one `RawTxns` record (Jute), as ZooKeeper writes it. */
export function readRawTxns(r: JuteReader): RawTxn[] | null {
  return r.readVector(readRawTxn, RAW_TXN_MIN_SIZE);
}
