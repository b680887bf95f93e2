/**
 * Appends transactions to ZooKeeper's transaction log files (FileTxnLog.append): a new file
 * `log.<hex zxid of its first txn>` starts with the FileHeader ("ZKLG", version 2, dbid 0); every entry is
 * checksum, length-prefixed bytes and the 'B' marker; the file is preallocated with zeros in blocks of
 * preAllocSize (FilePadding), so a reader stops at the first zero length. Writes are synchronous, so a txn is
 * in the file before its reply is sent; with `fsync` the file is also forced to disk after each one.
 */
import { closeSync, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { DATA_FILE_VERSION, JuteWriter, TXNLOG_MAGIC, writeFileHeader, writeTxnLogEntry, type TxnEntry } from '@zkts/protocol/codec';

/** `log.<hex>` / `snapshot.<hex>` as Util.makeLogName and makeSnapshotName spell them. */
export function dataFileName(prefix: 'log' | 'snapshot', zxid: bigint): string {
  return `${prefix}.${BigInt.asUintN(64, zxid).toString(16)}`;
}

/** FilePadding.calculateFileSizeWithPadding. */
export function paddedSize(position: number, fileSize: number, preAlloc: number): number {
  if (preAlloc > 0 && position + 4096 >= fileSize) {
    if (position > fileSize) {
      const size = position + preAlloc;
      return size - (size % preAlloc);
    }
    return fileSize + preAlloc;
  }
  return fileSize;
}

/** The log file being written, rolled on request. */
export class TxnLogWriter {
  private fd: number | undefined;
  private position = 0;
  private size = 0;
  private readonly w = new JuteWriter(1024, { stringEncoding: 'java' });
  /** Entries in the current file. */
  count = 0;

  constructor(
    private readonly dir: string,
    private readonly fsync: boolean,
    /** Bytes. */
    private readonly preAlloc: number,
  ) {}

  /** Appends one entry, starting a new file when none is open. */
  append(entry: TxnEntry): void {
    this.w.reset();
    if (this.fd === undefined) {
      this.fd = openSync(join(this.dir, dataFileName('log', entry.header.zxid)), 'w');
      writeFileHeader(this.w, { magic: TXNLOG_MAGIC, version: DATA_FILE_VERSION, dbid: 0n });
      this.position = 0;
      this.size = this.w.length;
      this.count = 0;
    }
    const start = this.w.length;
    writeTxnLogEntry(this.w, entry);
    // ZooKeeper pads before writing the entry, from the position the entry starts at.
    const newSize = paddedSize(this.position + start, this.size, this.preAlloc);
    if (newSize !== this.size) {
      ftruncateSync(this.fd, newSize);
      this.size = newSize;
    }
    const bytes = this.w.bytesView();
    let done = 0;
    while (done < bytes.byteLength) done += writeSync(this.fd, bytes, done, bytes.byteLength - done, this.position + done);
    this.position += bytes.byteLength;
    if (this.position > this.size) this.size = this.position;
    this.count++;
    if (this.fsync) fsyncSync(this.fd);
  }

  /** Closes the current file; the next append starts a new one (FileTxnLog.rollLog). */
  roll(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    if (this.fsync) fsyncSync(fd);
    closeSync(fd);
  }
}
