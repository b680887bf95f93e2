/**
 * Jute's string encodings.
 *
 * ZooKeeper's Java `BinaryOutputArchive.writeString` (3.8) encodes each UTF-16 unit on its own, so a character
 * outside the BMP goes out as two 3-byte surrogate sequences (CESU-8), e.g. U+1F512 → ED A0 BD ED B4 92.
 * Servers send node names that way, so the decoder must accept them; `TextDecoder` would turn them into
 * U+FFFD. The Java server *reads* strings with a standard UTF-8 decoder, which rejects those surrogate
 * sequences, so by default zkts writes standard UTF-8 (the server then stores the right name); the 'java'
 * encoding reproduces the Java bytes exactly (byte-for-byte fixtures, proxies that must not alter frames).
 *
 * Short ASCII strings (most paths and child names) skip TextEncoder/TextDecoder: crossing into them costs more
 * than the bytes themselves.
 */

export type StringEncoding = 'utf8' | 'java';

const decoder = new TextDecoder('utf-8', { fatal: false });
const encoder = new TextEncoder();

/** Below this many bytes, a plain loop beats TextDecoder for ASCII. */
const SHORT = 64;

/** scratch[n] is an array of n char codes, reused by every short decode (decoding is synchronous). */
const scratch: number[][] = Array.from({ length: SHORT + 1 }, (_, n) => new Array<number>(n).fill(0));

/** Decodes `bytes[start, end)`, standard UTF-8 or Java's CESU-8 surrogates, never throwing. */
export function decodeString(bytes: Uint8Array, start: number, end: number): string {
  const len = end - start;
  if (len <= SHORT) {
    // One fromCharCode over a reused array of exactly `len` codes: a single flat string, no concatenation.
    const codes = scratch[len] as number[];
    let i = 0;
    for (; i < len; i++) {
      const b = bytes[start + i] as number;
      if (b >= 0x80) break;
      codes[i] = b;
    }
    if (i === len) return String.fromCharCode.apply(null, codes);
  }
  return hasSurrogateTriplet(bytes, start, end) ? decodeCesu(bytes, start, end) : decoder.decode(bytes.subarray(start, end));
}

/** An ED A0..BF lead: a UTF-16 surrogate encoded on its own, which TextDecoder would refuse. */
function hasSurrogateTriplet(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end - 1; i++) {
    if (bytes[i] === 0xed && (bytes[i + 1] as number) >= 0xa0) return true;
  }
  return false;
}

/** Lenient decoder: 1–4 byte sequences plus lone 3-byte surrogates; anything invalid becomes U+FFFD. */
function decodeCesu(bytes: Uint8Array, start: number, end: number): string {
  const units: number[] = [];
  let i = start;
  const cont = (k: number): number => {
    const c = k < end ? (bytes[k] as number) : 0;
    return (c & 0xc0) === 0x80 ? c & 0x3f : -1;
  };
  while (i < end) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      units.push(b);
      i += 1;
    } else if (b >= 0xc2 && b < 0xe0 && cont(i + 1) >= 0) {
      units.push(((b & 0x1f) << 6) | cont(i + 1));
      i += 2;
    } else if (b >= 0xe0 && b < 0xf0 && cont(i + 1) >= 0 && cont(i + 2) >= 0) {
      const cp = ((b & 0x0f) << 12) | (cont(i + 1) << 6) | cont(i + 2);
      units.push(cp >= 0x800 ? cp : 0xfffd);
      i += 3;
    } else if (b >= 0xf0 && b < 0xf5 && cont(i + 1) >= 0 && cont(i + 2) >= 0 && cont(i + 3) >= 0) {
      const cp = ((b & 0x07) << 18) | (cont(i + 1) << 12) | (cont(i + 2) << 6) | cont(i + 3);
      if (cp < 0x10000 || cp > 0x10ffff) units.push(0xfffd);
      else units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
      i += 4;
    } else {
      units.push(0xfffd);
      i += 1;
    }
  }
  let s = '';
  // fromCharCode in slices: spreading a huge array would overflow the stack.
  for (let k = 0; k < units.length; k += 4096) s += String.fromCharCode(...units.slice(k, k + 4096));
  return s;
}

/** The most bytes `s` can take in either encoding (3 per UTF-16 unit). */
export function maxEncodedLength(s: string): number {
  return s.length * 3;
}

/**
 * Encodes `s` into `out` at `at` (room for `maxEncodedLength(s)` bytes is the caller's job); returns the byte
 * count.
 */
export function encodeStringInto(s: string, out: Uint8Array, at: number, encoding: StringEncoding): number {
  const n = s.length;
  if (encoding === 'utf8') {
    if (n <= SHORT && asciiInto(s, out, at)) return n;
    return encoder.encodeInto(s, out.subarray(at)).written;
  }
  let p = at;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      out[p++] = c;
    } else if (c < 0x800) {
      out[p++] = 0xc0 | (c >> 6);
      out[p++] = 0x80 | (c & 0x3f);
    } else {
      out[p++] = 0xe0 | (c >> 12);
      out[p++] = 0x80 | ((c >> 6) & 0x3f);
      out[p++] = 0x80 | (c & 0x3f);
    }
  }
  return p - at;
}

/** What every empty string encodes to: nothing can be written into it, so one is enough. */
const NO_BYTES = new Uint8Array(0);

/**
 * The UTF-8 bytes of `s` in an array of their own, as TextEncoder.encode gives them. A short ASCII string is
 * copied by the same loop as encodeStringInto's: TextEncoder.encode crosses into C++ and makes a backing store
 * per call (bench/README.md, "Short strings without TextEncoder").
 */
export function utf8Bytes(s: string): Uint8Array {
  const n = s.length;
  if (n === 0) return NO_BYTES;
  if (n <= SHORT) {
    const out = new Uint8Array(n);
    if (asciiInto(s, out, 0)) return out;
  }
  return encoder.encode(s);
}

/** Copies `s` into `out` at `at` if every unit is ASCII; false (having written part of it) if one is not. */
function asciiInto(s: string, out: Uint8Array, at: number): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return false;
    out[at + i] = c;
  }
  return true;
}
