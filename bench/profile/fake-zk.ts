// An in-process stand-in for ZooKeeper that answers the requests of the profile drivers (bench/profile/writes.ts,
// floor.ts) at once: handshake, create / create2 / createContainer (sequential names included), delete, getData,
// getChildren2, closeSession. It keeps the tree as a map of paths to data, so a lock sees its own node in the listing. Run against it, two clients
// (or builds) differ only in their own work: the server's share is the same for both and costs no scheduling
// between processes. Not a ZooKeeper: no ACLs, watches, versions or sessions beyond the handshake.
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

const OP_CREATE = 1;
const OP_DELETE = 2;
const OP_CLOSE = -11;
const OP_CREATE2 = 15;
const OP_CREATE_CONTAINER = 19;
const OP_CHILDREN2 = 12;
const OP_GET_DATA = 4;
const NO_NODE = -101;
const NODE_EXISTS = -110;

/** A reply frame: length, xid, zxid, err, then `body`. */
function reply(xid: number, zxid: bigint, err: number, body: Buffer | null): Buffer {
  const head = Buffer.allocUnsafe(20);
  head.writeInt32BE(16 + (body?.length ?? 0), 0);
  head.writeInt32BE(xid, 4);
  head.writeBigInt64BE(zxid, 8);
  head.writeInt32BE(err, 16);
  return body === null ? head : Buffer.concat([head, body]);
}

/** The one session this stand-in hands out (every connection gets it). */
const SESSION_ID = 0x1234n;

function stat(zxid: bigint, ephemeral = false): Buffer {
  const s = Buffer.alloc(68);
  s.writeBigInt64BE(zxid, 0);
  s.writeBigInt64BE(zxid, 8);
  if (ephemeral) s.writeBigInt64BE(SESSION_ID, 44);
  s.writeBigInt64BE(zxid, 60);
  return s;
}

function str(s: string): Buffer {
  const b = Buffer.from(s, 'utf8');
  const out = Buffer.allocUnsafe(4 + b.length);
  out.writeInt32BE(b.length, 0);
  b.copy(out, 4);
  return out;
}

export async function fakeZooKeeper(): Promise<{ connectString: string; close: () => void }> {
  const nodes = new Map<string, Buffer>([['/', Buffer.alloc(0)]]);
  const sequence = new Map<string, number>();
  let zxid = 1n;
  const parentOf = (p: string): string => p.slice(0, Math.max(1, p.lastIndexOf('/')));
  const server = createServer((sock: Socket) => {
    sock.setNoDelay(true);
    let pending: Buffer = Buffer.alloc(0);
    let handshake = true;
    sock.on('error', () => undefined);
    sock.on('data', (chunk: Buffer) => {
      pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      const out: Buffer[] = [];
      while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
        const frame = pending.subarray(4, 4 + pending.readInt32BE(0));
        pending = pending.subarray(4 + frame.length);
        if (handshake) {
          handshake = false;
          const r = Buffer.alloc(41);
          r.writeInt32BE(37, 0);
          r.writeInt32BE(30_000, 8);
          r.writeBigInt64BE(SESSION_ID, 12);
          r.writeInt32BE(16, 20);
          out.push(r);
          continue;
        }
        const xid = frame.readInt32BE(0);
        const op = frame.readInt32BE(4);
        const pathLength = frame.length >= 12 ? frame.readInt32BE(8) : 0;
        const path = frame.toString('utf8', 12, 12 + Math.max(0, pathLength));
        if (op === OP_CREATE || op === OP_CREATE2 || op === OP_CREATE_CONTAINER) {
          let at = 12 + pathLength;
          const dataLength = frame.readInt32BE(at);
          const data = Buffer.from(frame.subarray(at + 4, at + 4 + Math.max(0, dataLength)));
          at += 4 + Math.max(0, dataLength);
          const acls = frame.readInt32BE(at);
          at += 4;
          for (let i = 0; i < acls; i++) {
            at += 4;
            at += 4 + frame.readInt32BE(at);
            at += 4 + frame.readInt32BE(at);
          }
          const flags = frame.readInt32BE(at);
          const parent = parentOf(path);
          let name = path;
          if (flags & 2) {
            const n = sequence.get(parent) ?? 0;
            sequence.set(parent, n + 1);
            name = `${path}${String(n).padStart(10, '0')}`;
          }
          if (!nodes.has(parent)) out.push(reply(xid, zxid, NO_NODE, null));
          else if (nodes.has(name)) out.push(reply(xid, zxid, NODE_EXISTS, null));
          else {
            nodes.set(name, data);
            zxid++;
            out.push(reply(xid, zxid, 0, op === OP_CREATE ? str(name) : Buffer.concat([str(name), stat(zxid, (flags & 1) !== 0)])));
          }
        } else if (op === OP_DELETE) {
          const ok = nodes.delete(path);
          if (ok) zxid++;
          out.push(reply(xid, zxid, ok ? 0 : NO_NODE, null));
        } else if (op === OP_GET_DATA) {
          const data = nodes.get(path);
          if (data === undefined) out.push(reply(xid, zxid, NO_NODE, null));
          else {
            const length = Buffer.allocUnsafe(4);
            length.writeInt32BE(data.length, 0);
            out.push(reply(xid, zxid, 0, Buffer.concat([length, data, stat(zxid)])));
          }
        } else if (op === OP_CHILDREN2) {
          if (!nodes.has(path)) {
            out.push(reply(xid, zxid, NO_NODE, null));
            continue;
          }
          const prefix = path === '/' ? '/' : `${path}/`;
          const children = [...nodes.keys()].filter((p) => p.startsWith(prefix) && p.length > prefix.length && !p.includes('/', prefix.length)).map((p) => p.slice(prefix.length));
          const count = Buffer.allocUnsafe(4);
          count.writeInt32BE(children.length, 0);
          out.push(reply(xid, zxid, 0, Buffer.concat([count, ...children.map(str), stat(zxid)])));
        } else if (op === OP_CLOSE) {
          out.push(reply(xid, zxid, 0, null));
        } else {
          out.push(reply(xid, zxid, -6, null)); // UNIMPLEMENTED
        }
      }
      if (out.length > 0) sock.write(Buffer.concat(out));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ connectString: `127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }),
    ),
  );
}
