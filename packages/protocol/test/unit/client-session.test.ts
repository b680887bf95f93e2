// The session layer against a wire-level fake server: handshake fields, xid discipline, reply ordering,
// hostile input, re-priming order, expiry and the suspended-request policies. The timers are in
// client-timers.test.ts, on a manual clock.
import { afterEach, describe, expect, it } from 'vitest';
import {
  AbortError,
  AuthFailedError,
  ConnectionLossError,
  ProtocolError,
  SessionExpiredError,
  TimeoutError,
  createClient,
  type ClientOptions,
  type StateChange,
  type ZkClient,
} from '../../src/index.js';
import { EventType, OpCode, Xid } from '../../src/codec/records/constants.js';
import { writeGetDataResponse, readGetDataRequest, readExistsRequest } from '../../src/codec/records/node.js';
import { readAuthPacket } from '../../src/codec/records/auth.js';
import { readSetWatches, readSetWatches2 } from '../../src/codec/records/watches.js';
import type { Stat } from '../../src/codec/records/data.js';
import { JuteWriter } from '../../src/codec/jute/writer.js';
import { prng } from '../support/recorded-session.js';
import { writeReplyHeader } from '../../src/codec/records/headers.js';
import { FakeServer, eventually, type FakeConnection, type FakeServerOptions, type ReceivedRequest } from '../support/fake-server.js';

const STAT: Stat = {
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
function answer(conn: FakeConnection, req: ReceivedRequest, zxid = 10n): void {
  if (req.type === OpCode.getData) {
    conn.reply(req.xid, { zxid, body: (w) => writeGetDataResponse(w, { data: new Uint8Array([118]), stat: STAT }) });
  } else if (req.type === OpCode.exists) {
    conn.reply(req.xid, { zxid, err: -101 });
  } else {
    conn.reply(req.xid, { zxid });
  }
}

const servers: FakeServer[] = [];
const clients: ZkClient[] = [];

async function fake(options: FakeServerOptions = {}): Promise<FakeServer> {
  const s = await FakeServer.start(options);
  servers.push(s);
  return s;
}

function client(connectString: string, options: ClientOptions = {}): ZkClient {
  const c = createClient(connectString, { sessionTimeout: 3000, shuffle: false, ...options });
  clients.push(c);
  return c;
}

function recordStates(c: ZkClient): StateChange[] {
  const out: StateChange[] = [];
  c.onStateChange((s) => out.push(s));
  return out;
}

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) await s.close();
});

describe('handshake', () => {
  it('sends protocol 0, lastZxid, the requested timeout, a zero session and password, and the readOnly byte', async () => {
    const s = await fake({ onRequest: answer });
    const c = client(s.connectString, { canBeReadOnly: true, sessionTimeout: 4321 });
    await c.connect();
    const req = s.last?.connect;
    expect(req).toMatchObject({ protocolVersion: 0, lastZxidSeen: 0n, timeOut: 4321, sessionId: 0n, readOnly: true });
    expect([...(req?.passwd ?? [])]).toEqual(new Array(16).fill(0));
    expect(c.sessionId).toBe(0x1234n);
    expect(c.negotiatedTimeout).toBe(4321);
    expect([...c.sessionPassword]).toEqual(new Array(16).fill(7));
  });

  it('tolerates a response without the trailing readOnly byte', async () => {
    const s = await fake({ onConnect: () => ({ readOnly: undefined }), onRequest: answer });
    const c = client(s.connectString);
    await c.connect();
    expect(c.state).toBe('connected');
    expect((await c.getData('/x')).data).toEqual(Buffer.from([118]));
  });

  it('timeOut <= 0 means expired, and no replacement session is opened', async () => {
    const s = await fake({ onConnect: () => ({ timeOut: 0 }) });
    const c = client(s.connectString, { renewSession: false });
    const states = recordStates(c);
    await expect(c.connect()).rejects.toBeInstanceOf(SessionExpiredError);
    await new Promise((r) => setTimeout(r, 100));
    expect(states.map((x) => x.state)).toEqual(['connecting', 'expired', 'closed']);
    expect(s.connections).toHaveLength(1);
  });

  it('a server that closes the socket during the handshake: the next host is tried', async () => {
    const refusing = await fake({ onConnect: () => 'close' });
    const good = await fake({ onRequest: answer });
    const c = client(`${refusing.connectString},${good.connectString}`);
    await c.connect();
    expect(refusing.connections).toHaveLength(1);
    expect(good.connections).toHaveLength(1);
  });

});

