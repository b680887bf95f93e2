/**
 * Reply bytes handed to the caller. Reply bodies are views into the connection's reused read buffer, so every
 * byte array a caller receives is copied here, and nowhere else.
 *
 * The copies are Buffers, as node-zookeeper-client's and Node's own I/O are: `data.toString()` is the UTF-8 text
 * and `JSON.parse(data)` parses it, where a plain Uint8Array would print as `123,34,…`. A Buffer is a
 * Uint8Array, so code written against Uint8Array keeps working.
 */
import { Buffer } from 'node:buffer';

/**
 * Small reply bodies are copied into a shared 64 KiB slab, as Node's Buffer pool does: a fresh allocation per
 * reply (its own ArrayBuffer) cost more than the rest of decoding a getData reply. The copy is still the caller's
 * to keep and mutate; like any pooled Buffer, its `.buffer` is shared, so use byteOffset/byteLength with it.
 */
const POOL_SIZE = 64 * 1024;
const POOL_MAX = 1024;
let pool = new ArrayBuffer(POOL_SIZE);
let poolPos = 0;

export function copy(bytes: Uint8Array | null): Buffer {
  if (bytes === null) return Buffer.alloc(0);
  const n = bytes.byteLength;
  if (n > POOL_MAX || n === 0) {
    // No zero-fill: every byte is overwritten at once.
    const out = Buffer.allocUnsafeSlow(n);
    out.set(bytes);
    return out;
  }
  if (poolPos + n > POOL_SIZE) {
    pool = new ArrayBuffer(POOL_SIZE);
    poolPos = 0;
  }
  const out = Buffer.from(pool, poolPos, n);
  out.set(bytes);
  poolPos = (poolPos + n + 7) & ~7;
  return out;
}

export function strings(list: (string | null)[] | null): string[] {
  return (list ?? []).map((s) => s ?? '');
}
