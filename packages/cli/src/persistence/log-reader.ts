/**
 * Reads transaction logs window by window, remembering where each file's valid entries end, so the same
 * reader serves a one-shot dump and `txnlog --follow` on a live server's dataDir.
 *
 * A live log's last entry may be half written (ZooKeeper appends into preallocated zeros), which looks
 * exactly like damage. So a file is read as *final* (damage reported) or *live* (anything wrong at the end
 * of what was written is left for the next poll): one-shot reads and every log that has a newer log after it
 * are final; only the newest log under --follow is live.
 */
import { readTxnLog, scanTxnLogEntries, FILE_HEADER_SIZE } from '@zkts/protocol/codec';
import type { DataFileError, TxnLogRecord } from '@zkts/protocol/codec';

import { readWindow } from './files.js';

const WINDOW = 1 << 20;

interface FileState {
  /** Where the next unread entry starts; 0 before the header was read. */
  offset: number;
  /** A final read ended in damage, or the header is bad: nothing more is read from this file. */
  done: boolean;
  reported: Set<string>;
}

export interface LogSink {
  record(file: string, record: TxnLogRecord): void;
  problem(error: DataFileError): void;
}

export class TxnLogReader {
  private readonly files = new Map<string, FileState>();
  private readonly window: number;

  constructor(window = WINDOW) {
    this.window = window;
  }

  /** Reads everything new in `path` (all of it, the first time). */
  async read(path: string, final: boolean, sink: LogSink): Promise<void> {
    let state = this.files.get(path);
    if (state === undefined) {
      state = { offset: 0, done: false, reported: new Set() };
      this.files.set(path, state);
    }
    if (state.done) return;
    const report = (error: DataFileError): void => {
      const key = `${error.code}@${error.offset ?? -1}`;
      if (state.reported.has(key)) return;
      state.reported.add(key);
      sink.problem(error);
    };
    if (state.offset === 0) {
      const head = await readWindow(path, 0, FILE_HEADER_SIZE);
      if (head.byteLength < FILE_HEADER_SIZE && !final) return;
      try {
        readTxnLog(head, { file: path });
      } catch (error) {
        state.done = true;
        report(error as DataFileError);
        return;
      }
      state.offset = FILE_HEADER_SIZE;
    }
    let size = this.window;
    for (;;) {
      const bytes = await readWindow(path, state.offset, size);
      if (bytes.byteLength === 0) return;
      const scan = scanTxnLogEntries(bytes, 0, { file: path, base: state.offset });
      for (const record of scan.records) sink.record(path, record);
      const end = scan.end;
      const full = bytes.byteLength === size;
      const last = scan.problems[scan.problems.length - 1];
      // Where the window, not the file, ended the scan: an entry cut by the window's end, or fewer than 12
      // zero bytes that may be the start of the next entry (the upper half of its checksum, a long holding a
      // 32-bit Adler32, is always zero).
      const cutByWindow =
        full && ((end.kind === 'damaged' && last?.code === 'FILE_TRUNCATED') || (end.kind === 'preallocated' && end.length < 12) || end.kind === 'eof');
      // Problems at or after the end of the valid entries are about what is still being written when live.
      for (const problem of scan.problems) {
        if ((problem.offset ?? 0) < end.offset || (final && !cutByWindow)) report(problem);
      }
      state.offset = end.offset;
      if (cutByWindow) {
        // An entry longer than the window needs a bigger one.
        if (end.kind === 'damaged') size *= 2;
        continue;
      }
      if (end.kind !== 'damaged') return;
      if (final) state.done = true;
      return;
    }
  }
}
