// The client's diagnostics channels against the wire-level fake: each message's payload and the order of the
// events (zkts:request's tracing events, zkts:connection, zkts:session, zkts:auth, zkts:state, zkts:event).
import { channel, tracingChannel } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { ChannelNames, createClient, exponentialBackoff, ZkError, type RequestTrace, type ZkClient } from '../../src/index.js';
import { EventType, OpCode } from '../../src/codec/records/constants.js';
import { FakeServer, eventually, type FakeConnection, type ReceivedRequest } from '../support/fake-server.js';

const servers: FakeServer[] = [];
const clients: ZkClient[] = [];
const stops: (() => void)[] = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) await s.close();
});

async function fake(onRequest: (conn: FakeConnection, req: ReceivedRequest) => void, options: Parameters<typeof FakeServer.start>[0] = {}): Promise<FakeServer> {
  const s = await FakeServer.start({ onRequest, ...options });
  servers.push(s);
  return s;
}

function client(connectString: string, options: Parameters<typeof createClient>[1] = {}): ZkClient {
  const c = createClient(connectString, { sessionTimeout: 3000, reconnectDelay: { min: 5, max: 5 }, ...options });
  clients.push(c);
  return c;
}

interface TraceEvent {
  event: 'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error';
  context: RequestTrace;
  /** The context's fields as they were when the event was published. */
  seen: RequestTrace;
}

/** Every zkts:request event from now on (until the test ends). */
function traces(): TraceEvent[] {
  const out: TraceEvent[] = [];
  const at = (event: TraceEvent['event']) => (m: unknown) => void out.push({ event, context: m as RequestTrace, seen: { ...(m as RequestTrace) } });
  const handlers = { start: at('start'), end: at('end'), asyncStart: at('asyncStart'), asyncEnd: at('asyncEnd'), error: at('error') };
  const tc = tracingChannel(ChannelNames.request);
  tc.subscribe(handlers);
  stops.push(() => tc.unsubscribe(handlers));
  return out;
}

/** Every message of the plain channel `name` from now on. */
function messages<T>(name: string): T[] {
  const out: T[] = [];
  const fn = (m: unknown): void => void out.push(m as T);
  channel(name).subscribe(fn);
  stops.push(() => channel(name).unsubscribe(fn));
  return out;
}

const answer = (conn: FakeConnection, req: ReceivedRequest, err = 0): void => conn.reply(req.xid, { zxid: 5n, err });

