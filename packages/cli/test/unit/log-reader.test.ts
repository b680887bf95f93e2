/**
 * TxnLogReader, the engine of `txnlog --follow`: a log growing inside its preallocated zeros is read entry
 * by entry as it is written, a half-written last entry is waited for while the file is live and reported
 * once it is final, and windows smaller than an entry still read it whole.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { readTxnLog } from '@zkts/protocol/codec';
import type { DataFileError, TxnLogRecord } from '@zkts/protocol/codec';
import { describe, expect, it } from 'vitest';

import { TxnLogReader } from '../../src/persistence/log-reader.js';

const source = new Uint8Array(readFileSync(fileURLToPath(new URL('../../../protocol/test/fixtures/persistence/log.1', import.meta.url))));
const clean = readTxnLog(source);

function sink(): { records: TxnLogRecord[]; problems: DataFileError[]; record: (f: string, r: TxnLogRecord) => void; problem: (e: DataFileError) => void } {
  const records: TxnLogRecord[] = [];
  const problems: DataFileError[] = [];
  return { records, problems, record: (_f, r) => records.push(r), problem: (e) => problems.push(e) };
}

/** The file as the server has written it so far: the first `length` bytes, then preallocated zeros. */
function writtenUpTo(file: string, length: number): void {
  const bytes = new Uint8Array(source.byteLength);
  bytes.set(source.subarray(0, length));
  writeFileSync(file, bytes);
}

describe('TxnLogReader', () => {
  it('follows a live log entry by entry, waiting out a half-written entry, and reports it once final', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'zkts-follow-')), 'log.1');
    const reader = new TxnLogReader();
    const out = sink();
    const third = clean.records[3];
    const fourth = clean.records[4];
    if (third === undefined || fourth === undefined) throw new Error('fixture too small');
    // Everything up to the middle of the fourth entry (index 3): three entries, nothing reported.
    writtenUpTo(file, third.offset + 20);
    await reader.read(file, false, out);
    expect(out.records.map((r) => r.offset)).toEqual(clean.records.slice(0, 3).map((r) => r.offset));
    expect(out.problems).toEqual([]);
    // The rest of that entry arrives: it is read, and only once.
    writtenUpTo(file, fourth.offset);
    await reader.read(file, false, out);
    await reader.read(file, false, out);
    expect(out.records.map((r) => r.offset)).toEqual(clean.records.slice(0, 4).map((r) => r.offset));
    // A half-written entry in a file that will not grow any more (a newer log exists) is damage.
    writtenUpTo(file, fourth.offset + 30);
    await reader.read(file, true, out);
    expect(out.problems.map((p) => [p.code, p.offset])).toEqual([['FILE_BAD_END_MARKER', fourth.offset + fourth.bytes.byteLength + 12]]);
    await reader.read(file, true, out);
    expect(out.problems).toHaveLength(1);
  });

  it('reads a whole file through windows of any size, smaller than its entries too', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'zkts-window-')), 'log.1');
    writeFileSync(file, source);
    // Every cut position matters: a window ending in the zero upper half of a checksum looks like the end.
    for (let window = 64; window <= 200; window++) {
      const out = sink();
      await new TxnLogReader(window).read(file, true, out);
      expect(out.problems, `window ${window}`).toEqual([]);
      expect(out.records.map((r) => r.offset), `window ${window}`).toEqual(clean.records.map((r) => r.offset));
    }
  });
});
