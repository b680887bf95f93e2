// Credentials (options.auth, addAuth) on the wire, against the fake server: bad entries refused before any
// connection, a new session's credentials in the same write as its ConnectRequest, the state held at
// connecting/suspended (and the caller's requests held back) until every credential is answered, a refusal
// ending connect() with AuthFailedError, and on a re-attach the credentials sent only after the handshake
// answer. Orderings a real server cannot be made to show on demand (a slow auth reply, a refusal on
// reconnect) live here; the real-server checks are in test/integration/client-auth.test.ts.
import { describe, expect, it } from 'vitest';
import { AuthFailedError, ConnectionLossError, InvalidArgumentError, connect, createClient, type ClientOptions } from '../../src/index.js';
import { readAuthPacket } from '../../src/codec/records/auth.js';
import { OpCode, Xid } from '../../src/codec/records/constants.js';
import { readGetDataRequest } from '../../src/codec/records/node.js';
import { eventually, type FakeConnection, type ReceivedRequest } from '../support/fake-server.js';
import { answer, fakeSessions, recordStates } from '../support/fake-sessions.js';

const { fake, client } = fakeSessions();

/** Answers everything but auth packets, which wait in `held` until the test answers them. */
/** Answers every request but the credentials, which it keeps in `held`; with `replayedOnly`, only those of later connections. */
function holdingAuth(held: { conn: FakeConnection; req: ReceivedRequest }[], replayedOnly?: () => boolean) {
  return (conn: FakeConnection, req: ReceivedRequest): void => {
    if (req.type === OpCode.auth && (replayedOnly === undefined || replayedOnly())) held.push({ conn, req });
    else answer(conn, req);
  };
}

const schemeOf = (r: ReceivedRequest): string => readAuthPacket(r.reader()).scheme ?? '';

