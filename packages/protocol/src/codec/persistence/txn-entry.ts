/**
 * One transaction as the server serialises it (SerializeUtils.deserializeTxn and Request.serializeTxn):
 *
 *   TxnHeader hdr; <the txn record hdr.type calls for, or nothing>; [TxnDigest digest]
 *
 * Which record follows is decided by the header's type, with two historical exceptions this codec keeps:
 * a `create` (1) too short for CreateTxn is an old CreateTxnV0 (no parentCVersion), and a `closeSession` with
 * no bytes after the header predates CloseSessionTxn. The TxnDigest (3.6+, `zookeeper.digest.enabled`) is
 * there when 12 bytes remain; any other leftover bytes are kept as `trailing` (Java ignores them) so that
 * decode → encode is byte-exact.
 *
 * A multi's sub-transactions are Txn { type, data } whose data is itself a record of the sub-type; they are
 * decoded into `txn` when the bytes are exactly one such record, and otherwise kept raw (`txn: null`) —
 * encoding writes the record when there is one, the raw bytes when not.
 */
import { ProtocolError } from '../../errors/errors.js';
import { JuteReader } from '../jute/reader.js';
import { JuteWriter } from '../jute/writer.js';
import { OpCode } from '../records/constants.js';
import {
  readCheckVersionTxn,
  readCloseSessionTxn,
  readCreateContainerTxn,
  readCreateSessionTxn,
  readCreateTTLTxn,
  readCreateTxn,
  readCreateTxnV0,
  readDeleteTxn,
  readErrorTxn,
  readRawTxns,
  readSetACLTxn,
  readSetDataTxn,
  readTxnDigest,
  readTxnHeader,
  TXN_DIGEST_SIZE,
  writeCheckVersionTxn,
  writeCloseSessionTxn,
  writeCreateContainerTxn,
  writeCreateSessionTxn,
  writeCreateTTLTxn,
  writeCreateTxn,
  writeCreateTxnV0,
  writeDeleteTxn,
  writeErrorTxn,
  writeRawTxns,
  writeSetACLTxn,
  writeSetDataTxn,
  writeSetMaxChildrenTxn,
  writeTxnDigest,
  writeTxnHeader,
  type CheckVersionTxn,
  type CloseSessionTxn,
  type CreateContainerTxn,
  type CreateSessionTxn,
  type CreateTTLTxn,
  type CreateTxn,
  type CreateTxnV0,
  type DeleteTxn,
  type ErrorTxn,
  type RawTxn,
  type SetACLTxn,
  type SetDataTxn,
  type SetMaxChildrenTxn,
  type TxnDigest,
  type TxnHeader,
} from './txn-records.js';

/** One sub-transaction of a multi. */
export interface SubTxn {
  type: number;
  /** The decoded record; null for a type with no record here or bytes that are not exactly one record. */
  txn: TxnRecord | null;
  /** The raw record bytes (borrowed from the input); what is written when `txn` is null. */
  data: Uint8Array | null;
  /** Why `txn` is null although the type has a record. */
  problem?: string;
}

/** The `MultiTxn` record, field names as in ZooKeeper. */
export interface MultiTxn {
  kind: 'multi';
  txns: SubTxn[] | null;
}

/** One decoded transaction body, tagged by its txn type (create, delete, setData, multi, session create/close…). */
export type TxnRecord =
  | CreateTxn
  | CreateTxnV0
  | CreateContainerTxn
  | CreateTTLTxn
  | DeleteTxn
  | SetDataTxn
  | CheckVersionTxn
  | SetACLTxn
  | SetMaxChildrenTxn
  | CreateSessionTxn
  | CloseSessionTxn
  | ErrorTxn
  | MultiTxn;

/** The `TxnEntry` record, field names as in ZooKeeper. */
export interface TxnEntry {
  header: TxnHeader;
  /** Null for a closeSession of the old format (nothing after the header). */
  txn: TxnRecord | null;
  digest: TxnDigest | null;
  /** Bytes after everything decodable (Java ignores them); null when there are none. */
  trailing: Uint8Array | null;
}

type Reader = (r: JuteReader) => TxnRecord;

/** The record each top-level txn type carries (SerializeUtils.deserializeTxn). */
const TOP_LEVEL = new Map<number, Reader>([
  [OpCode.createSession, readCreateSessionTxn],
  [OpCode.closeSession, readCloseSessionTxn],
  [OpCode.create, readCreateTxn],
  [OpCode.create2, readCreateTxn],
  [OpCode.createTTL, readCreateTTLTxn],
  [OpCode.createContainer, readCreateContainerTxn],
  [OpCode.delete, readDeleteTxn],
  [OpCode.deleteContainer, readDeleteTxn],
  [OpCode.reconfig, readSetDataTxn],
  [OpCode.setData, readSetDataTxn],
  [OpCode.setACL, readSetACLTxn],
  [OpCode.error, readErrorTxn],
  [OpCode.multi, readMultiTxn],
]);

