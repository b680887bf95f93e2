/**
 * Reply bytes handed to the caller. Reply bodies are views into the connection's reused read buffer, so every
 * byte array a caller receives is copied here, and nowhere else.
 */
/**
 * Small reply bodies are copied into a shared 64 KiB slab, as Node's Buffer pool does: a `new Uint8Array(n)` per
 * reply (its own ArrayBuffer) cost more than the rest of decoding a getData reply. The copy is still the caller's
 * to keep and mutate; like a pooled Buffer, its `.buffer` is shared, so use byteOffset/byteLength with it.
 */
const POOL_SIZE = 64 * 1024;
const POOL_MAX = 1024;
let pool = new Uint8Array(POOL_SIZE);
let poolPos = 0;

export function copy(bytes: Uint8Array | null): Uint8Array {
  if (bytes === null) return new Uint8Array(0);
  const n = bytes.byteLength;
  if (n > POOL_MAX || n === 0) return new Uint8Array(bytes);
  if (poolPos + n > POOL_SIZE) {
    pool = new Uint8Array(POOL_SIZE);
    poolPos = 0;
  }
  const out = pool.subarray(poolPos, poolPos + n);
  out.set(bytes);
  poolPos = (poolPos + n + 7) & ~7;
  return out;
}


export function strings(list: (string | null)[] | null): string[] {
  return (list ?? []).map((s) => s ?? '');
}