describe('zkts:request', () => {
  it('one trace per request: start, end, asyncStart, asyncEnd on one context, filled in as the request goes', async () => {
    const s = await fake((conn, req) => answer(conn, req, req.type === OpCode.exists ? -101 : 0));
    const c = await client(`${s.connectString}/app`).connect();
    const got = traces();
    expect(await c.exists('/x')).toBeNull();
    expect(got.map((e) => e.event)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    const context = got[0]?.context;
    expect(got.every((e) => e.context === context)).toBe(true);
    // At start: nothing written yet. The path is the server's (chroot applied).
    expect(got[0]?.seen).toEqual({
      op: 'exists',
      path: '/app/x',
      sessionId: 0x1234n,
      xid: -1,
      server: undefined,
      bytesOut: 0,
      bytesIn: 0,
      attempt: 1,
      retried: false,
      ops: undefined,
      errorCode: undefined,
    });
    // ExistsRequest: length 4 + header 8 + path (4 + 6) + watch 1; the NO_NODE reply: length 4 + header 16.
    expect(got[3]?.seen).toEqual({ ...got[0]?.seen, xid: 1, server: s.connectString, bytesOut: 23, bytesIn: 20, result: null });
  });

  it('a failure: error (errorCode, error) before asyncStart; create2 is create, a container create createContainer', async () => {
    const s = await fake((conn, req) => answer(conn, req, -110));
    const c = await client(s.connectString).connect();
    const got = traces();
    await expect(c.create('/x', 'v')).rejects.toMatchObject({ code: 'NODE_EXISTS' });
    expect(s.requestsOf(OpCode.create2)).toHaveLength(1);
    expect(got.map((e) => e.event)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    const failed = got[2]?.seen;
    expect(failed).toMatchObject({ op: 'create', path: '/x', errorCode: 'NODE_EXISTS' });
    expect(failed?.error).toBeInstanceOf(ZkError);
    expect('result' in (failed ?? {})).toBe(false);
    await expect(c.create('/y', 'v', { mode: 'container' })).rejects.toMatchObject({ code: 'NODE_EXISTS' });
    expect(got[7]?.seen).toMatchObject({ op: 'createContainer', path: '/y', errorCode: 'NODE_EXISTS' });
  });

  it('multi carries its sub-operations; getChildren2 is getChildren', async () => {
    const s = await fake((conn, req) => answer(conn, req, req.type === OpCode.multi ? -101 : -101));
    const c = await client(s.connectString).connect();
    const got = traces();
    const ops = [
      { op: 'create' as const, path: '/a', mode: 'persistent-sequential' as const },
      { op: 'setData' as const, path: '/b', data: 'x' },
      { op: 'check' as const, path: '/c', version: 1 },
      { op: 'delete' as const, path: '/d' },
    ];
    await expect(c.multi(ops)).rejects.toBeInstanceOf(ZkError);
    await expect(c.getChildren('/e')).rejects.toMatchObject({ code: 'NO_NODE' });
    const ends = got.filter((e) => e.event === 'asyncEnd').map((e) => e.seen);
    expect(ends.map((t) => [t.op, t.path, t.ops])).toEqual([
      ['multi', undefined, ['create', 'setData', 'check', 'delete']],
      ['getChildren', '/e', undefined],
    ]);
  });

  it('a request refused at once publishes end before its outcome (the order never varies)', async () => {
    const c = client('127.0.0.1:1');
    const got = traces();
    await expect(c.getData('/x')).rejects.toMatchObject({ code: 'CONNECTION_LOSS' });
    const aborted = new AbortController();
    aborted.abort();
    await expect(c.getData('/y', { signal: aborted.signal })).rejects.toMatchObject({ code: 'ABORTED' });
    expect(got.map((e) => `${e.event}:${e.seen.path}`)).toEqual([
      'start:/x', 'end:/x', 'error:/x', 'asyncStart:/x', 'asyncEnd:/x',
      'start:/y', 'end:/y', 'error:/y', 'asyncStart:/y', 'asyncEnd:/y',
    ]);
    expect(got.map((e) => e.seen.errorCode).filter((code) => code !== undefined)).toEqual(['CONNECTION_LOSS', 'CONNECTION_LOSS', 'CONNECTION_LOSS', 'ABORTED', 'ABORTED', 'ABORTED']);
  });

  it('a timed-out request ends its trace when the caller hears the timeout, not when the late reply comes', async () => {
    const held: { conn: FakeConnection; req: ReceivedRequest }[] = [];
    const s = await fake((conn, req) => (req.type === OpCode.getData ? held.push({ conn, req }) : answer(conn, req, -101)));
    const c = await client(s.connectString).connect();
    const got = traces();
    await expect(c.getData('/slow', { timeout: 50 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(got.map((e) => e.event)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    expect(got[4]?.seen).toMatchObject({ errorCode: 'TIMEOUT', xid: 1, bytesIn: 0 });
    const late = held[0];
    late?.conn.reply(late.req.xid, { err: -101 });
    expect(await c.exists('/after')).not.toBeUndefined();
    expect(got[0]?.context.bytesIn).toBe(0);
    expect(got.filter((e) => e.context === got[0]?.context)).toHaveLength(5);
  });

  it("each try of a retried read is its own trace: attempt 2 is retried, and the session's own requests are not traced", async () => {
    let gets = 0;
    const s = await fake((conn, req) => {
      if (req.type === OpCode.getData && ++gets === 1) conn.close();
      else if (req.type === OpCode.getData) answer(conn, req, -101);
      else if (req.type === OpCode.exists) answer(conn, req, -101);
      else if (req.type === OpCode.setWatches) answer(conn, req);
    });
    const c = await client(s.connectString).connect();
    // A watch, so the reconnect sends SetWatches (the session's own request).
    await c.exists('/w', { watch: () => undefined });
    const got = traces();
    const retry = exponentialBackoff({ baseDelay: 1, jitter: false });
    await expect(c.getData('/x', { retry })).rejects.toMatchObject({ code: 'NO_NODE' });
    await c.close();
    expect(s.requestsOf(OpCode.setWatches)).toHaveLength(1);
    const ends = got.filter((e) => e.event === 'asyncEnd').map((e) => e.seen);
    expect(ends.map((t) => [t.op, t.attempt, t.retried, t.errorCode])).toEqual([
      ['getData', 1, false, 'CONNECTION_LOSS'],
      ['getData', 2, true, 'NO_NODE'],
    ]);
    expect(new Set(got.map((e) => e.seen.op))).toEqual(new Set(['getData']));
  });

  it('a guaranteed delete repeated after a lost reply: its second try is attempt 2', async () => {
    let deletes = 0;
    const s = await fake((conn, req) => {
      if (req.type === OpCode.delete && ++deletes === 1) conn.close();
      else answer(conn, req);
    });
    const c = await client(s.connectString).connect();
    const got = traces();
    await c.delete('/x', { guaranteed: true });
    const ends = got.filter((e) => e.event === 'asyncEnd').map((e) => [e.seen.op, e.seen.attempt, e.seen.retried, e.seen.errorCode]);
    expect(ends).toEqual([
      ['delete', 1, false, 'CONNECTION_LOSS'],
      ['delete', 2, true, undefined],
    ]);
  });

  it('getACL leaves its result (ACL ids may be digest hashes) out of the trace', async () => {
    const s = await fake((conn, req) => answer(conn, req, -101));
    const c = await client(s.connectString).connect();
    const got = traces();
    await expect(c.getACL('/x')).rejects.toMatchObject({ code: 'NO_NODE' });
    expect(got[4]?.seen).toMatchObject({ op: 'getACL', errorCode: 'NO_NODE' });
  });
});

describe('zkts:state, zkts:connection, zkts:session', () => {
  it('the connection story of a first connect through a dead host, a lost connection and a reconnect, in order', async () => {
    const s = await fake(answer);
    const c = client(`127.0.0.1:1,${s.connectString}`, { shuffle: false });
    const conns = messages<Record<string, unknown>>(ChannelNames.connection);
    const states = messages<Record<string, unknown>>(ChannelNames.state);
    await c.connect();
    s.last?.close();
    await eventually(() => s.connections.length === 2 && c.state === 'connected', 3000, 'reconnect');
    const dead = '127.0.0.1:1';
    const live = s.connectString;
    // The channels are the process's: clients of earlier tests may still be closing.
    conns.splice(0, conns.length, ...conns.filter((m) => m.server === dead || m.server === live));
    // After the loss the round-robin goes on from the live host: the dead one first (after the drop's delay).
    expect(conns.map((m) => [m.event, m.server, m.sessionId, m.reason, m.delayMs])).toEqual([
      ['dialing', dead, 0n, 'first', 0],
      ['dial-failed', dead, 0n, undefined, undefined],
      ['dialing', live, 0n, 'cycle', 0],
      ['connected', live, 0x1234n, undefined, undefined],
      ['closed', live, 0x1234n, undefined, undefined],
      ['dialing', dead, 0x1234n, 'lost', 5],
      ['dial-failed', dead, 0x1234n, undefined, undefined],
      ['dialing', live, 0x1234n, 'cycle', 0],
      ['connected', live, 0x1234n, undefined, undefined],
    ]);
    expect(conns[1]?.cause).toMatchObject({ code: 'CONNECTION_LOSS', message: expect.stringContaining(dead) });
    expect(conns[4]?.cause).toEqual({ code: 'CONNECTION_LOSS', message: 'connection closed by server' });
    expect(states.map((m) => `${m.from}→${m.to}`)).toEqual(['idle→connecting', 'connecting→connected', 'connected→suspended', 'suspended→connected']);
    expect(states[2]).toEqual({ sessionId: 0x1234n, from: 'connected', to: 'suspended', cause: { code: 'CONNECTION_LOSS', message: 'connection closed by server' } });
    expect('cause' in (states[1] ?? {})).toBe(false);
  });

  it('established, expired (the server says so at the re-attach), renewed with the previous id, closed', async () => {
    let next = 0x50n;
    const s = await fake(answer, { onConnect: (_conn, req) => (req.sessionId === 0n ? { sessionId: next++ } : { timeOut: 0 }) });
    const c = client(s.connectString);
    const sessions = messages<Record<string, unknown>>(ChannelNames.session);
    const conns = messages<Record<string, unknown>>(ChannelNames.connection);
    await c.connect();
    s.last?.close();
    await eventually(() => c.sessionId === 0x51n && c.state === 'connected', 3000, 'renewal');
    await c.close();
    sessions.splice(0, sessions.length, ...sessions.filter((m) => m.sessionId === 0x50n || m.sessionId === 0x51n));
    conns.splice(0, conns.length, ...conns.filter((m) => m.server === s.connectString));
    expect(sessions).toEqual([
      { event: 'established', sessionId: 0x50n, timeoutMs: 3000 },
      { event: 'expired', sessionId: 0x50n, timeoutMs: 3000 },
      { event: 'renewed', sessionId: 0x51n, previousSessionId: 0x50n, timeoutMs: 3000 },
      { event: 'closed', sessionId: 0x51n },
    ]);
    // The dial after the expiry says so; the expired handshake's connection closes with the expiry.
    expect(conns.filter((m) => m.event === 'dialing').map((m) => m.reason)).toEqual(['first', 'lost', 'expired']);
    expect(conns.find((m) => (m.cause as { code?: string } | undefined)?.code === 'SESSION_EXPIRED')).toMatchObject({ event: 'closed', sessionId: 0x50n });
  });
});

describe('zkts:auth and zkts:event', () => {
  it('each credential answered: its scheme and outcome, never the credential', async () => {
    const s = await fake((conn, req) => (req.type === OpCode.auth ? conn.reply(-4, { err: req.body.includes(0x21) ? -115 : 0 }) : answer(conn, req)));
    const c = client(s.connectString, { auth: [{ scheme: 'digest', auth: 'alice:s3cret' }] });
    const auth = messages<Record<string, unknown>>(ChannelNames.auth);
    await c.connect();
    await expect(c.addAuth('digest', 'bob:wrong!')).rejects.toMatchObject({ code: 'AUTH_FAILED' });
    expect(auth).toEqual([
      { sessionId: 0x1234n, scheme: 'digest', outcome: 'ok', server: s.connectString },
      { sessionId: 0x1234n, scheme: 'digest', outcome: 'failed', server: s.connectString, cause: { code: 'AUTH_FAILED', message: expect.any(String) } },
    ]);
    expect(JSON.stringify(auth, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).not.toMatch(/s3cret|wrong!|alice|bob/);
  });

  it('a watch event is published as its listener is called, with the delay since its frame arrived', async () => {
    const s = await fake((conn, req) => {
      answer(conn, req, -101);
      if (req.type === OpCode.exists) conn.notify(EventType.NodeCreated, '/app/x', 9n);
    });
    const c = await client(`${s.connectString}/app`).connect();
    const order: string[] = [];
    const events = messages<Record<string, unknown>>(ChannelNames.event);
    const published = (): void => void order.push('published');
    channel(ChannelNames.event).subscribe(published);
    stops.push(() => channel(ChannelNames.event).unsubscribe(published));
    await c.exists('/x', { watch: () => order.push('listener') });
    await eventually(() => order.includes('listener'), 2000, 'the watch');
    expect(order).toEqual(['published', 'listener']);
    expect(events).toEqual([{ sessionId: 0x1234n, type: 'created', path: '/app/x', zxid: 9n, deliveryDelayMs: expect.any(Number) }]);
    expect(events[0]?.deliveryDelayMs).toBeGreaterThanOrEqual(0);
  });
});
