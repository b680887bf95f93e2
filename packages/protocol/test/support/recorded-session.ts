/** The recorded Java client session (fixtures/java-client-session.json) and a seeded PRNG, shared by the codec tests. */
import { readFileSync } from 'node:fs';

export interface SessionFrame {
  dir: 'c2s' | 's2c';
  frame: Uint8Array;
}

interface SessionFile {
  connections: { frames: { dir: 'c2s' | 's2c'; hex: string }[] }[];
}

export function sessionFrames(): SessionFrame[] {
  const file = JSON.parse(
    readFileSync(new URL('../fixtures/java-client-session.json', import.meta.url), 'utf8'),
  ) as SessionFile;
  return file.connections[0]!.frames.map((f) => ({ dir: f.dir, frame: new Uint8Array(Buffer.from(f.hex, 'hex')) }));
}

export const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/** mulberry32: small, fast, seeded; tests must replay exactly. */
/**
 * `stream` cut into random chunks (empty ones included) of at most `maxChunk` bytes, drawn from `rnd`: how a
 * socket may deliver it.
 */
export function randomChunks(stream: Uint8Array, rnd: () => number, maxChunk: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let pos = 0; pos < stream.byteLength; ) {
    const n = Math.floor(rnd() * (maxChunk + 1));
    chunks.push(stream.subarray(pos, pos + n));
    pos += n;
  }
  return chunks;
}

export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
