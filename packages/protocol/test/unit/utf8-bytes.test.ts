// Strings given as node data become the bytes TextEncoder makes, whichever path encodes them: the short ASCII
// path, the shared empty array, or TextEncoder itself (long strings, any character above 0x7f). A seeded run
// compares random strings of every kind (the seed is printed; ZKTS_SEED=<seed> replays it).
import { describe, expect, it } from 'vitest';

import { utf8Bytes } from '../../src/codec/jute/utf8.js';
import { prng } from '../support/recorded-session.js';

const reference = new TextEncoder();

describe('utf8Bytes', () => {
  it('encodes the edge cases as TextEncoder does', () => {
    const cases = [
      '', 'a', '\0', '\x7f', '\x80', 'é', 'lock-', '10.0.0.7:2181', '€', '😀', '\ud83d', 'x\udc00y',
      'a'.repeat(63), 'a'.repeat(64), 'a'.repeat(65), `${'a'.repeat(63)}é`, `é${'a'.repeat(70)}`,
    ];
    for (const text of cases) expect([...utf8Bytes(text)], JSON.stringify(text)).toEqual([...reference.encode(text)]);
  });

  it('gives every string its own array, but the empty one, which holds nothing to write', () => {
    expect(utf8Bytes('ab')).not.toBe(utf8Bytes('ab'));
    expect(utf8Bytes('').byteLength).toBe(0);
  });

  it('agrees with TextEncoder on random strings of ASCII, Latin-1, BMP and astral characters', () => {
    const seed = process.env['ZKTS_SEED'] === undefined ? Date.now() >>> 0 : Number(process.env['ZKTS_SEED']);
    console.info(`utf8Bytes: seed ${seed} (replay: ZKTS_SEED=${seed})`);
    const random = prng(seed);
    const ranges = [0x80, 0x100, 0x10000, 0x110000];
    for (let round = 0; round < 2_000; round++) {
      const length = Math.floor(random() * 90);
      const top = ranges[Math.floor(random() * ranges.length)] as number;
      let text = '';
      for (let i = 0; i < length; i++) text += String.fromCodePoint(Math.floor(random() * top));
      expect([...utf8Bytes(text)], `seed ${seed} round ${round}`).toEqual([...reference.encode(text)]);
    }
  });
});
