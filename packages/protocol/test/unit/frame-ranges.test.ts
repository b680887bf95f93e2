// FrameSplitter.each and JuteReader.reset: the client's read path, which hands frames on as ranges of one reused
// read buffer and reads them through one reader, must see exactly what the view-per-frame path (push, a reader per
// frame) sees, whatever the chunking.
import { describe, expect, it } from 'vitest';
import { FrameSplitter, JuteReader, JuteWriter, frameWithLength } from '@zkts/protocol/codec';
import { InvalidArgumentError, ProtocolError } from '@zkts/protocol';

import { borrowReader, giveBackReader } from '../../src/client/session/frame-reader.js';
import { hex, prng, randomChunks, sessionFrames } from '../support/recorded-session.js';

const frames = sessionFrames().map((f) => f.frame);
const stream = Buffer.concat(frames.map(frameWithLength));
const expected = frames.map(hex);

/** Feeds `chunks` through one reused buffer, as the client's shared read buffer is, and collects each range as hex. */
function viaRanges(chunks: Uint8Array[]): string[] {
  const readBuffer = new Uint8Array(64 * 1024).fill(0xee);
  const splitter = new FrameSplitter();
  const out: string[] = [];
  const reader = new JuteReader(new Uint8Array(0));
  for (const c of chunks) {
    readBuffer.set(c);
    splitter.each(readBuffer, c.byteLength, {
      frame: (bytes, start, end) => {
        const r = reader.reset(bytes, start, end);
        expect(r.length).toBe(end - start);
        out.push(hex(r.bytes));
      },
    });
  }
  expect(splitter.buffered).toBe(0);
  return out;
}

describe('FrameSplitter.each', () => {
  it('hands every frame of one chunk on as a range of that chunk, in order', () => {
    const chunk = new Uint8Array(stream);
    const ranges: [Uint8Array, number, number][] = [];
    new FrameSplitter().each(chunk, chunk.byteLength, { frame: (bytes, start, end) => ranges.push([bytes, start, end]) });
    expect(ranges.map(([b, s, e]) => hex(b.subarray(s, e)))).toEqual(expected);
    for (const [b] of ranges) expect(b).toBe(chunk);
  });

  it('finds the frames push finds for random chunkings through a reused buffer (seeded)', () => {
    const seed = Number(process.env['ZKTS_SEED'] ?? 0x7a6b);
    const rnd = prng(seed);
    for (let trial = 0; trial < 100; trial++) {
      const chunks = randomChunks(stream, rnd, 1 + Math.floor(rnd() * (trial % 3 === 0 ? 4 : 300)));
      expect(viaRanges(chunks), `seed ${seed} (ZKTS_SEED), trial ${trial}`).toEqual(expected);
    }
  });

  it('reads only the first `length` bytes of the chunk', () => {
    const whole = frameWithLength(frames[0]!);
    const chunk = new Uint8Array(whole.byteLength + 7).fill(0xff); // a bad length after the frame, never read
    chunk.set(whole);
    const got: string[] = [];
    const s = new FrameSplitter();
    s.each(chunk, whole.byteLength, { frame: (b, start, end) => got.push(hex(b.subarray(start, end))) });
    expect(got).toEqual([expected[0]]);
    expect(s.buffered).toBe(0);
  });

  it('refuses a length outside the chunk with InvalidArgumentError, and reads nothing', () => {
    const s = new FrameSplitter();
    const sink = { frame: (): void => expect.unreachable('no frame') };
    expect(() => s.each(new Uint8Array(4), 5, sink)).toThrow(InvalidArgumentError);
    expect(() => s.each(new Uint8Array(4), -1, sink)).toThrow(InvalidArgumentError);
    expect(s.buffered).toBe(0);
  });
});

describe('JuteReader.reset', () => {
  const w = new JuteWriter();
  w.writeInt(7);
  w.writeLong(0x1_0000_0002n);
  w.writeString('zk');
  w.writeBuffer(new Uint8Array([1, 2, 3]));
  w.writeBool(true);
  const record = w.toBytes();
  const padded = new Uint8Array(record.byteLength + 20).fill(0xab);
  padded.set(record, 9);

  function readAll(r: JuteReader): unknown[] {
    return [r.readInt(), r.readLong(), r.readString(), Array.from(r.readBuffer() ?? []), r.readBool(), r.remaining, r.offset];
  }

  it('reads a range as a reader over that subarray does', () => {
    const plain = readAll(new JuteReader(record));
    const reused = new JuteReader(new Uint8Array(3));
    expect(readAll(reused.reset(padded, 9, 9 + record.byteLength))).toEqual(plain);
    expect(hex(reused.bytes)).toBe(hex(record));
    // And again from its start, over another array.
    expect(readAll(reused.reset(record, 0, record.byteLength))).toEqual(plain);
    expect(reused.bytes).toBe(record);
  });

  it('bounds reads by the range, with offsets relative to its start', () => {
    const r = new JuteReader(new Uint8Array(0)).reset(padded, 9, 9 + 6);
    expect(r.readInt()).toBe(7);
    expect(() => r.readLong()).toThrow(ProtocolError);
    try {
      r.readLong();
    } catch (e) {
      expect((e as ProtocolError).offset).toBe(4);
    }
  });

  it('applies the maxLength it is given, and the default when none is', () => {
    const r = new JuteReader(new Uint8Array(0)).reset(padded, 9, 9 + record.byteLength, 1);
    r.readInt();
    r.readLong();
    expect(r.maxLength).toBe(1);
    expect(() => r.readString()).toThrow(/exceeds max 1/);
    expect(r.reset(record, 0, 4).maxLength).toBe(0xfffff);
  });

  it('refuses a range outside the array', () => {
    const r = new JuteReader(new Uint8Array(0));
    expect(() => r.reset(record, 2, 1)).toThrow(ProtocolError);
    expect(() => r.reset(record, 0, record.byteLength + 1)).toThrow(ProtocolError);
    expect(() => r.reset(record, -1, 2)).toThrow(ProtocolError);
  });

  it('nextLongIs compares the next 8 bytes without moving', () => {
    const r = new JuteReader(record);
    r.readInt();
    expect(r.nextLongIs(1, 2)).toBe(true);
    expect(r.nextLongIs(1, 3)).toBe(false);
    expect(r.offset).toBe(4);
    expect(r.readLong()).toBe(0x1_0000_0002n);
    expect(new JuteReader(new Uint8Array(7)).nextLongIs(0, 0)).toBe(false);
  });
});

describe('the connections\' shared frame reader', () => {
  it('lends a second reader while the first is out, and takes either back', () => {
    const a = borrowReader();
    const b = borrowReader();
    expect(b).not.toBe(a);
    giveBackReader(b, new Uint8Array(8));
    giveBackReader(a, new Uint8Array(8));
    expect(borrowReader()).toBe(a);
    giveBackReader(a, new Uint8Array(8));
  });

  it('lets go of a large frame assembled from several reads', () => {
    const big = new Uint8Array(64 * 1024 + 1);
    const r = borrowReader().reset(big, 0, big.byteLength);
    giveBackReader(r, big);
    const again = borrowReader();
    expect(again).toBe(r);
    expect(again.bytes).not.toBe(big);
    expect(again.length).toBe(0);
    giveBackReader(again, new Uint8Array(8));
  });
});
