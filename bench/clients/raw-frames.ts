// The raw ceiling client's frames (raw.ts): requests encoded once and patched per call, and the little of a reply
// it reads. Paths here are ASCII (one byte per character).
const OP_CREATE = 1;
const OP_DELETE = 2;
export const OP_GET_DATA = 4;
export const OP_GET_CHILDREN = 8;
export const OP_CLOSE_SESSION = -11;
const OP_PING = 11;
const XID_PING = -2;
export const EPHEMERAL_SEQUENTIAL = 3;

/** A reply's completion: the error, or null and the reply's body (a view valid during the call only). */
export type Reply = (error: Error | null, body: Uint8Array) => void;

/** A length-prefixed frame: `body` writes after the 4-byte length, returns the end offset. */
export function frame(size: number, body: (v: DataView, bytes: Uint8Array) => number): Uint8Array {
  const bytes = new Uint8Array(4 + size);
  const v = new DataView(bytes.buffer);
  const end = body(v, bytes);
  v.setInt32(0, end - 4);
  return bytes.subarray(0, end);
}

function putString(v: DataView, bytes: Uint8Array, at: number, s: string): number {
  const encoded = Buffer.from(s, 'utf8');
  v.setInt32(at, encoded.byteLength);
  bytes.set(encoded, at + 4);
  return at + 4 + encoded.byteLength;
}

export function connectRequest(timeoutMs: number): Uint8Array {
  // protocolVersion, lastZxidSeen, timeOut, sessionId, passwd (16 zero bytes), readOnly
  return frame(4 + 8 + 4 + 8 + 4 + 16 + 1, (v) => {
    v.setInt32(4, 0);
    v.setBigInt64(8, 0n);
    v.setInt32(16, timeoutMs);
    v.setBigInt64(20, 0n);
    v.setInt32(28, 16);
    v.setUint8(48, 0);
    return 49;
  });
}

export function ping(): Uint8Array {
  return frame(8, (v) => {
    v.setInt32(4, XID_PING);
    v.setInt32(8, OP_PING);
    return 12;
  });
}

export function createRequest(xid: number, path: string, data: Uint8Array, flags = 0): Uint8Array {
  return frame(64 + path.length * 3 + data.byteLength, (v, bytes) => {
    v.setInt32(4, xid);
    v.setInt32(8, OP_CREATE);
    let at = putString(v, bytes, 12, path);
    v.setInt32(at, data.byteLength);
    bytes.set(data, at + 4);
    at += 4 + data.byteLength;
    v.setInt32(at, 1); // one ACL: world:anyone, all perms
    v.setInt32(at + 4, 31);
    at = putString(v, bytes, at + 8, 'world');
    at = putString(v, bytes, at, 'anyone');
    v.setInt32(at, flags);
    return at + 4;
  });
}

export function deleteRequest(xid: number, path: string): Uint8Array {
  return frame(16 + path.length * 3, (v, bytes) => {
    v.setInt32(4, xid);
    v.setInt32(8, OP_DELETE);
    const at = putString(v, bytes, 12, path);
    v.setInt32(at, -1); // any version
    return at + 4;
  });
}

/**
 * A request frame encoded once per (opcode, directory, path length): a new path of that shape is a copy with
 * its xid and the bytes after the directory written in (paths here are ASCII: one byte per character).
 */
export class Templates {
  readonly #byKey = new Map<string, { bytes: Uint8Array; suffixAt: number }>();
  readonly #encode: (path: string) => Uint8Array;

  constructor(encode: (path: string) => Uint8Array) {
    this.#encode = encode;
  }

  frame(path: string, xid: number): Uint8Array {
    const slash = path.lastIndexOf('/') + 1;
    const key = `${path.length}${path.slice(0, slash)}`;
    let t = this.#byKey.get(key);
    if (!t) {
      // The path string starts after length, xid, type and the string's own length.
      t = { bytes: this.#encode(path), suffixAt: 16 + slash };
      this.#byKey.set(key, t);
    }
    const out = t.bytes.slice();
    new DataView(out.buffer).setInt32(4, xid);
    for (let i = slash; i < path.length; i++) out[t.suffixAt + i - slash] = path.charCodeAt(i);
    return out;
  }
}

/** A request of a path and a watch flag (false): getData, whose reply is the data and a Stat, or getChildren, the names. */
export function pathRequest(op: typeof OP_GET_DATA | typeof OP_GET_CHILDREN, path: string): Uint8Array {
  return frame(16 + path.length * 3, (v, bytes) => {
    v.setInt32(8, op);
    const at = putString(v, bytes, 12, path);
    v.setUint8(at, 0);
    return at + 1;
  });
}

export function readString(body: Uint8Array, at: number): string {
  const len = new DataView(body.buffer, body.byteOffset + at).getInt32(0);
  return Buffer.from(body.buffer, body.byteOffset + at + 4, len).toString('latin1');
}

/** Whether a getChildren reply has a name that sorts before `mine` (equal-width sequence suffixes sort as text). */
export function anyBefore(body: Uint8Array, mine: string): boolean {
  const v = new DataView(body.buffer, body.byteOffset);
  const count = v.getInt32(0);
  let at = 4;
  for (let i = 0; i < count; i++) {
    const len = v.getInt32(at);
    if (readString(body, at) < mine) return true;
    at += 4 + len;
  }
  return false;
}
