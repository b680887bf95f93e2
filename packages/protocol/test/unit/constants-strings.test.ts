import { describe, expect, it } from 'vitest';
import { serverCodeName } from '../../src/errors/codes.js';
import { JuteReader } from '../../src/codec/jute/reader.js';
import { JuteWriter } from '../../src/codec/jute/writer.js';
import {
  addWatchModeName,
  createFlagsName,
  createModeFlags,
  createModeName,
  CREATE_MODE_NAMES,
  eventTypeName,
  isEphemeralFlags,
  isSequentialFlags,
  isTtlFlags,
  keeperStateName,
  OpCode,
  opCodeOf,
  opName,
  permsName,
  specialXidName,
  watcherTypeName,
} from '../../src/codec/records/constants.js';
import { hex } from '../support/recorded-session.js';

describe('protocol tables', () => {
  it('names every opcode and survives unknown numbers', () => {
    expect(opName(4)).toBe('getData');
    expect(opName(-11)).toBe('closeSession');
    expect(opName(107)).toBe('whoAmI');
    expect(opName(42)).toBe('op(42)');
    expect(opName(Number.NaN)).toBe('op(NaN)');
    for (const [name, code] of Object.entries(OpCode)) {
      expect(opName(code)).toBe(name);
      expect(opCodeOf(name)).toBe(code);
    }
    expect(opCodeOf('toString')).toBeUndefined();
    expect(new Set(Object.values(OpCode)).size).toBe(Object.keys(OpCode).length);
  });

  it('maps create modes both ways', () => {
    expect(CREATE_MODE_NAMES.map((m) => createModeFlags(m))).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(createModeName(3)).toBe('ephemeral-sequential');
    expect(createModeName(7)).toBeUndefined();
    expect(createModeName(-1)).toBeUndefined();
    expect(createFlagsName(6)).toBe('PERSISTENT_SEQUENTIAL_WITH_TTL');
    expect(createFlagsName(9)).toBe('flags(9)');
    expect([0, 1, 2, 3, 4, 5, 6].filter(isSequentialFlags)).toEqual([2, 3, 6]);
    expect([0, 1, 2, 3, 4, 5, 6].filter(isEphemeralFlags)).toEqual([1, 3]);
    expect([0, 1, 2, 3, 4, 5, 6].filter(isTtlFlags)).toEqual([5, 6]);
  });

  it('names events, states, watcher types, add-watch modes, xids, perms and server codes totally', () => {
    expect(eventTypeName(7)).toBe('PersistentWatchRemoved');
    expect(eventTypeName(-1)).toBe('None');
    expect(eventTypeName(99)).toBe('event(99)');
    expect(keeperStateName(-112)).toBe('Expired');
    expect(keeperStateName(1)).toBe('state(1)');
    expect(watcherTypeName(5)).toBe('PersistentRecursive');
    expect(watcherTypeName(0)).toBe('watcherType(0)');
    expect(addWatchModeName(1)).toBe('PERSISTENT_RECURSIVE');
    expect(addWatchModeName(2)).toBe('mode(2)');
    expect(specialXidName(-8)).toBe('SET_WATCHES');
    expect(specialXidName(5)).toBeUndefined();
    expect(permsName(31)).toBe('ALL');
    expect(permsName(0)).toBe('none');
    expect(permsName(1 | 8)).toBe('READ|DELETE');
    expect(permsName(-1)).toBe('READ|WRITE|CREATE|DELETE|ADMIN|0xffffffe0');
    expect(serverCodeName(-103)).toBe('BAD_VERSION');
    expect(serverCodeName(-9999)).toBe('SERVER_ERROR');
  });
});

describe('Jute strings', () => {
  const roundTrip = (s: string, encoding: 'utf8' | 'java'): { bytes: string; back: string | null } => {
    const w = new JuteWriter(4, { stringEncoding: encoding });
    w.writeString(s);
    const bytes = w.toBytes();
    return { bytes: hex(bytes.subarray(4)), back: new JuteReader(bytes).readString() };
  };

  it("writes standard UTF-8 by default and Java's surrogate-per-unit form on request; reads both", () => {
    expect(roundTrip('🔒', 'utf8')).toEqual({ bytes: 'f09f9492', back: '🔒' });
    expect(roundTrip('🔒', 'java')).toEqual({ bytes: 'eda0bdedb492', back: '🔒' });
    expect(roundTrip('/δοκιμή/日本', 'java')).toEqual(roundTrip('/δοκιμή/日本', 'utf8'));
  });

  it('handles long strings (past the short-string fast path) in both forms', () => {
    const s = `/${'ascii-'.repeat(30)}/é/${'日本'.repeat(40)}/🔒🔓`;
    expect(roundTrip(s, 'utf8').back).toBe(s);
    expect(roundTrip(s, 'java').back).toBe(s);
    const ascii = 'x'.repeat(5000);
    expect(roundTrip(ascii, 'utf8').back).toBe(ascii);
  });

  it('turns invalid bytes into U+FFFD instead of throwing', () => {
    const read = (bytes: number[]): string | null => {
      const w = new JuteWriter();
      w.writeBuffer(new Uint8Array(bytes));
      return new JuteReader(w.toBytes()).readString();
    };
    expect(read([0x61, 0xff, 0x62])).toBe('a\ufffdb');
    // A lone surrogate triplet next to garbage goes through the lenient decoder.
    expect(read([0xed, 0xa0, 0xbd, 0xff])).toBe('\ud83d\ufffd');
    expect(read([0xed, 0xa0])).toBe('\ufffd\ufffd');
    expect(read([0xc3])).toBe('\ufffd');
  });

  it('reads string vectors the same on the whole-vector ASCII path and the per-string path', () => {
    const slow = (bytes: Uint8Array): unknown => new JuteReader(bytes).readVector((r) => r.readString(), 4);
    const cases: (string | null)[][] = [
      Array.from({ length: 10_000 }, (_, i) => `node-${String(i).padStart(10, '0')}`),
      Array.from({ length: 20 }, (_, i) => 'x'.repeat(i * 20)),
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'é'],
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', null],
      ['', '', '', '', '', '', '', '', ''],
    ];
    for (const names of cases) {
      const w = new JuteWriter();
      w.writeVector(names, (x, e) => x.writeString(e));
      w.writeInt(7);
      const r = new JuteReader(w.toBytes());
      expect(r.readStringVector()).toEqual(names);
      expect(r.readInt()).toBe(7);
      expect(slow(w.toBytes())).toEqual(names);
    }
  });

  it('refuses a truncated or hostile string vector like the per-string path does', () => {
    const w = new JuteWriter();
    w.writeVector(Array.from({ length: 10 }, () => 'abc'), (x, e) => x.writeString(e));
    const cut = w.toBytes().subarray(0, 30);
    expect(() => new JuteReader(cut).readStringVector()).toThrow(/truncated|exceeds/);
    const lying = w.toBytes();
    new DataView(lying.buffer, lying.byteOffset).setInt32(4 + 7 * 5, 0x7fffffff);
    expect(() => new JuteReader(lying).readStringVector()).toThrow(/exceeds/);
  });
});
