/**
 * ZooKeeper's transaction log file (FileTxnLog: version-2/log.<hex zxid of its first txn>):
 *
 *   FileHeader { int magic = "ZKLG"; int version = 2; long dbid = 0; }
 *   then per transaction:
 *     long   checksum   Adler32 of the entry bytes (Util.marshallTxnEntry + FileTxnLog.append)
 *     buffer entry      int length + the serialized txn (txn-entry.ts)
 *     byte   'B'        end-of-record marker (0x42)
 *   then zeros: the file is preallocated in blocks (zookeeper.preAllocSize, 64 MiB by default), and an entry
 *   whose length is 0 is where the log ends (FileTxnIterator treats it as EOF).
 *
 * The reader is for post-mortems, so it never gives up early: an entry with a bad checksum is still decoded
 * and returned (flagged), a record that does not decode is returned without its txn, and only damage to the
 * framing itself (a length that runs past the end, a missing end marker) stops the scan. Every problem is a
 * DataFileError with the byte offset in the file. Only a bad file header throws.
 */
import { DataFileError, ProtocolError } from '../../errors/errors.js';
import { JuteReader } from '../jute/reader.js';
import { JuteWriter } from '../jute/writer.js';
import { adler32 } from './adler32.js';
import { FILE_HEADER_SIZE, fileOption, readCheckedFileHeader, TXNLOG_MAGIC, writeFileHeader, type FileHeader } from './file-header.js';
import { decodeTxnEntry, writeTxnEntry, type TxnEntry } from './txn-entry.js';

/** The end-of-record marker after every entry. */
export const END_OF_RECORD = 0x42;
/** Bytes around an entry: checksum (8), length (4), marker (1). */
export const ENTRY_FRAMING_SIZE = 13;
/** Largest entry accepted by default: jute.maxbuffer (1 MiB) of data plus generous room for the record. */
export const DEFAULT_MAX_ENTRY = 16 * 1024 * 1024;

/** The `TxnLogRecord` record, field names as in ZooKeeper. */
export interface TxnLogRecord {
  /** File offset of the entry's checksum. */
  offset: number;
  /** The checksum stored in the file. */
  checksum: bigint;
  /** Whether it is the Adler32 of `bytes`. */
  checksumOk: boolean;
  /** The entry's bytes (a view into the input). */
  bytes: Uint8Array;
  /** The decoded transaction; null when it does not decode (see the scan's problems). */
  entry: TxnEntry | null;
}

/** How the readable part of a log file ended: at the preallocated zero tail, at the file's end, or at damage. */
export type TxnLogEndKind =
  /** The file ends right after the last entry. */
  | 'eof'
  /** A zero-length entry: the preallocated tail starts at `offset`. */
  | 'preallocated'
  /** The framing is damaged at `offset` (the last problem says how); nothing after it is trusted. */
  | 'damaged';

/** The `TxnLogEnd` record, field names as in ZooKeeper. */
export interface TxnLogEnd {
  kind: TxnLogEndKind;
  offset: number;
  /** Bytes from `offset` to the end of the input. */
  length: number;
}

/** The `TxnLogScan` record, field names as in ZooKeeper. */
export interface TxnLogScan {
  records: TxnLogRecord[];
  problems: DataFileError[];
  end: TxnLogEnd;
}

/** The `TxnLog` record, field names as in ZooKeeper. */
export interface TxnLog extends TxnLogScan {
  header: FileHeader;
}

/** The `TxnLogReadOptions` record, field names as in ZooKeeper. */
export interface TxnLogReadOptions {
  /** A name for messages (the errors carry it too). */
  file?: string;
  /** Bound for one entry's length (default DEFAULT_MAX_ENTRY). */
  maxEntry?: number;
  /**
   * scanTxnLogEntries only: the file offset of `bytes[0]`, when `bytes` is a window read from the middle of
   * a file (a follower reading what was appended). Every offset reported is a file offset.
   */
  base?: number;
}

/** Reads a whole transaction log file. Throws DataFileError only for a bad or missing file header. */
export function readTxnLog(bytes: Uint8Array, options: TxnLogReadOptions = {}): TxnLog {
  const header = readCheckedFileHeader(new JuteReader(bytes), TXNLOG_MAGIC, 'transaction log', options.file);
  return { header, ...scanTxnLogEntries(bytes, FILE_HEADER_SIZE, options) };
}

/**
 * Reads entries from `from` (an index into `bytes` at an entry boundary) to the end of the log in `bytes`.
 * `bytes` may be a window of a file that is still being written: `tail -f` readers call this again from the
 * last good offset once more bytes arrived. At a window's end, an entry cut short shows as FILE_TRUNCATED,
 * and fewer than 12 zero bytes as 'preallocated' — they may also be the zero upper half of the next entry's
 * checksum, so a window reader reads on from `end.offset` in both cases.
 */
