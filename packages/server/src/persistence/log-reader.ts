/**
 * Reads a transaction log file window by window, so a preallocated file (64 MiB by default, nearly all zeros)
 * costs only the part that holds entries: the scan stops at the first zero length, as FileTxnIterator does.
 * An entry cut by a window's end is read again from its start with the next window.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

import { readTxnLog, scanTxnLogEntries, type DataFileError, type TxnLogScan } from '@zkts/protocol/codec';

const WINDOW = 1 << 20;

function readAt(fd: number, offset: number, length: number): Uint8Array {
  const buf = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buf, done, length - done, offset + done);
    if (n === 0) return buf.subarray(0, done);
    done += n;
  }
  return buf;
}

/** The entries of the log file at `path` up to its end, its preallocated tail or its first damage. */
export function scanLogFile(path: string, name: string): TxnLogScan {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const records: TxnLogScan['records'] = [];
    const problems: DataFileError[] = [];
    let offset = 0;
    let want = WINDOW;
    for (;;) {
      const bytes = readAt(fd, offset, Math.min(want, size - offset));
      const scan = offset === 0 ? readTxnLog(bytes, { file: name }) : scanTxnLogEntries(bytes, 0, { file: name, base: offset });
      records.push(...scan.records);
      const last = scan.problems[scan.problems.length - 1];
      const cutByWindow = scan.end.kind === 'damaged' && last?.code === 'FILE_TRUNCATED';
      const more = offset + bytes.byteLength < size;
      const windowEnd = scan.end.kind === 'eof' || (scan.end.kind === 'preallocated' && scan.end.length < 12) || cutByWindow;
      if (!more || !windowEnd) {
        problems.push(...scan.problems);
        return { records, problems, end: scan.end };
      }
      problems.push(...(cutByWindow ? scan.problems.slice(0, -1) : scan.problems));
      // No entry completed in this window: the next one is larger than the window.
      want = scan.end.offset === offset ? want * 2 : WINDOW;
      offset = scan.end.offset;
    }
  } finally {
    closeSync(fd);
  }
}
