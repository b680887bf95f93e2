/**
 * Every record of ZooKeeper 3.8 against the bytes ZooKeeper's own BinaryOutputArchive wrote
 * (fixtures/jute-records.json): decode to exactly the field values, re-encode to exactly the bytes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JuteReader } from '../../src/codec/jute/reader.js';
import { JuteWriter } from '../../src/codec/jute/writer.js';
import * as records from '../../src/codec/records/index.js';

interface Vector {
  record: string;
  variant: number;
  fields: Record<string, unknown>;
  hex: string;
}

const vectors = JSON.parse(
  readFileSync(new URL('../fixtures/jute-records.json', import.meta.url), 'utf8'),
) as Vector[];

// An independent schema of the JSON: which fields are Jute longs (decimal strings) and buffers (hex).
const LONGS = new Set(['czxid', 'mzxid', 'ctime', 'mtime', 'ephemeralOwner', 'pzxid', 'lastZxidSeen', 'sessionId',
  'relativeZxid', 'zxid', 'curConfigId', 'ttl']);
const BUFFERS = new Set(['passwd', 'data', 'auth', 'token']);

const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
const unhex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));

/** JSON fields → the typed value the codec uses. */
function typed(value: unknown, key = ''): unknown {
  if (value === null) return null;
  if (Array.isArray(value)) return value.map((e) => typed(e));
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typed(v, k)]));
  }
  if (LONGS.has(key)) return BigInt(value as string);
  if (BUFFERS.has(key)) return unhex(value as string);
  return value;
}

/** A decoded value → the JSON form of the fixtures (bigint → decimal string, bytes → hex). */
function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return hex(value);
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

type Reader = (r: JuteReader) => unknown;
type Writer = (w: JuteWriter, v: unknown) => void;
const table = records as unknown as Record<string, Reader | Writer | undefined>;

function codecOf(name: string): { read: Reader; write: Writer } {
  const read = table[`read${name}`] as Reader | undefined;
  const write = table[`write${name}`] as Writer | undefined;
  if (read === undefined || write === undefined) throw new Error(`no codec for ${name}`);
  return { read, write };
}

describe('Jute records against ZooKeeper 3.8 bytes', () => {
  it('has all 156 vectors of 52 records', () => {
    expect(vectors).toHaveLength(156);
    expect(new Set(vectors.map((v) => v.record)).size).toBe(52);
  });

  for (const v of vectors) {
    describe(`${v.record} #${v.variant}`, () => {
      const { read, write } = codecOf(v.record);

      it('decodes to exactly the field values, consuming every byte', () => {
        const r = new JuteReader(unhex(v.hex));
        const decoded = read(r) as Record<string, unknown>;
        r.expectEnd(v.record);
        // The handshake records report the absent trailing readOnly byte as undefined.
        if (v.record === 'ConnectRequest' || v.record === 'ConnectResponse') {
          expect(decoded.readOnly).toBeUndefined();
          delete decoded.readOnly;
        }
        expect(plain(decoded)).toStrictEqual(v.fields);
      });

      it("re-encodes to exactly Java's bytes", () => {
        const w = new JuteWriter(8, { stringEncoding: 'java' });
        write(w, typed(v.fields));
        expect(hex(w.toBytes())).toBe(v.hex);
      });

      it('round-trips through the default (standard UTF-8) encoding', () => {
        const w = new JuteWriter();
        write(w, typed(v.fields));
        const bytes = w.toBytes();
        // Standard UTF-8 differs from Java's only for characters outside the BMP.
        const astral = /[\u{10000}-\u{10ffff}]/u.test(JSON.stringify(v.fields));
        if (!astral) expect(hex(bytes)).toBe(v.hex);
        const r = new JuteReader(bytes);
        const decoded = read(r) as Record<string, unknown>;
        r.expectEnd(v.record);
        delete decoded.readOnly;
        expect(plain(decoded)).toStrictEqual(v.fields);
      });
    });
  }
});
