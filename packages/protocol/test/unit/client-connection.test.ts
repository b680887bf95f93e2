// One connection against a wire-level fake server: handshake fields, xid discipline and reply matching, hostile
// input, reads into the reused buffer, and the write batching. The session around it is in
// client-session.test.ts; the timers in client-timers.test.ts, on a manual clock.
import { Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { ConnectionLossError, ProtocolError, SessionExpiredError } from '../../src/index.js';
import { EventType, OpCode } from '../../src/codec/records/constants.js';
import { writeGetDataResponse, readGetDataRequest } from '../../src/codec/records/node.js';
import { JuteWriter } from '../../src/codec/jute/writer.js';
import { writeReplyHeader } from '../../src/codec/records/headers.js';
import { prng } from '../support/recorded-session.js';
import { eventually, type FakeConnection } from '../support/fake-server.js';
import { STAT, answer, fakeSessions, recordStates } from '../support/fake-sessions.js';

const { fake, client } = fakeSessions();

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

describe('write batching', () => {
  /** Counts the socket writes the client makes to `connectString`'s port (a spy: the writes still happen). */
  function clientWrites(connectString: string): { count(): number; restore(): void } {
    const port = Number(connectString.split(':').at(-1));
    const spy = vi.spyOn(Socket.prototype, 'write');
    return {
      count: () => spy.mock.contexts.filter((sock) => (sock as Socket).remotePort === port).length,
      restore: () => spy.mockRestore(),
    };
  }

  it('a write alone on the connection shares its socket write with what the same code sends next', async () => {
    const s = await fake();
    const c = client(s.connectString);
    await c.connect();
    const writes = clientWrites(s.connectString);
    try {
      void c.create('/lock/_c_x-lock-', null, { mode: 'ephemeral-sequential' }).catch(() => undefined);
      void c.getChildren('/lock').catch(() => undefined);
      await eventually(() => s.last?.requests.length === 2);
      expect(s.last?.requests.map((r) => r.type)).toEqual([OpCode.create2, OpCode.getChildren2]);
      expect(writes.count()).toBe(1);
    } finally {
      writes.restore();
    }
  });

  it('a read alone on the connection leaves before the call returns', async () => {
    const s = await fake();
    const c = client(s.connectString);
    await c.connect();
    const writes = clientWrites(s.connectString);
    try {
      void c.getData('/x').catch(() => undefined);
      expect(writes.count()).toBe(1);
      void c.getData('/y').catch(() => undefined);
      await eventually(() => s.last?.requests.length === 2);
      expect(writes.count()).toBe(2);
    } finally {
      writes.restore();
    }
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