describe('options.auth is checked before anything is sent', () => {
  const cases: [string, unknown, string][] = [
    ['the auth field missing', [{ scheme: 'digest' }], 'auth[0].auth'],
    ['a number as the credential', [{ scheme: 'digest', auth: 'a:b' }, { scheme: 'digest', auth: 42 }], 'auth[1].auth'],
    ['an empty scheme', [{ scheme: '', auth: 'a:b' }], 'auth[0].scheme'],
    ['no scheme', [{ auth: 'a:b' }], 'auth[0].scheme'],
    ['a string for an entry', ['digest:a:b'], 'auth[0]'],
    ['an object for the list', { scheme: 'digest', auth: 'a:b' }, 'auth'],
  ];
  for (const [what, auth, argument] of cases) {
    it(`createClient throws at once on ${what} (${argument})`, () => {
      let thrown: unknown;
      try {
        createClient('127.0.0.1:1', { auth } as unknown as ClientOptions);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(InvalidArgumentError);
      expect(thrown).toMatchObject({ code: 'INVALID_ARGUMENT', argument });
      expect((thrown as Error).message).toContain(argument);
    });
  }

  it('names the value (its kind only for the secret) and the scheme', () => {
    expect(() => createClient('127.0.0.1:1', { auth: [{ scheme: 'digest' }] } as unknown as ClientOptions)).toThrow(
      'invalid auth[0].auth: the credential for scheme "digest" must be a string or a Uint8Array, got undefined',
    );
    expect(() => createClient('127.0.0.1:1', { auth: [{ scheme: 7, auth: 'x' }] } as unknown as ClientOptions)).toThrow('got a number');
    expect(() => createClient('127.0.0.1:1', { auth: [{ scheme: 'digest', auth: 'a'.repeat(200) }], maxPacket: 100 })).toThrow(/auth\[0\]\.auth.*200 bytes/);
  });

  it('connect() rejects within one event-loop turn and dials nobody', async () => {
    const s = await fake({ onRequest: answer });
    let settled = false;
    const p = connect(s.connectString, { auth: [{ scheme: 'digest' }] } as unknown as ClientOptions).then(
      () => 'resolved',
      (err: unknown) => err,
    );
    void p.then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(true);
    expect(await p).toBeInstanceOf(InvalidArgumentError);
    expect(s.connections).toHaveLength(0);
  });

  it('accepts strings and Uint8Arrays', async () => {
    const s = await fake({ onRequest: answer });
    const c = client(s.connectString, { auth: [{ scheme: 'digest', auth: 'a:b' }, { scheme: 'digest', auth: new TextEncoder().encode('c:d') }] });
    await c.connect();
    expect(s.requestsOf(OpCode.auth).map(schemeOf)).toEqual(['digest', 'digest']);
  });
});

describe('a new session: connected only once the credentials are answered', () => {
  it('sends the credentials behind the ConnectRequest before the handshake is answered', async () => {
    const held: { conn: FakeConnection; req: ReceivedRequest }[] = [];
    const s = await fake({ onConnect: () => 'silent', onRequest: holdingAuth(held) });
    const c = client(s.connectString, { auth: [{ scheme: 'digest', auth: 'u:p' }, { scheme: 'ip', auth: '127.0.0.1' }] });
    const connecting = c.connect();
    await eventually(() => (s.last?.log.length ?? 0) >= 3, 2000, 'connect + two auth packets');
    const conn = s.last as FakeConnection;
    expect(conn.log.map((l) => [l.type, l.xid])).toEqual([
      [OpCode.createSession, 0],
      [OpCode.auth, Xid.AUTH],
      [OpCode.auth, Xid.AUTH],
    ]);
    expect(c.state).toBe('connecting');
    conn.sendHandshake({}, conn.connect!);
    // Answered in order behind the handshake, as a server does once it has read them.
    for (const h of held) h.conn.reply(Xid.AUTH);
    await connecting;
    expect(c.state).toBe('connected');
  });

  it('holds the state at connecting and the queued requests back until the last auth reply', async () => {
    const held: { conn: FakeConnection; req: ReceivedRequest }[] = [];
    const s = await fake({ onRequest: holdingAuth(held) });
    const c = client(s.connectString, { auth: [{ scheme: 'digest', auth: 'u:p' }, { scheme: 'digest', auth: 'v:q' }] });
    const states = recordStates(c);
    let connected = false;
    const connecting = c.connect().then(() => (connected = true));
    const early = c.getData('/early');
    await eventually(() => held.length === 2, 2000, 'both auth packets');
    // The handshake is answered; the credentials are not.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(c.state).toBe('connecting');
    expect(connected).toBe(false);
    expect(s.requestsOf(OpCode.getData)).toHaveLength(0);
    held[0]!.conn.reply(Xid.AUTH);
    await eventually(() => c.state === 'connected' || s.requestsOf(OpCode.getData).length > 0, 200, 'anything').catch(() => undefined);
    expect(c.state).toBe('connecting');
    expect(s.requestsOf(OpCode.getData)).toHaveLength(0);
    held[1]!.conn.reply(Xid.AUTH);
    await connecting;
    await early;
    expect(states.map((x) => x.state)).toEqual(['connecting', 'connected']);
    const log = s.last!.log.map((l) => l.type);
    expect(log.slice(0, 4)).toEqual([OpCode.createSession, OpCode.auth, OpCode.auth, OpCode.getData]);
  });

  it('a refused credential rejects connect() with AuthFailedError naming the scheme; queued requests too, no second attempt', async () => {
    const s = await fake({
      onRequest: (conn, req) => {
        if (req.type === OpCode.auth && schemeOf(req) === 'digets') {
          conn.reply(Xid.AUTH, { err: -115 });
          setTimeout(() => conn.close(), 5);
        } else answer(conn, req);
      },
    });
    const c = client(s.connectString, { auth: [{ scheme: 'digest', auth: 'u:p' }, { scheme: 'digets', auth: 'a:b' }] });
    const states = recordStates(c);
    const connecting = c.connect().catch((e: unknown) => e);
    const early = c.getData('/early').catch((e: unknown) => e);
    const error = await connecting;
    expect(error).toBeInstanceOf(AuthFailedError);
    expect((error as Error).message).toContain('"digets"');
    expect((error as Error).cause).toMatchObject({ code: 'AUTH_FAILED' });
    expect(await early).toBe(error);
    expect(states.map((x) => x.state).slice(0, 2)).toEqual(['connecting', 'auth-failed']);
    expect(s.connections).toHaveLength(1);
    expect(s.requestsOf(OpCode.getData)).toHaveLength(0);
  });

  it('addAuth while the credentials are being answered goes on the same connection and is waited for too', async () => {
    const held: { conn: FakeConnection; req: ReceivedRequest }[] = [];
    const s = await fake({ onRequest: holdingAuth(held) });
    const c = client(s.connectString, { auth: [{ scheme: 'digest', auth: 'u:p' }] });
    const connecting = c.connect();
    await eventually(() => held.length === 1 && s.last?.connect !== undefined, 2000, 'first auth packet');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const added = c.addAuth('digest', 'later:pw');
    await eventually(() => held.length === 2, 2000, 'the added credential');
    expect(schemeOf(held[1]!.req)).toBe('digest');
    held[0]!.conn.reply(Xid.AUTH);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(c.state).toBe('connecting');
    held[1]!.conn.reply(Xid.AUTH);
    await connecting;
    await added;
    expect(s.connections).toHaveLength(1);
  });
});

describe('a re-attach: credentials after the handshake answer, suspended until they are answered', () => {
  it('replays behind the handshake answer and reports connected only after the auth reply', async () => {
    const held: { conn: FakeConnection; req: ReceivedRequest }[] = [];
    const s = await fake({
      onRequest: holdingAuth(held, () => s.connections.length > 1),
    });
    const c = client(s.connectString, { auth: [{ scheme: 'digest', auth: 'u:p' }] });
    await c.connect();
    await c.getData('/w', { watch: true });
    const states = recordStates(c);
    s.connections[0]!.close();
    await eventually(() => c.state === 'suspended', 2000, 'suspended');
    const queued = c.getData('/queued');
    await eventually(() => held.length === 1, 3000, 'replayed credential');
    const conn = s.connections[1]!;
    expect(conn.connect?.sessionId).toBe(0x1234n);
    // Nothing but the ConnectRequest left before the handshake was answered; then the credential, then nothing.
    expect(conn.log.map((l) => l.type)).toEqual([OpCode.createSession, OpCode.auth]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(c.state).toBe('suspended');
    expect(conn.log.map((l) => l.type)).toEqual([OpCode.createSession, OpCode.auth]);
    held[0]!.conn.reply(Xid.AUTH);
    await queued;
    expect(c.state).toBe('connected');
    expect(states.map((x) => x.state)).toEqual(['suspended', 'connected']);
    expect(conn.log.map((l) => l.type).slice(0, 4)).toEqual([OpCode.createSession, OpCode.auth, OpCode.setWatches, OpCode.getData]);
    expect(readGetDataRequest(conn.requests[2]!.reader()).path).toBe('/queued');
  });

  it('a re-attach answered "expired": the renewal opens a new session with the credentials behind its ConnectRequest', async () => {
    const held: { conn: FakeConnection; req: ReceivedRequest }[] = [];
    const s = await fake({
      onConnect: (_conn, request) => {
        if (request.sessionId !== 0n) return { timeOut: 0 };
        return s.connections.length === 1 ? {} : 'silent';
      },
      onRequest: holdingAuth(held),
    });
    const c = client(s.connectString, { auth: [{ scheme: 'digest', auth: 'u:p' }] });
    const connecting = c.connect();
    await eventually(() => held.length === 1, 2000, 'first credential');
    held[0]!.conn.reply(Xid.AUTH);
    await connecting;
    const states = recordStates(c);
    s.connections[0]!.close();
    // Connection 2 re-attaches and hears "expired"; connection 3 is the new session, not answered yet.
    await eventually(() => s.connections.length === 3 && held.length === 2, 3000, 'the renewal and its credential');
    const renewal = s.connections[2]!;
    expect(renewal.connect?.sessionId).toBe(0n);
    expect(renewal.log.map((l) => l.type)).toEqual([OpCode.createSession, OpCode.auth]);
    expect(s.connections[1]!.log.map((l) => l.type)).toEqual([OpCode.createSession]);
    renewal.sendHandshake({ sessionId: 0x77n }, renewal.connect!);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(c.state).toBe('connecting');
    held[1]!.conn.reply(Xid.AUTH);
    await eventually(() => c.state === 'connected', 2000, 'connected');
    expect(c.sessionId).toBe(0x77n);
    expect(states.map((x) => x.state)).toEqual(['suspended', 'expired', 'connecting', 'connected']);
  });

  it('a credential refused on reconnect ends the session in auth-failed; queued requests fail with it', async () => {
    const held: { conn: FakeConnection; req: ReceivedRequest }[] = [];
    const s = await fake({
      onRequest: holdingAuth(held, () => s.connections.length > 1),
    });
    const c = client(s.connectString, { auth: [{ scheme: 'digest', auth: 'u:p' }] });
    await c.connect();
    const states = recordStates(c);
    s.connections[0]!.close();
    await eventually(() => c.state === 'suspended', 2000, 'suspended');
    const queued = c.getData('/queued').catch((e: unknown) => e);
    await eventually(() => held.length === 1, 3000, 'replayed credential');
    held[0]!.conn.reply(Xid.AUTH, { err: -115 });
    setTimeout(() => held[0]!.conn.close(), 5);
    const error = await queued;
    expect(error).toBeInstanceOf(AuthFailedError);
    expect(error).not.toBeInstanceOf(ConnectionLossError);
    expect(states.map((x) => x.state)).toEqual(['suspended', 'auth-failed']);
    expect(s.requestsOf(OpCode.getData)).toHaveLength(0);
    await expect(c.connected()).rejects.toBe(error);
  });
});

describe('a session with no credential until addAuth', () => {
  it('addAuth while connected leaves on the open connection at once and resolves with its reply', async () => {
    const held: { conn: FakeConnection; req: ReceivedRequest }[] = [];
    const s = await fake({ onRequest: holdingAuth(held) });
    const c = client(s.connectString);
    await c.connect();
    let resolved = false;
    const added = c.addAuth('digest', 'later:pw').then(() => (resolved = true));
    await eventually(() => held.length === 1, 2000, 'the added credential');
    expect(held[0]!.conn).toBe(s.connections[0]);
    expect(schemeOf(held[0]!.req)).toBe('digest');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(resolved).toBe(false);
    held[0]!.conn.reply(Xid.AUTH);
    await added;
    expect(s.connections).toHaveLength(1);
    expect(c.state).toBe('connected');
  });

  it('addAuth before the handshake is answered: connected only once the credential is answered, on that connection', async () => {
    const held: { conn: FakeConnection; req: ReceivedRequest }[] = [];
    const s = await fake({ onConnect: () => 'silent', onRequest: holdingAuth(held) });
    const c = client(s.connectString);
    const connecting = c.connect();
    await eventually(() => s.last?.connect !== undefined, 2000, 'the ConnectRequest');
    const conn = s.last as FakeConnection;
    const added = c.addAuth('digest', 'early:pw');
    conn.sendHandshake({}, conn.connect!);
    await eventually(() => held.length === 1, 2000, 'the credential');
    expect(conn.log.map((l) => l.type)).toEqual([OpCode.createSession, OpCode.auth]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(c.state).toBe('connecting');
    held[0]!.conn.reply(Xid.AUTH);
    await connecting;
    await added;
    expect(c.state).toBe('connected');
    expect(s.connections).toHaveLength(1);
  });

  it('a credential added while connected is replayed behind the handshake answer of the next connection', async () => {
    const held: { conn: FakeConnection; req: ReceivedRequest }[] = [];
    const s = await fake({ onRequest: holdingAuth(held, () => s.connections.length > 1) });
    const c = client(s.connectString);
    await c.connect();
    await c.addAuth('digest', 'u:p');
    s.connections[0]!.close();
    await eventually(() => held.length === 1, 3000, 'the replayed credential');
    const conn = s.connections[1]!;
    expect(conn.log.map((l) => l.type)).toEqual([OpCode.createSession, OpCode.auth]);
    expect(c.state).toBe('suspended');
    held[0]!.conn.reply(Xid.AUTH);
    await eventually(() => c.state === 'connected', 2000, 'connected again');
  });
});
