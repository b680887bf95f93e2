/**
 * Seeded fuzzing of the txn-log and snapshot readers with 100,000 mutated copies of files a real server wrote
 * (bit flips, random bytes, hostile lengths, zeroed spans, truncations, insertions). The readers may return
 * (with problems) or throw, but only DataFileError with a stable code and an offset inside the file — never
 * a RangeError, a TypeError or a huge allocation — and what they return must re-encode without throwing (checked on every 8th, for speed).
 */
import { readFileSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DataFileError } from '../../src/errors/errors.js';
import { encodeSnapshot, encodeTxnLog, readSnapshot, readTxnLog, type TxnEntry } from '../../src/codec/persistence/index.js';
import { prng } from '../support/recorded-session.js';

const DIR = new URL('../fixtures/persistence/', import.meta.url);
const CODES = new Set(['FILE_BAD_MAGIC', 'FILE_TRUNCATED', 'FILE_BAD_CHECKSUM', 'FILE_BAD_END_MARKER', 'FILE_BAD_RECORD', 'FILE_UNSUPPORTED']);
const ROUNDS = 50_000;

function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(name, DIR)));
}

// The first 16 entries of the log (through both multis) and 64 bytes of its preallocated zeros: every
// framing feature and record shape, in a file small enough to mutate 50,000 times in a couple of seconds.
const fullLog = fixture('log.1');
const cutAt = readTxnLog(fullLog).records[16]?.offset ?? 0;
const log = new Uint8Array(cutAt + 64);
log.set(fullLog.subarray(0, cutAt));
const snapshot = fixture('snapshot.1e');

function mutate(source: Uint8Array, next: () => number): Uint8Array {
  const pick = (n: number): number => Math.floor(next() * n);
  let bytes = source.slice();
  const mutations = 1 + pick(3);
  for (let m = 0; m < mutations; m++) {
    const at = pick(bytes.length);
    switch (pick(7)) {
      case 0:
        bytes[at] = (bytes[at] ?? 0) ^ (1 << pick(8));
        break;
      case 1:
        bytes[at] = pick(256);
        break;
      case 2: {
        // A hostile 32-bit length or count.
        const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        const values = [0x7fffffff, -1, -2, 0, 0x100000, bytes.length, 13];
        if (at + 4 <= bytes.length) view.setInt32(at, values[pick(values.length)] as number);
        break;
      }
      case 3:
        bytes.fill(0, at, at + pick(40));
        break;
      case 4:
        bytes = bytes.slice(0, at);
        break;
      case 5: {
        const extra = Uint8Array.from({ length: 1 + pick(16) }, () => pick(256));
        const out = new Uint8Array(bytes.length + extra.length);
        out.set(bytes.subarray(0, at));
        out.set(extra, at);
        out.set(bytes.subarray(at), at + extra.length);
        bytes = out;
        break;
      }
      default:
        bytes = bytes.slice(0, Math.max(0, bytes.length - pick(64)));
    }
  }
  return bytes;
}

/** Plain checks, not expect(): this runs 100,000+ times and must stay fast. */
function expectTyped(error: unknown, length: number): void {
  if (!(error instanceof DataFileError)) throw error;
  const offset = error.offset ?? -1;
  if (!CODES.has(error.code) || offset < 0 || offset > length) {
    throw new Error(`bad error: code ${error.code}, offset ${offset} in ${length} bytes: ${error.message}`);
  }
}

describe('persistence readers under mutation', () => {
  // Capturing a stack for each of the ~150,000 errors costs more than the decoding being tested.
  let stackTraceLimit = Error.stackTraceLimit;
  beforeAll(() => {
    stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
  });
  afterAll(() => {
    Error.stackTraceLimit = stackTraceLimit;
  });

  it(`${ROUNDS} mutated txn logs: only DataFileErrors with offsets in the file`, () => {
    const next = prng(0x7a6b01);
    const outcomes = { clean: 0, problems: 0, thrown: 0 };
    for (let i = 0; i < ROUNDS; i++) {
      const bytes = mutate(log, next);
      try {
        const result = readTxnLog(bytes);
        for (const problem of result.problems) expectTyped(problem, bytes.length);
        if (result.end.offset > bytes.length) throw new Error(`end ${result.end.offset} past ${bytes.length}`);
        outcomes[result.problems.length === 0 ? 'clean' : 'problems']++;
        if (i % 8 === 0) {
          const entries = result.records.map((r) => r.entry).filter((e): e is TxnEntry => e !== null);
          encodeTxnLog({ header: result.header, entries });
        }
      } catch (error) {
        expectTyped(error, bytes.length);
        outcomes.thrown++;
      }
    }
    // The mutations must exercise every path: clean reads, damage reported, and a refused header.
    expect(outcomes.clean).toBeGreaterThan(ROUNDS / 50);
    expect(outcomes.problems).toBeGreaterThan(ROUNDS / 4);
    expect(outcomes.thrown).toBeGreaterThan(ROUNDS / 500);
  });

  it(`${ROUNDS} mutated snapshots: only DataFileErrors with offsets in the file`, () => {
    const next = prng(0x5a4b53);
    const outcomes = { clean: 0, problems: 0, thrown: 0 };
    for (let i = 0; i < ROUNDS; i++) {
      const bytes = mutate(snapshot, next);
      try {
        const result = readSnapshot(bytes);
        for (const problem of result.problems) expectTyped(problem, bytes.length);
        outcomes[result.problems.length === 0 ? 'clean' : 'problems']++;
        if (i % 8 === 0) encodeSnapshot(result);
      } catch (error) {
        expectTyped(error, bytes.length);
        outcomes.thrown++;
      }
    }
    expect(outcomes.clean).toBeGreaterThan(0);
    expect(outcomes.problems).toBeGreaterThan(ROUNDS / 2);
    expect(outcomes.thrown).toBeGreaterThan(ROUNDS / 100);
  });
});