/** The record each multi sub-type carries (DataTree.processTxn's multi branch). */
const SUB = new Map<number, Reader>([
  [OpCode.create, readCreateTxn],
  [OpCode.create2, readCreateTxn],
  [OpCode.createTTL, readCreateTTLTxn],
  [OpCode.createContainer, readCreateContainerTxn],
  [OpCode.delete, readDeleteTxn],
  [OpCode.deleteContainer, readDeleteTxn],
  [OpCode.setData, readSetDataTxn],
  [OpCode.check, readCheckVersionTxn],
  [OpCode.error, readErrorTxn],
]);

function readMultiTxn(r: JuteReader): MultiTxn {
  const raw = readRawTxns(r);
  return { kind: 'multi', txns: raw === null ? null : raw.map(decodeSubTxn) };
}

function decodeSubTxn(raw: RawTxn): SubTxn {
  const reader = SUB.get(raw.type);
  if (reader === undefined || raw.data === null) return { type: raw.type, txn: null, data: raw.data };
  const r = new JuteReader(raw.data, { maxLength: raw.data.byteLength });
  try {
    const txn = reader(r);
    if (r.remaining === 0) return { type: raw.type, txn, data: raw.data };
    return { type: raw.type, txn: null, data: raw.data, problem: `${r.remaining} bytes after the record` };
  } catch (error) {
    return { type: raw.type, txn: null, data: raw.data, problem: error instanceof Error ? error.message : String(error) };
  }
}

/** Whether a txn type has a record this codec decodes (top level). */
export function isKnownTxnType(type: number): boolean {
  return TOP_LEVEL.has(type);
}

/**
 * Decodes one serialized transaction (the bytes of a txn-log entry, or a leader's proposal). Throws
 * ProtocolError (offsets relative to `bytes`) on an unknown type or a record that does not fit.
 */
export function decodeTxnEntry(bytes: Uint8Array, options: { maxLength?: number } = {}): TxnEntry {
  const maxLength = options.maxLength ?? bytes.byteLength;
  const r = new JuteReader(bytes, { maxLength });
  const header = readTxnHeader(r);
  const start = r.offset;
  const reader = TOP_LEVEL.get(header.type);
  if (reader === undefined) throw new ProtocolError(`unknown txn type ${header.type}`, start - 4);
  let txn: TxnRecord | null;
  if (header.type === OpCode.closeSession && r.remaining === 0) {
    txn = null;
  } else {
    try {
      txn = reader(r);
    } catch (error) {
      if (header.type !== OpCode.create || !(error instanceof ProtocolError)) throw error;
      // Too short for CreateTxn: perhaps a CreateTxnV0 from before parentCVersion existed.
      const again = new JuteReader(bytes, { offset: start, maxLength });
      try {
        txn = readCreateTxnV0(again);
      } catch {
        throw error;
      }
      return finish(again, header, txn, bytes);
    }
  }
  return finish(r, header, txn, bytes);
}

function finish(r: JuteReader, header: TxnHeader, txn: TxnRecord | null, bytes: Uint8Array): TxnEntry {
  const digest = r.remaining >= TXN_DIGEST_SIZE ? readTxnDigest(r) : null;
  const trailing = r.remaining > 0 ? bytes.subarray(r.offset) : null;
  return { header, txn, digest, trailing };
}

const subWriter = new JuteWriter(256, { stringEncoding: 'java' });

/** The bytes of a sub-transaction: its record re-encoded, or the raw bytes it came with. */
function subTxnData(sub: SubTxn): Uint8Array | null {
  if (sub.txn === null) return sub.data;
  subWriter.reset();
  writeTxnRecord(subWriter, sub.txn);
  return subWriter.toBytes();
}

/** Writes one `TxnRecord` record (Jute), byte for byte as ZooKeeper does. */
export function writeTxnRecord(w: JuteWriter, txn: TxnRecord): void {
  switch (txn.kind) {
    case 'create':
      return writeCreateTxn(w, txn);
    case 'createV0':
      return writeCreateTxnV0(w, txn);
    case 'createContainer':
      return writeCreateContainerTxn(w, txn);
    case 'createTTL':
      return writeCreateTTLTxn(w, txn);
    case 'delete':
      return writeDeleteTxn(w, txn);
    case 'setData':
      return writeSetDataTxn(w, txn);
    case 'check':
      return writeCheckVersionTxn(w, txn);
    case 'setACL':
      return writeSetACLTxn(w, txn);
    case 'setMaxChildren':
      return writeSetMaxChildrenTxn(w, txn);
    case 'createSession':
      return writeCreateSessionTxn(w, txn);
    case 'closeSession':
      return writeCloseSessionTxn(w, txn);
    case 'error':
      return writeErrorTxn(w, txn);
    case 'multi':
      return writeRawTxns(w, txn.txns === null ? null : txn.txns.map((sub) => ({ type: sub.type, data: subTxnData(sub) })));
  }
}

/** Appends the serialized transaction (header, record, digest, trailing bytes) to `w`. */
export function writeTxnEntry(w: JuteWriter, entry: TxnEntry): void {
  writeTxnHeader(w, entry.header);
  if (entry.txn !== null) writeTxnRecord(w, entry.txn);
  if (entry.digest !== null) writeTxnDigest(w, entry.digest);
  if (entry.trailing !== null) w.writeRaw(entry.trailing);
}
