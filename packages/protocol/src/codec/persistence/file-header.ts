/**
 * The header both ZooKeeper data files start with (zookeeper.jute, module
 * org.apache.zookeeper.server.persistence):
 *
 *   class FileHeader { int magic; int version; long dbid; }
 *
 * A transaction log (version-2/log.<zxid>) has magic "ZKLG" and dbid 0; a snapshot (version-2/snapshot.<zxid>)
 * has magic "ZKSN" and dbid -1. Both are at format version 2. Magic and version are checked here so that a log
 * handed to the snapshot reader (or a random file) fails at offset 0 with FILE_BAD_MAGIC, not somewhere inside.
 */
import { DataFileError } from '../../errors/errors.js';
import type { JuteReader } from '../jute/reader.js';
import type { JuteWriter } from '../jute/writer.js';

/** The `FileHeader` record, field names as in ZooKeeper. */
export interface FileHeader {
  magic: number;
  version: number;
  dbid: bigint;
}

/** File header size. */
export const FILE_HEADER_SIZE = 16;
/** "ZKLG" (FileTxnLog.TXNLOG_MAGIC). */
export const TXNLOG_MAGIC = 0x5a4b4c47;
/** "ZKSN" (FileSnap.SNAP_MAGIC). */
export const SNAP_MAGIC = 0x5a4b534e;
/** The only format version ZooKeeper has written since 3.0 (the `version-2` directory). */
export const DATA_FILE_VERSION = 2;

/** Writes one `FileHeader` record (Jute), byte for byte as ZooKeeper does. */
export function writeFileHeader(w: JuteWriter, v: FileHeader): void {
  w.writeInt(v.magic);
  w.writeInt(v.version);
  w.writeLong(v.dbid);
}

/** Reads one `FileHeader` record (Jute), as ZooKeeper writes it. */
export function readFileHeader(r: JuteReader): FileHeader {
  return { magic: r.readInt(), version: r.readInt(), dbid: r.readLong() };
}

function magicText(magic: number): string {
  const bytes = [magic >>> 24, (magic >>> 16) & 0xff, (magic >>> 8) & 0xff, magic & 0xff];
  return bytes.every((b) => b >= 0x20 && b < 0x7f) ? `"${String.fromCharCode(...bytes)}"` : `0x${(magic >>> 0).toString(16).padStart(8, '0')}`;
}

/** Reads and checks the header of a file that must be a `what` (magic `expected`); offsets are file offsets. */
export function readCheckedFileHeader(r: JuteReader, expected: number, what: string, file: string | undefined): FileHeader {
  if (r.remaining < FILE_HEADER_SIZE) {
    throw new DataFileError('FILE_TRUNCATED', `${r.remaining} bytes are too short for a ${what} header (${FILE_HEADER_SIZE})`, r.offset, fileOption(file));
  }
  const header = readFileHeader(r);
  if (header.magic !== expected) {
    const other = header.magic === TXNLOG_MAGIC ? ' (it is a transaction log)' : header.magic === SNAP_MAGIC ? ' (it is a snapshot)' : '';
    throw new DataFileError('FILE_BAD_MAGIC', `not a ${what}: magic ${magicText(header.magic)}, expected ${magicText(expected)}${other}`, 0, fileOption(file));
  }
  if (header.version !== DATA_FILE_VERSION) {
    throw new DataFileError('FILE_BAD_MAGIC', `unknown ${what} format version ${header.version} (expected ${DATA_FILE_VERSION})`, 4, fileOption(file));
  }
  return header;
}

/** `{ file }` when there is a name (exactOptionalPropertyTypes forbids passing undefined). */
export function fileOption(file: string | undefined): { file?: string } {
  return file === undefined ? {} : { file };
}
