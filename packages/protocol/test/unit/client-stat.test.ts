// The client's Stat against the codec's, on the same bytes: ids identical (bigints), times the same instant as
// numbers, and toJSON writing what the codec read. The codec's Stat stays the byte-exact record.
import { describe, expect, it } from 'vitest';

import { JuteReader, JuteWriter, readStat, writeStat, type Stat as WireStat } from '@zkts/protocol/codec';

import { fromWireStat, readClientStat } from '../../src/client/stat.js';

const wire: WireStat = {
  czxid: 0x1_0000_0001n,
  mzxid: 0x7fff_ffff_ffff_fffen,
  ctime: 1_795_325_588_666n,
  mtime: 1_795_325_588_777n,
  version: 3,
  cversion: -1,
  aversion: 2_147_483_647,
  ephemeralOwner: -0x100_0000_0000_0000n,
  dataLength: 100,
  numChildren: 0,
  pzxid: 0n,
};

function encode(stat: WireStat): Uint8Array {
  const w = new JuteWriter();
  writeStat(w, stat);
  return w.toBytes();
}

describe('client Stat', () => {
  it('reads the same record as the codec, with ctime and mtime as numbers', () => {
    const bytes = encode(wire);
    const client = readClientStat(new JuteReader(bytes));
    const codec = readStat(new JuteReader(bytes));
    expect(codec).toEqual(wire);
    expect({ ...client }).toEqual({ ...wire, ctime: 1_795_325_588_666, mtime: 1_795_325_588_777 });
    expect(new Date(client.mtime).toISOString()).toBe('2026-11-22T05:33:08.777Z');
  });

  it('reads times before the epoch and past 2^32 ms exactly', () => {
    for (const ms of [-1n, -86_400_000n, 0x1_0000_0000n, 2n ** 53n - 1n]) {
      const client = readClientStat(new JuteReader(encode({ ...wire, ctime: ms, mtime: ms })));
      expect(client.ctime).toBe(Number(ms));
      expect(client.mtime).toBe(Number(ms));
    }
  });

  it('JSON.stringify writes bigints as decimal strings, numbers as numbers', () => {
    const client = readClientStat(new JuteReader(encode(wire)));
    expect(JSON.parse(JSON.stringify(client))).toEqual({
      czxid: '4294967297',
      mzxid: '9223372036854775806',
      ctime: 1_795_325_588_666,
      mtime: 1_795_325_588_777,
      version: 3,
      cversion: -1,
      aversion: 2_147_483_647,
      ephemeralOwner: '-72057594037927936',
      dataLength: 100,
      numChildren: 0,
      pzxid: '0',
    });
    expect(JSON.stringify(fromWireStat(wire))).toBe(JSON.stringify(client));
  });
});
