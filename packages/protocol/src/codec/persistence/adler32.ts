/**
 * Adler-32 (RFC 1950), the checksum ZooKeeper writes before every txn-log entry and at the end of a snapshot
 * (java.util.zip.Adler32 through a CheckedOutputStream). Node's zlib does not expose it, so it is computed
 * here: two running sums modulo 65521, reduced once every 5552 bytes (the most that cannot overflow 2^53
 * with plain numbers is far more, but 5552 keeps both sums below 2^32 as zlib does, so `>>> 0` is exact).
 */
const MOD = 65521;
const NMAX = 5552;

/** The checksum of `bytes`, continuing from `start` (1 for a fresh checksum, as Java's `new Adler32()`). */
export function adler32(bytes: Uint8Array, start = 1): number {
  let a = start & 0xffff;
  let b = (start >>> 16) & 0xffff;
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const end = Math.min(n, i + NMAX);
    for (; i < end; i++) {
      a += bytes[i] as number;
      b += a;
    }
    a %= MOD;
    b %= MOD;
  }
  return ((b << 16) | a) >>> 0;
}
