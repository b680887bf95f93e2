// The session against a wire-level fake server: re-priming order after a reconnect, expiry, requests while not
// connected and the suspended-request policies, the order of events and replies, and input refused before the
// wire. One connection's framing is in client-connection.test.ts; the timers in client-timers.test.ts.
import { describe, expect, it } from 'vitest';
import { AbortError, AuthFailedError, ConnectionLossError, TimeoutError } from '../../src/index.js';
import { EventType, OpCode, Xid } from '../../src/codec/records/constants.js';
import { readGetDataRequest, readExistsRequest } from '../../src/codec/records/node.js';
import { readAuthPacket } from '../../src/codec/records/auth.js';
import { readSetWatches, readSetWatches2 } from '../../src/codec/records/watches.js';
import { eventually, type FakeConnection, type ReceivedRequest } from '../support/fake-server.js';
import { answer, fakeSessions } from '../support/fake-sessions.js';

const { fake, client } = fakeSessions();

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
