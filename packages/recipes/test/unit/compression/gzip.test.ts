// The gzip helpers without a server: Curator's header bytes, round trips, any valid gzip accepted, and the
// typed refusals (not gzip; output past maxBytes, a zip bomb stopped at the cap).
import { gzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import {
  CompressedDataError, DecompressedTooLargeError, compressLikeCurator, decompressLikeCurator, gunzipDecoder,
} from '../../../src/index.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('gzip as Curator writes it', () => {
  it("writes Curator's bytes: header 1f8b0800 00000000 0000, default deflate, CRC32 + size trailer", () => {
    // GzipCompressionProvider.compress("hello") in Curator 5.4 on OpenJDK 17 gives exactly these bytes.
    expect(hex(compressLikeCurator('hello'))).toBe('1f8b0800000000000000cb48cdc9c9070086a6103605000000');
    expect(hex(compressLikeCurator(new TextEncoder().encode('hello')))).toBe('1f8b0800000000000000cb48cdc9c9070086a6103605000000');
  });

  it('round-trips and reads any valid gzip (other header fields, a file name, two members)', () => {
    const data = new Uint8Array(5000).map((_, i) => (i * 7) % 251);
    expect(decompressLikeCurator(compressLikeCurator(data))).toEqual(data);
    expect(new TextDecoder().decode(decompressLikeCurator(gzipSync('node gzip, OS 3', { level: 9 })))).toBe('node gzip, OS 3');
    // FNAME set: header 1f 8b 08 08, then "a.txt\0", then the deflate stream of the plain member.
    const plain = gzipSync('named');
    const named = Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 8, 0, 0, 0, 0, 0, 3]), Buffer.from('a.txt\0'), plain.subarray(10)]);
    expect(new TextDecoder().decode(decompressLikeCurator(named))).toBe('named');
    const two = Buffer.concat([gzipSync('one-'), gzipSync('two')]);
    expect(new TextDecoder().decode(decompressLikeCurator(two))).toBe('one-two');
  });

  it('refuses what is not gzip with CompressedDataError', () => {
    for (const bad of [new Uint8Array(0), new TextEncoder().encode('plain text'), compressLikeCurator('x').subarray(0, 12)]) {
      expect(() => decompressLikeCurator(bad)).toThrow(CompressedDataError);
    }
    const flipped = compressLikeCurator('checksum');
    flipped[flipped.length - 5]! ^= 0xff; // the CRC32
    expect(() => decompressLikeCurator(flipped)).toThrow(expect.objectContaining({ code: 'COMPRESSED_CORRUPT' }));
  });

  it('stops a zip bomb at maxBytes with DecompressedTooLargeError', () => {
    const bomb = compressLikeCurator(new Uint8Array(64 * 1024 * 1024)); // 64 MiB of zeros in ~64 KiB
    expect(bomb.length).toBeLessThan(100_000);
    const err = (() => {
      try {
        decompressLikeCurator(bomb);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(DecompressedTooLargeError);
    expect(err).toMatchObject({ code: 'DECOMPRESSED_TOO_LARGE', maxBytes: 16 * 1024 * 1024 });
    expect(() => decompressLikeCurator(compressLikeCurator('12345'), { maxBytes: 4 })).toThrow(DecompressedTooLargeError);
    expect(decompressLikeCurator(compressLikeCurator('12345'), { maxBytes: 5 })).toHaveLength(5);
    expect(() => gunzipDecoder({ maxBytes: 4 })(compressLikeCurator('12345'), '/n')).toThrow(DecompressedTooLargeError);
    expect(gunzipDecoder()(new Uint8Array(0), '/dir')).toEqual(new Uint8Array(0)); // a directory, not an error
    expect(() => gunzipDecoder()(new Uint8Array([1]), '/n')).toThrow(CompressedDataError);
  });
});
