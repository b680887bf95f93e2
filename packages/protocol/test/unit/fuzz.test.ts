/**
 * Seeded fuzzing of everything that reads bytes from a peer: every record reader, the multi readers, the
 * FrameSplitter and the conversation decoder get mutated real frames and random bytes. The only acceptable
 * failure is a ProtocolError (the decoder returns 'error' entries instead), and no length read from the input
 * may exceed the bytes that remain or the max packet: the readers are instrumented to check that at every call.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/errors/errors.js';
import { JuteReader } from '../../src/codec/jute/reader.js';
import { JuteWriter } from '../../src/codec/jute/writer.js';
import * as records from '../../src/codec/records/index.js';
import { ConversationDecoder } from '../../src/inspect/conversation.js';
import { FrameSplitter, frameWithLength } from '../../src/codec/frame.js';
import { readMultiRequest, readMultiResponse } from '../../src/codec/multi.js';
import { prng, sessionFrames } from '../support/recorded-session.js';

const MAX_PACKET = 4096;
const session = sessionFrames();
const vectors = (JSON.parse(readFileSync(new URL('../fixtures/jute-records.json', import.meta.url), 'utf8')) as {
  record: string;
  hex: string;
}[]).map((v): { record: string; bytes: Uint8Array } => ({ record: v.record, bytes: new Uint8Array(Buffer.from(v.hex, 'hex')) }));
// Long children lists take the reader's whole-vector ASCII path, which the 2-element vectors above do not.
for (const names of [Array.from({ length: 24 }, (_, i) => `child-${i}`), ['a', 'é', ...Array.from({ length: 12 }, () => 'b')]]) {
  const w = new JuteWriter();
  w.writeVector(names, (x, e) => x.writeString(e));
  vectors.push({ record: 'GetChildrenResponse', bytes: w.toBytes() });
}

type Read = (r: JuteReader) => unknown;
const table = records as unknown as Record<string, unknown>;
const readers = new Map<string, Read>(
  Object.entries(table)
    .filter((e): e is [string, Read] => e[0].startsWith('read') && typeof e[1] === 'function')
    .map(([name, fn]) => [name.slice(4), fn]),
);
readers.set('MultiRequest', readMultiRequest);
readers.set('MultiResponse', readMultiResponse);
const readerList = [...readers.values()];

// Interesting integers for length fields: null, negatives, huge, and off-by-one around the frame size.
const INTS = [-1, -2, 0, 1, 2, 4, 0x7fffffff, -0x80000000, MAX_PACKET, MAX_PACKET + 1, 0xfffff, 0x100000, 255, 65536];

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

function mutate(src: Uint8Array, rnd: () => number): Uint8Array {
  const pick = (n: number): number => Math.floor(rnd() * n);
  let b: Uint8Array = src.slice();
  const edits = 1 + pick(4);
  for (let e = 0; e < edits; e++) {
    switch (pick(6)) {
      case 0: // flip a byte
        if (b.length > 0) b[pick(b.length)] = pick(256);
        break;
      case 1: // plant an interesting int (often a length prefix)
        if (b.length >= 4) new DataView(b.buffer).setInt32(pick(b.length - 3), INTS[pick(INTS.length)]!);
        break;
      case 2: // truncate
        b = b.subarray(0, pick(b.length + 1)).slice();
        break;
      case 3: { // append garbage
        const extra = new Uint8Array(pick(16));
        for (let i = 0; i < extra.length; i++) extra[i] = pick(256);
        b = concat(b, extra);
        break;
      }
      case 4: { // duplicate a slice (repeats records and headers)
        const at = pick(b.length + 1);
        const len = pick(b.length - at + 1);
        b = concat(b.subarray(0, at + len), b.subarray(at));
        break;
      }
      default: // a length one past what remains
        if (b.length >= 4) {
          const at = pick(b.length - 3);
          new DataView(b.buffer).setInt32(at, b.length - at - 3);
        }
    }
  }
  return b;
}

function randomBytes(rnd: () => number, max: number): Uint8Array {
  const b = new Uint8Array(Math.floor(rnd() * max));
  for (let i = 0; i < b.length; i++) b[i] = Math.floor(rnd() * 256);
  return b;
}

/** Wraps the length-reading primitives so every call checks its bound against the bytes it had. */
const violations: string[] = [];
const originals = {
  readBuffer: JuteReader.prototype.readBuffer,
  readString: JuteReader.prototype.readString,
  readVector: JuteReader.prototype.readVector,
  readStringVector: JuteReader.prototype.readStringVector,
};

const stackTraceLimit = Error.stackTraceLimit;

