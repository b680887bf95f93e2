import { describe, expect, it } from 'vitest';
import { JuteReader, JuteWriter } from '@zkts/protocol/codec';
import { ProtocolError, ServerError, ZkError } from '@zkts/protocol';
import { longMemo } from '../../src/codec/jute/reader.js';

describe('Jute primitives', () => {
  it('round-trips every primitive, keeping null distinct from empty', () => {
    const w = new JuteWriter(4);
    w.writeInt(-5).writeLong(-(2n ** 63n)).writeBool(true).writeBuffer(null).writeBuffer(new Uint8Array(0))
      .writeString(null).writeString('').writeString('δοκιμή🔒').writeVector(null, (x, e: number) => x.writeInt(e))
      .writeVector([1, 2], (x, e) => x.writeInt(e));
    const r = new JuteReader(w.toBytes());
    expect(r.readInt()).toBe(-5);
    expect(r.readLong()).toBe(-(2n ** 63n));
    expect(r.readBool()).toBe(true);
    expect(r.readBuffer()).toBeNull();
    expect(r.readBuffer()).toEqual(new Uint8Array(0));
    expect(r.readString()).toBeNull();
    expect(r.readString()).toBe('');
    expect(r.readString()).toBe('δοκιμή🔒');
    expect(r.readVector((x) => x.readInt(), 4)).toBeNull();
    expect(r.readVector((x) => x.readInt(), 4)).toEqual([1, 2]);
    r.expectEnd('test');
  });

  it('readLongMemo reads what readLong reads, and reuses its last bigint when the bytes repeat', () => {
    const values = [0n, 1n, -1n, 0xffffffffn, 0x1_0000_0000n, -0x1_0000_0001n, 2n ** 63n - 1n, -(2n ** 63n), 0x1234_5678_9abcn];
    const w = new JuteWriter(8);
    for (const v of values) w.writeLong(v).writeLong(v);
    const r = new JuteReader(w.toBytes());
    const memo = longMemo();
    for (const v of values) {
      expect(r.readLongMemo(memo)).toBe(v);
      // Plant another value: the repeat returns it, so no bigint was rebuilt from the same bytes.
      memo.value = 42n;
      expect(r.readLongMemo(memo)).toBe(42n);
    }
    expect(() => new JuteReader(new Uint8Array(7)).readLongMemo(longMemo())).toThrow(ProtocolError);
  });

  it('endFrameLength back-patches the prefix like endFrame and returns the payload length', () => {
    const a = new JuteWriter(4);
    a.beginFrame();
    a.writeInt(1).writeString('abc');
    const view = a.endFrame();
    const b = new JuteWriter(4);
    b.beginFrame();
    b.writeInt(1).writeString('abc');
    expect(b.endFrameLength()).toBe(view.byteLength - 4);
    expect(b.toBytes()).toEqual(a.toBytes());
    expect(() => b.endFrameLength()).toThrow();
  });

  it('refuses truncated input and hostile lengths with a ProtocolError carrying the offset', () => {
    expect(() => new JuteReader(new Uint8Array([0, 0])).readInt()).toThrow(ProtocolError);
    const huge = new Uint8Array([0x7f, 0xff, 0xff, 0xff]);
    try {
      new JuteReader(huge).readBuffer();
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ProtocolError);
      expect((e as ProtocolError).offset).toBe(0);
    }
    expect(() => new JuteReader(new Uint8Array([0xff, 0xff, 0xff, 0xfe])).readString()).toThrow(/negative/);
    // A vector count the frame cannot hold is refused before allocation.
    expect(() => new JuteReader(new Uint8Array([0, 0x0f, 0xff, 0xff])).readVector((x) => x.readInt(), 4)).toThrow(ProtocolError);
  });

  it('back-patches frame lengths', () => {
    const w = new JuteWriter();
    w.beginFrame();
    w.writeInt(7).writeString('ab');
    expect(Array.from(w.endFrame())).toEqual([0, 0, 0, 10, 0, 0, 0, 7, 0, 0, 0, 2, 97, 98]);
  });

  it('maps server codes to stable names, unknown codes to SERVER_ERROR', () => {
    const e = new ServerError(-101, '/a');
    expect(e.code).toBe('NO_NODE');
    expect(e).toBeInstanceOf(ZkError);
    expect(e).toBeInstanceOf(ServerError);
    expect(e).not.toBeInstanceOf(ProtocolError);
    expect(new ServerError(-9999).code).toBe('SERVER_ERROR');
  });
});