export function scanTxnLogEntries(bytes: Uint8Array, from: number, options: TxnLogReadOptions = {}): TxnLogScan {
  const maxEntry = options.maxEntry ?? DEFAULT_MAX_ENTRY;
  const base = options.base ?? 0;
  const opt = fileOption(options.file);
  const records: TxnLogRecord[] = [];
  const problems: DataFileError[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const total = bytes.byteLength;
  const end = (kind: TxnLogEndKind, offset: number): TxnLogScan => ({ records, problems, end: { kind, offset: base + offset, length: total - offset } });
  const damaged = (code: DataFileError['code'], message: string, at: number, offset: number): TxnLogScan => {
    problems.push(new DataFileError(code, message, base + at, opt));
    return end('damaged', offset);
  };
  let pos = from;
  for (;;) {
    const left = total - pos;
    if (left === 0) return end('eof', pos);
    if (left < 12) {
      if (allZero(bytes, pos, total)) return end('preallocated', pos);
      return damaged('FILE_TRUNCATED', `the log ends inside an entry's checksum and length (${left} bytes)`, pos, pos);
    }
    const checksum = view.getBigInt64(pos);
    const length = view.getInt32(pos + 8);
    if (length === 0) {
      // EOF by ZooKeeper's definition. Anything but zeros from here on means a length was damaged (and the
      // entries after it are hidden from the server too) or the file was written by something else.
      const junk = firstNonZero(bytes, pos, total);
      if (junk !== -1) {
        problems.push(
          new DataFileError('FILE_BAD_RECORD', `non-zero bytes in the preallocated tail that starts at ${base + pos} (a damaged length may hide entries after it)`, base + junk, opt),
        );
      }
      return end('preallocated', pos);
    }
    if (length < 0 || length > maxEntry) {
      return damaged('FILE_BAD_RECORD', `entry length ${length} is out of bounds (0..${maxEntry})`, pos + 8, pos);
    }
    if (length + 1 > left - 12) {
      return damaged('FILE_TRUNCATED', `entry of ${length} bytes runs past the end of the file (${left - 12} bytes left)`, pos + 8, pos);
    }
    const entryBytes = bytes.subarray(pos + 12, pos + 12 + length);
    const marker = bytes[pos + 12 + length];
    if (marker !== END_OF_RECORD) {
      return damaged('FILE_BAD_END_MARKER', `entry is followed by 0x${(marker ?? 0).toString(16).padStart(2, '0')}, not the end-of-record marker 'B'`, pos + 12 + length, pos);
    }
    const checksumOk = checksum === BigInt(adler32(entryBytes));
    if (!checksumOk) {
      problems.push(new DataFileError('FILE_BAD_CHECKSUM', `entry checksum 0x${BigInt.asUintN(64, checksum).toString(16)} does not match its bytes (Adler32 0x${adler32(entryBytes).toString(16)})`, base + pos, opt));
    }
    let entry: TxnEntry | null = null;
    try {
      entry = decodeTxnEntry(entryBytes, { maxLength: length });
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      const inner = base + pos + 12 + (error.offset ?? 0);
      problems.push(new DataFileError('FILE_BAD_RECORD', `transaction does not decode: ${stripOffset(error)}`, inner, { ...opt, cause: error }));
    }
    records.push({ offset: base + pos, checksum, checksumOk, bytes: entryBytes, entry });
    pos += 12 + length + 1;
  }
}

function stripOffset(error: ProtocolError): string {
  return error.message.replace(/ at offset \d+$/, '');
}

function allZero(bytes: Uint8Array, from: number, to: number): boolean {
  return firstNonZero(bytes, from, to) === -1;
}

function firstNonZero(bytes: Uint8Array, from: number, to: number): number {
  for (let i = from; i < to; i++) if (bytes[i] !== 0) return i;
  return -1;
}

/** The `TxnLogContents` record, field names as in ZooKeeper. */
export interface TxnLogContents {
  header: FileHeader;
  entries: readonly TxnEntry[];
  /** Pad with zeros up to this many bytes (a preallocated file's size); no padding when smaller. */
  size?: number;
}

// Java's BinaryOutputArchive string encoding, so re-encoded files match the server's bytes exactly.
const entryWriter = new JuteWriter(1024, { stringEncoding: 'java' });

/** Appends one framed entry (checksum, length, bytes, marker) to `w`. */
export function writeTxnLogEntry(w: JuteWriter, entry: TxnEntry): void {
  entryWriter.reset();
  writeTxnEntry(entryWriter, entry);
  const bytes = entryWriter.bytesView();
  w.writeLong(BigInt(adler32(bytes)));
  w.writeBuffer(bytes);
  w.writeRaw(MARKER);
}

const MARKER = new Uint8Array([END_OF_RECORD]);

/** A transaction log file: the header, every entry framed, and the zero padding. */
export function encodeTxnLog(contents: TxnLogContents): Uint8Array {
  const w = new JuteWriter(4096);
  writeFileHeader(w, contents.header);
  for (const entry of contents.entries) writeTxnLogEntry(w, entry);
  const size = contents.size ?? 0;
  if (size > w.length) w.writeRaw(new Uint8Array(size - w.length));
  return w.bytesView().slice();
}
