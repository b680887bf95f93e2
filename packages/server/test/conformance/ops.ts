// Request bodies for the conformance scenarios, by opcode, with short names.
import { EventType, JuteWriter, OpCode, type ACL, type MultiOp } from '@zkts/protocol/codec';

export const OP = OpCode;
export const EVENT = EventType;
export const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
export const OPEN: ACL[] = [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }];
export const acl = (perms: number, scheme: string, id: string): ACL[] => [{ perms, id: { scheme, id } }];

export const create = (path: string, data: string | null = '', flags = 0, a: ACL[] | null = OPEN) => ({
  path,
  data: data === null ? null : enc(data),
  acl: a,
  flags,
});
export const createTTL = (path: string, ttl: bigint, flags = 5, data = '') => ({ path, data: enc(data), acl: OPEN, flags, ttl });
export const del = (path: string, version = -1) => ({ path, version });
export const get = (path: string, watch = false) => ({ path, watch });
export const set = (path: string, data: string | null, version = -1) => ({ path, data: data === null ? null : enc(data), version });
export const setAcl = (path: string, a: ACL[], version = -1) => ({ path, acl: a, version });
export const path = (p: string) => ({ path: p });
export const auth = (scheme: string, value: string) => ({ type: 0, scheme, auth: enc(value) });
export const watchReq = (p: string, type: number) => ({ path: p, type });
export const addWatch = (p: string, mode: number) => ({ path: p, mode });
export const setWatches = (relativeZxid: bigint, data: string[], exist: string[], child: string[]) => ({
  relativeZxid,
  dataWatches: data,
  existWatches: exist,
  childWatches: child,
});
export const multiCreate = (p: string, data = '', flags = 0): MultiOp => ({ op: 'create', ...create(p, data, flags) });
export const multiOps = (ops: MultiOp[]): MultiOp[] => ops;

/** A request frame payload by hand: header {xid, type} and raw body bytes. */
export function frame(xid: number, type: number, body: number[] | Uint8Array = []): Uint8Array {
  const b = body instanceof Uint8Array ? body : Uint8Array.from(body);
  const out = new Uint8Array(8 + b.byteLength);
  const v = new DataView(out.buffer);
  v.setInt32(0, xid);
  v.setInt32(4, type);
  out.set(b, 8);
  return out;
}

/** A request frame payload with any xid: header, then the body `write` produces. */
export function frameWith(xid: number, type: number, write: (w: JuteWriter) => void): Uint8Array {
  const w = new JuteWriter();
  w.writeInt(xid);
  w.writeInt(type);
  write(w);
  return w.toBytes().slice();
}