describe('xids and replies', () => {
  it('xids start at 1 and replies are matched in order', async () => {
    const s = await fake({ onRequest: answer });
    const c = client(s.connectString);
    await c.connect();
    await Promise.all([c.getData('/a'), c.getData('/b'), c.exists('/c')]);
    expect(s.last?.requests.map((r) => r.xid)).toEqual([1, 2, 3]);
  });

  it('an out-of-order xid is a protocol error: the connection drops, pending requests lose their connection', async () => {
    let first = true;
    const s = await fake({
      onRequest: (conn, req) => {
        if (first && req.type === OpCode.getData && req.xid === 2) {
          first = false;
          // Answer the second request before the first.
          conn.reply(2, { body: (w) => writeGetDataResponse(w, { data: null, stat: STAT }) });
        } else if (!first || req.xid > 2) answer(conn, req);
      },
    });
    const c = client(s.connectString);
    await c.connect();
    const states = recordStates(c);
    const [a, b] = await Promise.all([c.getData('/a').catch((e: unknown) => e), c.getData('/b').catch((e: unknown) => e)]);
    for (const e of [a, b]) {
      expect(e).toBeInstanceOf(ConnectionLossError);
      expect((e as ConnectionLossError).outcomeUnknown).toBe(true);
      expect((e as ConnectionLossError).cause).toBeInstanceOf(ProtocolError);
    }
    await eventually(() => c.state === 'connected' && s.connections.length === 2, 3000, 'reconnect');
    // The re-attach carries the session.
    expect(s.connections[1]?.connect?.sessionId).toBe(0x1234n);
    expect(states.map((x) => x.state)).toEqual(['suspended', 'connected']);
  });

  it('an oversized frame length drops the connection without allocating it', async () => {
    const s = await fake({
      onRequest: (conn, req) => {
        if (req.type === OpCode.getData && conn === s.connections[0]) {
          conn.sendRaw(new Uint8Array([0x7f, 0xff, 0xff, 0xff, 1, 2, 3]));
        } else answer(conn, req);
      },
    });
    const c = client(s.connectString);
    await c.connect();
    const err = await c.getData('/a').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionLossError);
    await eventually(() => c.state === 'connected' && s.connections.length === 2, 3000, 'reconnect');
    expect((await c.getData('/a')).data).toEqual(Buffer.from([118]));
  });

  it('a truncated reply body rejects that call only; a garbage notification drops the connection', async () => {
    const s = await fake({
      onRequest: (conn, req) => {
        if (req.type === OpCode.getData && req.reader().readString() === '/short') {
          conn.reply(req.xid, { body: (w) => w.writeInt(50) });
        } else if (req.type === OpCode.sync) {
          const w = new Uint8Array([0, 0, 0, 18, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
          conn.sendRaw(w);
        } else answer(conn, req);
      },
    });
    const c = client(s.connectString);
    await c.connect();
    await expect(c.getData('/short')).rejects.toBeInstanceOf(ProtocolError);
    expect(c.state).toBe('connected');
    expect((await c.getData('/fine')).data).toEqual(Buffer.from([118]));
    const lost = await c.sync('/x').catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(ConnectionLossError);
    await eventually(() => c.state === 'connected' && s.connections.length === 2, 3000, 'reconnect');
  });

  it('lastZxid moves only forward, only from normal replies, and is sent on re-attach', async () => {
    const zxids = [50n, 20n, 0n];
    const s = await fake({
      onRequest: (conn, req) => {
        if (req.type === OpCode.getData) answer(conn, req, zxids.shift() ?? 0n);
        else answer(conn, req);
      },
    });
    const c = client(s.connectString);
    await c.connect();
    s.last?.notify(EventType.NodeDataChanged, '/n', 900n);
    await c.getData('/a');
    await c.getData('/b');
    await c.getData('/c');
    expect(c.lastZxid).toBe(50n);
    s.last?.close();
    await eventually(() => s.connections.length === 2 && c.state === 'connected', 3000, 'reconnect');
    expect(s.connections[1]?.connect?.lastZxidSeen).toBe(50n);
  });
});

describe('reads into a reused buffer', () => {
  it('reply data stays intact across later reads: 400 distinct replies in awkward chunks, frames split anywhere', async () => {
    // The client reads plain TCP into one buffer per connection; everything it hands out must be a copy.
    const pendingXids: number[] = [];
    const s = await fake({ onRequest: (_conn, req) => void pendingXids.push(req.xid) });
    const c = client(s.connectString);
    await c.connect();
    const n = 400;
    const calls = Array.from({ length: n }, (_, i) => c.getData(`/n${i}`));
    await eventually(() => pendingXids.length === n);
    const w = new JuteWriter(1024);
    for (const xid of pendingXids) {
      w.beginFrame();
      writeReplyHeader(w, { xid, zxid: BigInt(xid), err: 0 });
      // Each body is its own: 1..300 bytes of (xid & 0xff), with a Stat whose version is the xid.
      writeGetDataResponse(w, { data: new Uint8Array(1 + (xid % 300)).fill(xid & 0xff), stat: { ...STAT, version: xid, mzxid: BigInt(xid) } });
      w.endFrame();
    }
    const stream = w.toBytes();
    const conn = s.last!;
    const rnd = prng(7);
    for (let at = 0; at < stream.byteLength; ) {
      const size = 1 + Math.floor(rnd() * 700);
      conn.sendRaw(stream.slice(at, at + size));
      at += size;
      // Let the client read this chunk on its own before the next one lands in the same buffer.
      await new Promise((r) => setImmediate(r));
    }
    const results = await Promise.all(calls);
    results.forEach((res, i) => {
      const xid = pendingXids[i]!;
      expect(res.data.byteLength).toBe(1 + (xid % 300));
      expect(res.data.every((b) => b === (xid & 0xff))).toBe(true);
      expect(res.stat.version).toBe(xid);
      expect(res.stat.mzxid).toBe(BigInt(xid));
    });
  });
});

describe('write batching under a deep pipeline', () => {
  /** Answers getData requests of `conn` in arrival order, `count` of them. */
  function answerFirst(conn: FakeConnection, answered: { n: number }, count: number): void {
    for (let i = 0; i < count; i++) answer(conn, conn.requests[answered.n++]!);
  }

  it('with 256+ requests unanswered, new ones wait for the replies to bring that under 128, then leave together', async () => {
    const s = await fake();
    const c = client(s.connectString);
    await c.connect();
    const first = Array.from({ length: 300 }, (_, i) => c.getData(`/a${i}`));
    await eventually(() => s.last?.requests.length === 300);
    const conn = s.last!;
    const held = Array.from({ length: 10 }, (_, i) => c.getData(`/b${i}`));
    const answered = { n: 0 };
    answerFirst(conn, answered, 150); // 150 left on the wire: still holding
    await Promise.all(first.slice(0, 150));
    await new Promise((r) => setTimeout(r, 50));
    expect(conn.requests.length).toBe(300);
    answerFirst(conn, answered, 23); // 127 left: the held ten go, in one batch, in order
    await eventually(() => conn.requests.length === 310);
    expect(conn.requests.slice(300).map((r) => readGetDataRequest(r.reader()).path)).toEqual(Array.from({ length: 10 }, (_, i) => `/b${i}`));
    answerFirst(conn, answered, 137);
    await Promise.all([...first, ...held]);
  });

});

describe('re-priming after a reconnect', () => {
  it('sends ConnectRequest, auth packets, SetWatches (relative to lastZxid), then queued requests', async () => {
    const s = await fake({
      onRequest: (conn, req) => {
        if (req.type === OpCode.getData && conn === s.connections[0] && req.reader().readString() === '/hold') return;
        answer(conn, req, 77n);
      },
    });
    const c = client(s.connectString, { auth: [{ scheme: 'digest', auth: 'u:p' }] });
    await c.connect();
    await c.getData('/data', { watch: true });
    await c.exists('/missing', { watch: true });
    await c.getChildren('/kids', { watch: () => undefined }).catch(() => undefined);
    const p = await c.addWatch('/tree', 'persistent-recursive');
    const held = c.getData('/hold').catch((e: unknown) => e);
    s.connections[0]?.close();
    expect(await held).toBeInstanceOf(ConnectionLossError);
    const queued = c.getData('/queued');
    await eventually(() => s.connections.length === 2 && c.state === 'connected', 3000, 'reconnect');
    await queued;
    const conn = s.connections[1] as FakeConnection;
    const kinds = conn.log.map((l) => l.type);
    expect(kinds.slice(0, 4)).toEqual([OpCode.createSession, OpCode.auth, OpCode.setWatches2, OpCode.getData]);
    expect(conn.log[1]?.xid).toBe(Xid.AUTH);
    const [auth, setWatches] = conn.requests as [ReceivedRequest, ReceivedRequest];
    expect(readAuthPacket(auth.reader())).toMatchObject({ type: 0, scheme: 'digest' });
    const sw = readSetWatches2(setWatches.reader());
    expect(sw.relativeZxid).toBe(77n);
    expect(sw.dataWatches).toEqual(['/data']);
    expect(sw.existWatches).toEqual(['/missing']);
    expect(sw.persistentRecursiveWatches).toEqual(['/tree']);
    await p.remove();
  });

  it('uses SetWatches (101) when there are no persistent watches, split in batches under 128 KB', async () => {
    const s = await fake({ onRequest: (conn, req) => answer(conn, req) });
    const c = client(s.connectString);
    await c.connect();
    const long = 'x'.repeat(1000);
    await Promise.all(Array.from({ length: 300 }, (_, i) => c.exists(`/${long}${i}`, { watch: () => undefined })));
    s.connections[0]?.close();
    await eventually(() => s.connections.length === 2 && c.state === 'connected', 3000, 'reconnect');
    await eventually(() => (s.connections[1]?.requests.length ?? 0) >= 3, 3000, 'batches');
    const batches = s.connections[1]!.requests.filter((r) => r.type === OpCode.setWatches).map((r) => readSetWatches(r.reader()));
    expect(batches.length).toBe(3);
    const all = batches.flatMap((b) => b.existWatches ?? []);
    expect(all).toHaveLength(300);
    for (const b of batches) expect((b.existWatches ?? []).join('').length).toBeLessThanOrEqual(128 * 1024);
  });

  it('an auth failure (-115) ends in auth-failed and fails everything', async () => {
    const s = await fake({
      onRequest: (conn, req) => {
        if (req.type === OpCode.auth) conn.reply(Xid.AUTH, { err: -115 });
        else answer(conn, req);
      },
    });
    const c = client(s.connectString);
    await c.connect();
    await expect(c.addAuth('digest', 'bad:creds')).rejects.toBeInstanceOf(AuthFailedError);
    expect(c.state).toBe('auth-failed');
    await expect(c.getData('/x')).rejects.toBeInstanceOf(AuthFailedError);
  });

  it('a session born on a read-only server is not re-attached', async () => {
    let n = 0;
    const s = await fake({
      onConnect: () => (n++ === 0 ? { readOnly: true, sessionId: 0x99n } : { sessionId: 0x55n }),
      onRequest: answer,
    });
    const c = client(s.connectString, { canBeReadOnly: true });
    await c.connect();
    expect(c.state).toBe('connected-read-only');
    s.connections[0]?.close();
    await eventually(() => c.state === 'connected', 3000, 'read-write session');
    expect(s.connections[1]?.connect?.sessionId).toBe(0n);
    expect(c.sessionId).toBe(0x55n);
    // Now seen read-write: the next reconnect re-attaches.
    s.connections[1]?.close();
    await eventually(() => s.connections.length === 3 && c.state === 'connected', 3000, 'reconnect');
    expect(s.connections[2]?.connect?.sessionId).toBe(0x55n);
  });
});

describe('requests while not connected, abort and timeouts', () => {
  it('queued requests wait for the reconnect; an aborted queued request is never sent', async () => {
    let accept = false;
    const s = await fake({ onConnect: () => (accept ? {} : 'close'), onRequest: answer });
    const c = client(s.connectString);
    accept = true;
    await c.connect();
    accept = false;
    s.connections[0]?.close();
    await eventually(() => c.state === 'suspended', 2000, 'suspended');
    const controller = new AbortController();
    const aborted = c.getData('/aborted', { signal: controller.signal });
    const timedOut = c.getData('/timed-out', { timeout: 50 });
    const kept = c.getData('/kept');
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(AbortError);
    await expect(timedOut).rejects.toBeInstanceOf(TimeoutError);
    accept = true;
    await kept;
    const paths = s.requestsOf(OpCode.getData).map((r) => readGetDataRequest(r.reader()).path);
    expect(paths).toEqual(['/kept']);
  });

  it('whileSuspended: fail rejects at once; maxQueued bounds the queue', async () => {
    let accept = true;
    const s = await fake({ onConnect: () => (accept ? {} : 'close'), onRequest: answer });
    const failing = client(s.connectString, { whileSuspended: 'fail' });
    await failing.connect();
    const bounded = client(s.connectString, { maxQueued: 2 });
    await bounded.connect();
    accept = false;
    for (const conn of s.connections) conn.close();
    await eventually(() => failing.state === 'suspended' && bounded.state === 'suspended', 2000, 'suspended');
    const fast = await failing.getData('/x').catch((e: unknown) => e);
    expect(fast).toBeInstanceOf(ConnectionLossError);
    expect((fast as ConnectionLossError).outcomeUnknown).toBe(false);
    const q1 = bounded.getData('/1');
    const q2 = bounded.getData('/2');
    const over = await bounded.getData('/3').catch((e: unknown) => e);
    expect(over).toBeInstanceOf(ConnectionLossError);
    accept = true;
    await Promise.all([q1, q2]);
  });

  it('a sent request that is aborted rejects at once; its reply is consumed in order', async () => {
    let hold: ReceivedRequest | undefined;
    const s = await fake({
      onRequest: (conn, req) => {
        if (req.type === OpCode.getData && readGetDataRequest(req.reader()).path === '/slow') hold = req;
        else if (hold !== undefined) {
          answer(conn, hold);
          hold = undefined;
          answer(conn, req);
        } else answer(conn, req);
      },
    });
    const c = client(s.connectString);
    await c.connect();
    const controller = new AbortController();
    const slow = c.getData('/slow', { signal: controller.signal });
    await eventually(() => hold !== undefined, 1000, 'sent');
    controller.abort();
    await expect(slow).rejects.toBeInstanceOf(AbortError);
    expect((await c.exists('/next'))).toBeNull();
    expect(c.state).toBe('connected');
  });

  it('calls before connect() fail fast; close() sends closeSession and is terminal', async () => {
    const s = await fake({ onRequest: answer });
    const c = client(s.connectString);
    await expect(c.getData('/x')).rejects.toBeInstanceOf(ConnectionLossError);
    await c.connect();
    await c.close();
    expect(c.state).toBe('closed');
    expect(s.requestsOf(OpCode.closeSession)).toHaveLength(1);
    await expect(c.getData('/x')).rejects.toMatchObject({ code: 'CLIENT_CLOSED' });
  });
});

describe('ordering of events and replies', () => {
  it('delivers notifications and replies in wire order', async () => {
    const s = await fake({
      onRequest: (conn, req) => {
        if (req.type === OpCode.exists) {
          // Reply first, then the event, in one write: the caller sees its reply before the listener runs.
          const path = readExistsRequest(req.reader()).path ?? '';
          conn.reply(req.xid, { err: -101, zxid: 3n });
          conn.notify(EventType.NodeCreated, path, 4n);
        } else if (req.type === OpCode.getData) {
          // Event first, then the reply.
          conn.notify(EventType.NodeDataChanged, '/ordered', 5n);
          answer(conn, req);
        } else answer(conn, req);
      },
    });
    const c = client(s.connectString);
    await c.connect();
    const seen: string[] = [];
    const persistent = await c.addWatch('/ordered', 'persistent');
    persistent.on((e) => seen.push(`persistent ${e.type}`));
    const stat = await c.exists('/ordered', { watch: (e) => seen.push(`exists-watch ${e.type}`) });
    seen.push(`reply exists ${String(stat)}`);
    await new Promise((r) => setTimeout(r, 20));
    await c.getData('/ordered');
    seen.push('reply getData');
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([
      'reply exists null',
      'exists-watch created',
      'persistent created',
      'persistent dataChanged',
      'reply getData',
    ]);
  });
});

describe('bad input never reaches the wire', () => {
  it('invalid paths, ACLs, versions, sizes, TTLs and modes are refused before sending', async () => {
    const s = await fake({ onRequest: answer });
    const c = client(s.connectString, { maxPacket: 1024 });
    await c.connect();
    const before = s.last?.requests.length ?? 0;
    const bad: Promise<unknown>[] = [
      c.getData('relative'),
      c.getData('/trailing/'),
      c.getData('/a//b'),
      c.getData('/a/./b'),
      c.getData('/a/../b'),
      c.getData('/nul\u0000'),
      c.getData('/ctl\u0001'),
      c.getData('/c1\u0085'),
      c.getData('/sur\ud800'),
      c.getData('/spec\ufff5'),
      c.create('/x', null, { acl: [] }),
      c.create('/x', null, { acl: [{ perms: 32, id: { scheme: 'world', id: 'anyone' } }] }),
      c.create('/x', null, { acl: [{ perms: 1, id: { scheme: 'nosuch', id: 'x' } }] }),
      c.create('/x', null, { acl: [{ perms: 1, id: { scheme: 'digest', id: 'nohash' } }] }),
      c.create('/x', new Uint8Array(2000)),
      c.setData('/x', 'y'.repeat(2000)),
      c.setData('/x', 'y', { version: -2 }),
      c.delete('/x', { version: -5 }),
      c.create('/x', null, { mode: 'persistent-ttl' }),
      c.create('/x', null, { mode: 'persistent-ttl', ttl: 0 }),
      c.create('/x', null, { mode: 'persistent', ttl: 100 }),
      c.create('/x', null, { mode: 'bogus' as never }),
      c.multi([{ op: 'create', path: '/ok' }, { op: 'delete', path: 'bad' }]),
      c.setACL('/x', [{ perms: -1, id: { scheme: 'world', id: 'anyone' } }]),
    ];
    for (const p of bad) await expect(p).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    // Sequential creates may end with '/'.
    await c.create('/dir/', null, { mode: 'persistent-sequential' }).catch(() => undefined);
    expect((s.last?.requests.length ?? 0) - before).toBe(1);
  });
});
