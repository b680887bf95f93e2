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
 * Copies `bytes` into a Buffer of the caller's own. `allocUnsafe` takes small ones from Node's Buffer pool (an
 * 8 KiB slab cut in turn, never zero-filled), where a fresh ArrayBuffer per reply cost more than the rest of
 * decoding a getData reply; every byte is overwritten at once. Like any pooled Buffer, its `.buffer` is shared:
 * use byteOffset/byteLength with it.
 */
export function copy(bytes: Uint8Array | null): Buffer {
  if (bytes === null) return Buffer.alloc(0);
  const out = Buffer.allocUnsafe(bytes.byteLength);
  out.set(bytes);
  return out;
}

export function strings(list: (string | null)[] | null): string[] {
  return (list ?? []).map((s) => s ?? '');
}