beforeAll(() => {
  // Tens of thousands of expected ProtocolErrors: their stack traces would cost more than the decoding.
  Error.stackTraceLimit = 0;
  const check = (r: JuteReader, what: string, size: number, before: number): void => {
    if (size > before || size > r.maxLength || r.maxLength > MAX_PACKET) {
      violations.push(`${what} of ${size} with ${before} bytes left, maxLength ${r.maxLength}`);
    }
  };
  JuteReader.prototype.readBuffer = function (this: JuteReader) {
    const before = this.remaining;
    const out = originals.readBuffer.call(this);
    check(this, 'buffer', out?.byteLength ?? 0, before);
    return out;
  };
  JuteReader.prototype.readString = function (this: JuteReader) {
    const before = this.remaining;
    const out = originals.readString.call(this);
    check(this, 'string', before - this.remaining, before);
    return out;
  };
  JuteReader.prototype.readVector = function <T>(this: JuteReader, el: (r: JuteReader) => T, min?: number) {
    const before = this.remaining;
    const out = originals.readVector.call(this, el, min) as T[] | null;
    check(this, 'vector', out?.length ?? 0, before);
    return out;
  } as typeof JuteReader.prototype.readVector;
  JuteReader.prototype.readStringVector = function (this: JuteReader) {
    const before = this.remaining;
    const out = originals.readStringVector.call(this);
    check(this, 'string vector', out?.length ?? 0, before);
    check(this, 'string vector bytes', before - this.remaining, before);
    return out;
  };
});

afterAll(() => {
  Error.stackTraceLimit = stackTraceLimit;
  Object.assign(JuteReader.prototype, originals);
});

function unexpected(err: unknown, where: string, bad: string[]): void {
  if (!(err instanceof ProtocolError)) bad.push(`${where}: ${String(err)}`);
}

describe('fuzz (seeded)', () => {
  it('record and multi readers: 70,000 mutated and random inputs end in a value or a ProtocolError', () => {
    const rnd = prng(1);
    const bad: string[] = [];
    let ok = 0;
    for (let i = 0; i < 70_000; i++) {
      const v = vectors[i % vectors.length]!;
      const input = i % 5 === 4 ? randomBytes(rnd, 96) : mutate(v.bytes, rnd);
      // Its own reader most of the time, any reader otherwise.
      const read = i % 3 === 0 ? readerList[Math.floor(rnd() * readerList.length)]! : readers.get(v.record)!;
      try {
        read(new JuteReader(input, { maxLength: MAX_PACKET }));
        ok++;
      } catch (err) {
        unexpected(err, `${v.record} #${i}`, bad);
      }
    }
    expect(bad.slice(0, 5)).toEqual([]);
    expect(violations.slice(0, 5)).toEqual([]);
    // Not everything may fail: mutations that keep the shape must still decode.
    expect(ok).toBeGreaterThan(5_000);
  });

  it('conversation decoder: 35,000 frames of session replays with mutated frames never throw', () => {
    const rnd = prng(2);
    const bad: string[] = [];
    let errors = 0;
    let frames = 0;
    while (frames < 35_000) {
      const d = new ConversationDecoder({ maxPacket: MAX_PACKET });
      for (const [i, f] of session.entries()) {
        const roll = rnd();
        const frame = roll < 0.25 ? mutate(f.frame, rnd) : roll < 0.3 ? randomBytes(rnd, 64) : f.frame;
        // Sometimes the direction lies too.
        const dir = rnd() < 0.02 ? (f.dir === 'c2s' ? 's2c' : 'c2s') : f.dir;
        try {
          const e = d.decode(dir, frame);
          if (e.kind === 'error') errors++;
          JSON.stringify(e);
        } catch (err) {
          bad.push(`frame ${i}: ${String(err)}`);
        }
        frames++;
      }
    }
    expect(bad.slice(0, 5)).toEqual([]);
    expect(violations.slice(0, 5)).toEqual([]);
    expect(errors).toBeGreaterThan(1_000);
  });

  it('strict decoder throws nothing but ProtocolError', () => {
    const rnd = prng(3);
    const bad: string[] = [];
    for (let n = 0; n < 10_000; ) {
      const d = new ConversationDecoder({ maxPacket: MAX_PACKET, strict: true });
      for (const f of session) {
        try {
          d.decode(f.dir, rnd() < 0.3 ? mutate(f.frame, rnd) : f.frame);
        } catch (err) {
          unexpected(err, 'strict', bad);
        }
        n++;
      }
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });

  it('FrameSplitter: 5,000 hostile streams never buffer past maxPacket and fail only with ProtocolError', () => {
    const rnd = prng(4);
    const bad: string[] = [];
    let frames = 0;
    for (let i = 0; i < 5_000; i++) {
      const s = new FrameSplitter({ maxPacket: MAX_PACKET });
      const parts = session.slice(0, 8).map((f) => frameWithLength(rnd() < 0.3 ? mutate(f.frame, rnd) : f.frame));
      let stream = Buffer.concat(parts);
      if (rnd() < 0.5) stream = Buffer.from(mutate(stream, rnd));
      for (let pos = 0; pos < stream.length; ) {
        const n = 1 + Math.floor(rnd() * 64);
        try {
          for (const f of s.push(stream.subarray(pos, pos + n))) {
            frames++;
            if (f.byteLength > MAX_PACKET) bad.push(`frame of ${f.byteLength}`);
          }
        } catch (err) {
          unexpected(err, `stream ${i}`, bad);
          break;
        }
        if (s.buffered > MAX_PACKET + 4) bad.push(`buffered ${s.buffered}`);
        pos += n;
      }
    }
    expect(bad.slice(0, 5)).toEqual([]);
    expect(frames).toBeGreaterThan(10_000);
  });
});
