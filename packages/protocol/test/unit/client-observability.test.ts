// states(), onStateChange, diagnostics channels, asyncDispose, and the read-only → read-write move,
// against the wire-level fake.
import { channel, tracingChannel } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type StateChange, type ZkClient } from '../../src/index.js';
import { EventType, OpCode } from '../../src/codec/records/constants.js';
import { FakeServer, eventually, type FakeConnection, type ReceivedRequest } from '../support/fake-server.js';

const servers: FakeServer[] = [];
const clients: ZkClient[] = [];

function ok(conn: FakeConnection, req: ReceivedRequest): void {
  conn.reply(req.xid, { zxid: 1n, err: req.type === OpCode.exists ? -101 : 0 });
}

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) await s.close();
});

describe('observability', () => {
  it('on/once/off/removeListener are methods of ZkClient itself, and serve Node\'s events.once', async () => {
    const { ZkClient: Direct } = await import('../../src/client/client.js');
    expect(Object.getOwnPropertyNames(Direct.prototype)).toEqual(expect.arrayContaining(['on', 'once', 'off', 'removeListener']));
    const s = await FakeServer.start({ onRequest: ok });
    servers.push(s);
    const c = createClient(s.connectString, { sessionTimeout: 2000 });
    clients.push(c);
    const states: string[] = [];
    const onState = (change: StateChange): void => void states.push(change.state);
    c.on('state', onState);
    const connected = once(c as never, 'connected');
    await c.connect();
    const [change] = (await connected) as [StateChange];
    expect(change.state).toBe('connected');
    c.removeListener('state', onState);
    s.last?.close();
    await eventually(() => s.connections.length === 2 && c.state === 'connected', 3000, 'reconnect');
    expect(states).toEqual(['connecting', 'connected']);
  });

  it('states() yields every change in order and ends after a terminal state', async () => {
    const s = await FakeServer.start({ onRequest: ok });
    servers.push(s);
    const c = createClient(s.connectString, { sessionTimeout: 2000 });
    clients.push(c);
    const seen: string[] = [];
    const done = (async () => {
      for await (const change of c.states()) seen.push(`${change.previous}→${change.state}`);
    })();
    await c.connect();
    s.last?.close();
    await eventually(() => s.connections.length === 2 && c.state === 'connected', 3000, 'reconnect');
    await c.close();
    await done;
    expect(seen).toEqual(['idle→connecting', 'connecting→connected', 'connected→suspended', 'suspended→connected', 'connected→closed']);
  });

  it('publishes requests (tracing channel), events and states on diagnostics channels', async () => {
    const s = await FakeServer.start({
      onRequest: (conn, req) => {
        ok(conn, req);
        if (req.type === OpCode.exists) conn.notify(EventType.NodeCreated, '/app/x', 9n);
      },
    });
    servers.push(s);
    const got: Record<string, unknown[]> = { request: [], event: [], state: [] };
    const subs = ['event', 'state'].map((k) => {
      const fn = (m: unknown): void => void got[k]?.push(m);
      channel(`zkts:${k}`).subscribe(fn);
      return () => channel(`zkts:${k}`).unsubscribe(fn);
    });
    // A tracing channel's events are plain channels too: tracing:zkts:request:asyncEnd is each request's last.
    const onRequest = (m: unknown): void => void got.request?.push(m);
    tracingChannel('zkts:request').asyncEnd.subscribe(onRequest);
    subs.push(() => tracingChannel('zkts:request').asyncEnd.unsubscribe(onRequest));
    try {
      await using c = await createClient(`${s.connectString}/app`, { sessionTimeout: 2000 }).connect();
      const w = await c.exists('/x', { watch: true });
      expect(await w.watch).toEqual({ type: 'created', path: '/x', zxid: 9n });
      expect(got.request).toContainEqual(expect.objectContaining({ op: 'exists', path: '/app/x', xid: 1, result: null }));
      expect(got.event).toContainEqual(expect.objectContaining({ type: 'created', path: '/app/x', zxid: 9n }));
      expect(got.state).toContainEqual(expect.objectContaining({ to: 'connected', from: 'connecting' }));
    } finally {
      for (const off of subs) off();
    }
    // `await using` closed the client (closeSession went out).
    expect(s.requestsOf(OpCode.closeSession)).toHaveLength(1);
  });

  it('a listener that throws does not break later deliveries', async () => {
    const s = await FakeServer.start({
      onRequest: (conn, req) => {
        ok(conn, req);
        if (req.type === OpCode.exists) conn.notify(EventType.NodeCreated, '/x', 2n);
      },
    });
    servers.push(s);
    const c = createClient(s.connectString, { sessionTimeout: 2000 });
    clients.push(c);
    await c.connect();
    const changes: StateChange[] = [];
    c.onStateChange(() => {
      throw new Error('listener bug');
    });
    c.onStateChange((x) => changes.push(x));
    const w = await c.exists('/x', {
      watch: () => {
        throw new Error('watch listener bug');
      },
    });
    expect(w).toBeNull();
    const second = await c.exists('/x', { watch: true });
    expect(await second.watch).toMatchObject({ type: 'created' });
    s.last?.close();
    await eventually(() => changes.length >= 2, 3000, 'state changes');
  });
});

describe('read-only mode', () => {
  it('probes the other hosts with isro and moves to a read-write one (new session)', async () => {
    const ro = await FakeServer.start({ onConnect: () => ({ readOnly: true, sessionId: 0x70n }), onRequest: ok, isro: 'ro' });
    const rw = await FakeServer.start({ onConnect: () => ({ sessionId: 0x71n }), onRequest: ok, isro: 'rw' });
    servers.push(ro, rw);
    const c = createClient(`${ro.connectString},${rw.connectString}`, { sessionTimeout: 3000, shuffle: false, canBeReadOnly: true });
    clients.push(c);
    const states: string[] = [];
    c.onStateChange((x) => states.push(x.state));
    await c.connect();
    expect(c.state).toBe('connected-read-only');
    expect(c.sessionId).toBe(0x70n);
    await eventually(() => c.state === 'connected', 5000, 'read-write');
    expect(c.sessionId).toBe(0x71n);
    expect(rw.connections.some((x) => x.fourLetter)).toBe(true);
    const session = rw.connections.find((x) => !x.fourLetter);
    expect(session?.connect?.sessionId).toBe(0n);
    expect(states).toEqual(['connecting', 'connected-read-only', 'suspended', 'connected']);
  });
});
