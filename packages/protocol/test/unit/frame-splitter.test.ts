import { describe, expect, it } from 'vitest';
import { NotZooKeeperError, ProtocolError } from '../../src/errors/errors.js';
import { FrameSplitter, frameWithLength } from '../../src/codec/frame.js';
import { hex, prng, randomChunks, sessionFrames } from '../support/recorded-session.js';

const frames = sessionFrames().map((f) => f.frame);
const stream = Buffer.concat(frames.map(frameWithLength));
const expected = frames.map(hex);

/** Splits, and reports the frames as hex only when they differ from the session's (hex is slow). */
function split(chunks: Uint8Array[], splitter = new FrameSplitter()): string[] {
  const out: Uint8Array[] = [];
  for (const c of chunks) for (const f of splitter.push(c)) out.push(f);
  expect(splitter.buffered).toBe(0);
  const same = out.length === frames.length && out.every((f, i) => Buffer.from(f.buffer, f.byteOffset, f.byteLength).equals(frames[i]!));
  return same ? expected : out.map(hex);
}

describe('FrameSplitter', () => {
  it('yields every frame of the session from one chunk, as views of it', () => {
    const chunk = new Uint8Array(stream);
    const got = new FrameSplitter().push(chunk);
    expect(got.map(hex)).toEqual(expected);
    for (const f of got) expect(f.buffer).toBe(chunk.buffer);
  });

  it('yields the same frames when the stream is cut in two at every byte offset', () => {
    for (let cut = 0; cut <= stream.byteLength; cut++) {
      expect(split([stream.subarray(0, cut), stream.subarray(cut)]), `cut at ${cut}`).toBe(expected);
    }
  });

  it('yields the same frames from random chunkings (seeded), including 1-byte and empty chunks', () => {
    const rnd = prng(0x5eed);
    for (let trial = 0; trial < 300; trial++) {
      const chunks = randomChunks(stream, rnd, 1 + Math.floor(rnd() * (trial % 3 === 0 ? 4 : 200)));
      expect(split(chunks), `trial ${trial}`).toBe(expected);
    }
  });

  it('copies only frames that span chunks', () => {
    const first = frameWithLength(frames[0]!);
    const second = frameWithLength(frames[2]!);
    const a = new Uint8Array([...first, ...second.subarray(0, 10)]);
    const b = new Uint8Array([...second.subarray(10)]);
    const s = new FrameSplitter();
    const [f1] = s.push(a);
    expect(f1!.buffer).toBe(a.buffer);
    expect(s.buffered).toBe(10);
    const [f2] = s.push(b);
    expect(f2!.buffer).not.toBe(a.buffer);
    expect(f2!.buffer).not.toBe(b.buffer);
    expect(hex(f2!)).toBe(hex(frames[2]!));
  });

  it('keeps a frame whose body is whole in the next chunk as a view when only the prefix was split', () => {
    const f = frameWithLength(frames[3]!);
    const s = new FrameSplitter();
    expect(s.push(f.subarray(0, 2))).toEqual([]);
    const rest = f.slice(2);
    const [got] = s.push(rest);
    expect(got!.buffer).toBe(rest.buffer);
    expect(hex(got!)).toBe(hex(frames[3]!));
  });

  it('accepts empty frames and a frame of exactly maxPacket', () => {
    const s = new FrameSplitter({ maxPacket: 8 });
    const got = s.push(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0]));
    expect(got.map(hex)).toEqual(['', '0102030405060708', '']);
  });

  it('refuses lengths past maxPacket or negative before allocating, and stays failed', () => {
    for (const [prefix, max] of [[[0x7f, 0xff, 0xff, 0xff], undefined], [[0xff, 0xff, 0xff, 0xfe], undefined], [[0, 0, 0, 9], 8]] as const) {
      const s = new FrameSplitter(max === undefined ? {} : { maxPacket: max });
      expect(() => s.push(new Uint8Array(prefix))).toThrow(ProtocolError);
      expect(s.buffered).toBe(0);
      expect(() => s.push(new Uint8Array([0, 0, 0, 0]))).toThrow(ProtocolError);
      s.reset();
      expect(s.push(new Uint8Array([0, 0, 0, 1, 7])).map(hex)).toEqual(['07']);
    }
  });

  it('names the stream offset of a bad length, even when its prefix is split', () => {
    const s = new FrameSplitter({ maxPacket: 100 });
    s.push(new Uint8Array([0, 0, 0, 1, 9, 0x00, 0x10]));
    try {
      s.push(new Uint8Array([0x00, 0x00]));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ProtocolError);
      expect((e as ProtocolError).offset).toBe(5);
      expect((e as Error).message).toMatch(/frame length 1048576 out of range 0\.\.100/);
    }
  });

  it('says a stream that opens with HTTP is not ZooKeeper, however it is chunked and whatever maxPacket allows', () => {
    const http = new TextEncoder().encode('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    for (const cut of [0, 2, 4, 9]) {
      const s = new FrameSplitter({ maxPacket: 0x7fffffff });
      let error: unknown;
      try {
        if (cut > 0) s.push(http.subarray(0, cut));
        s.push(http.subarray(cut));
      } catch (e) {
        error = e;
      }
      expect(error, `cut at ${cut}`).toBeInstanceOf(NotZooKeeperError);
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error).toMatchObject({ code: 'NOT_ZOOKEEPER', protocol: 'HTTP', message: 'not a ZooKeeper client port (an HTTP server: the AdminServer?)' });
      expect(() => s.push(new Uint8Array([0, 0, 0, 0]))).toThrow(NotZooKeeperError);
    }
    // The same four bytes as a later frame's length are a plain bad length: the stream did start as ZooKeeper.
    const later = new FrameSplitter();
    later.push(new Uint8Array([0, 0, 0, 1, 7]));
    expect(() => later.push(http)).toThrow(/frame length 1213486160 out of range/);
  });

  it('defaults maxPacket to 0xfffff (ZooKeeper jute.maxbuffer)', () => {
    expect(new FrameSplitter().maxPacket).toBe(0xfffff);
    expect(() => new FrameSplitter().push(new Uint8Array([0, 0x10, 0, 0]))).toThrow(/out of range/);
  });
});
