/**
 * The client against the wire-level fake server (fake-server.ts), as the session tests use it: a Stat to answer
 * with, a default answer, and clients and servers closed after each test.
 */
import { afterEach } from 'vitest';
import { createClient, type ClientOptions, type StateChange, type ZkClient } from '../../src/index.js';
import { OpCode } from '../../src/codec/records/constants.js';
import type { Stat } from '../../src/codec/records/data.js';
import { writeGetDataResponse } from '../../src/codec/records/node.js';
import { FakeServer, type FakeConnection, type FakeServerOptions, type ReceivedRequest } from './fake-server.js';

export const STAT: Stat = {
  czxid: 1n,
  mzxid: 2n,
  ctime: 3n,
  mtime: 4n,
  version: 0,
  cversion: 0,
  aversion: 0,
  ephemeralOwner: 0n,
  dataLength: 1,
  numChildren: 0,
  pzxid: 5n,
};

/** Answers getData with 'v' and exists with NO_NODE; other requests get an empty OK. */
export function answer(conn: FakeConnection, req: ReceivedRequest, zxid = 10n): void {
  if (req.type === OpCode.getData) {
    conn.reply(req.xid, { zxid, body: (w) => writeGetDataResponse(w, { data: new Uint8Array([118]), stat: STAT }) });
  } else if (req.type === OpCode.exists) {
    conn.reply(req.xid, { zxid, err: -101 });
  } else {
    conn.reply(req.xid, { zxid });
  }
}

/** Every state change of `c` from now on. */
export function recordStates(c: ZkClient): StateChange[] {
  const out: StateChange[] = [];
  c.onStateChange((s) => out.push(s));
  return out;
}

/** `fake` and `client` for one test file; what they made is closed after each test. */
export function fakeSessions(): { fake(options?: FakeServerOptions): Promise<FakeServer>; client(connectString: string, options?: ClientOptions): ZkClient } {
  const servers: FakeServer[] = [];
  const clients: ZkClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const s of servers.splice(0)) await s.close();
  });
  return {
    async fake(options = {}) {
      const s = await FakeServer.start(options);
      servers.push(s);
      return s;
    },
    client(connectString, options = {}) {
      const c = createClient(connectString, { sessionTimeout: 3000, shuffle: false, ...options });
      clients.push(c);
      return c;
    },
  };
}
