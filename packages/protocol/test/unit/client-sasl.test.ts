// The SASL step on the wire, against the fake server: the exchange comes right after the handshake and before
// anything else (credentials, SetWatches, queued requests, pings), the state reaches `connected` only after it,
// it is replayed on every connection, and each way it can fail ends the session once, with a typed error and no
// reconnect storm. A scripted mechanism stands in for DIGEST-MD5 (real servers: test/integration/sasl-*.ts).
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthFailedError,
  SessionClosedRequireSaslAuthError,
  createClient,
  type ClientOptions,
  type SaslMechanism,
  type StateChange,
  type ZkClient,
} from '../../src/index.js';
import { readGetSASLRequest, writeSetSASLResponse } from '../../src/codec/records/auth.js';
import { OpCode, Xid } from '../../src/codec/records/constants.js';
import { writeGetDataResponse } from '../../src/codec/records/node.js';
import { FakeServer, eventually, type FakeConnection, type FakeServerOptions, type ReceivedRequest } from '../support/fake-server.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array | null): string => (b === null ? '<null>' : new TextDecoder().decode(b));
const STAT = { czxid: 1n, mzxid: 1n, ctime: 0n, mtime: 0n, version: 0, cversion: 0, aversion: 0, ephemeralOwner: 0n, dataLength: 1, numChildren: 0, pzxid: 1n };

/** Two round trips: 'hello' → 'challenge' → 'proof' → 'welcome' (complete). Counts its exchanges. */
function scripted(log: string[] = []): SaslMechanism & { started: number } {
  const mechanism = {
    name: 'TEST',
    started: 0,
    start: (server: { host: string; port: number }) => {
      mechanism.started++;
      log.push(`start ${server.host}`);
      let done = false;
      return {
        initial: () => enc('hello'),
        evaluate: (challenge: Uint8Array) => {
          const text = dec(challenge);
          log.push(`evaluate ${text}`);
          if (text === 'challenge') return enc('proof');
          if (text === 'welcome') {
            done = true;
            return null;
          }
          throw new Error(`unexpected ${text}`);
        },
        get complete() {
          return done;
        },
        dispose: () => log.push('dispose'),
      };
    },
  };
  return mechanism;
}

/** The server side of the script, with a hook to answer differently. */
function saslServer(conn: FakeConnection, req: ReceivedRequest): void {
  const token = dec(readGetSASLRequest(req.reader()).token);
  const answerWith = (t: string): void => conn.reply(req.xid, { body: (w) => writeSetSASLResponse(w, { token: enc(t) }) });
  if (token === 'hello') answerWith('challenge');
  else if (token === 'proof') answerWith('welcome');
  else conn.reply(req.xid, { err: -115 });
}

function answer(conn: FakeConnection, req: ReceivedRequest): void {
  if (req.type === OpCode.sasl) saslServer(conn, req);
  else if (req.type === OpCode.auth) conn.reply(Xid.AUTH);
  else if (req.type === OpCode.getData) conn.reply(req.xid, { zxid: 5n, body: (w) => writeGetDataResponse(w, { data: enc('v'), stat: STAT }) });
  else if (req.type === OpCode.exists) conn.reply(req.xid, { zxid: 5n, err: -101 });
  else conn.reply(req.xid, { zxid: 5n });
}

const servers: FakeServer[] = [];
const clients: ZkClient[] = [];

async function fake(options: FakeServerOptions): Promise<FakeServer> {
  const s = await FakeServer.start(options);
  servers.push(s);
  return s;
}

function client(s: FakeServer, options: ClientOptions = {}): ZkClient {
  const c = createClient(s.connectString, { sessionTimeout: 3000, shuffle: false, ...options });
  clients.push(c);
  return c;
}

function states(c: ZkClient): string[] {
  const out: string[] = [];
  c.onStateChange((change: StateChange) => out.push(change.state));
  return out;
}

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) await s.close();
});

describe('SASL on the wire', () => {
  it('comes right after the handshake, before credentials, SetWatches and queued requests; connected only after it', async () => {
    let release: (() => void) | undefined;
    const s = await fake({
      onRequest: (conn, req) => {
        // The first connection's last SASL answer waits until the test lets it go.
        if (req.type === OpCode.sasl && conn === s.connections[0] && dec(readGetSASLRequest(req.reader()).token) === 'proof') {
          release = () => saslServer(conn, req);
          return;
        }
        answer(conn, req);
      },
    });
    const log: string[] = [];
    const mechanism = scripted(log);
    const c = client(s, { sasl: { mechanism }, auth: [{ scheme: 'digest', auth: 'u:p' }] });
    const seen = states(c);
    const connecting = c.connect();
    const early = c.getData('/early');
    await eventually(() => release !== undefined, 3000, 'the second SASL token');
    // The server has answered the handshake, but the session is not connected and nothing else left.
    expect(c.state).toBe('connecting');
    expect(s.connections[0]!.log.map((l) => l.type)).toEqual([OpCode.createSession, OpCode.sasl, OpCode.sasl]);
    release?.();
    await connecting;
    expect(dec((await early).data)).toBe('v');
    const first = s.connections[0]!;
    expect(first.log.map((l) => l.type)).toEqual([OpCode.createSession, OpCode.sasl, OpCode.sasl, OpCode.auth, OpCode.getData]);
    // SASL tokens are ordinary requests with increasing xids (the auth packet keeps its -4).
    expect(first.log.slice(1, 3).map((l) => l.xid)).toEqual([1, 2]);
    expect(seen).toEqual(['connecting', 'connected']);
    expect(log).toEqual(['start 127.0.0.1', 'evaluate challenge', 'evaluate welcome', 'dispose']);

    // A watch to replay, then the connection drops: the next one authenticates again, first.
    await c.exists('/w', { watch: true });
    first.close();
    await eventually(() => s.connections.length === 2 && c.state === 'connected', 3000, 'reconnect');
    await c.getData('/after');
    expect(s.connections[1]!.log.map((l) => l.type)).toEqual([
      OpCode.createSession,
      OpCode.sasl,
      OpCode.sasl,
      OpCode.auth,
      OpCode.setWatches,
      OpCode.getData,
    ]);
    expect(s.connections[1]!.connect?.sessionId).toBe(c.sessionId);
    expect(mechanism.started).toBe(2);
    expect(seen).toEqual(['connecting', 'connected', 'suspended', 'connected']);
  });

  it('sends no ping while the exchange waits for the server', async () => {
    let release: (() => void) | undefined;
    const s = await fake({
      onRequest: (conn, req) => {
        if (req.type === OpCode.sasl && release === undefined) {
          release = () => saslServer(conn, req);
          return;
        }
        answer(conn, req);
      },
    });
    // 3 s negotiated: a ping is due after 1 s of silence, the read timeout after 2 s.
    const c = client(s, { sasl: { mechanism: scripted() } });
    const connecting = c.connect();
    await eventually(() => release !== undefined, 3000, 'the first SASL token');
    await new Promise((r) => setTimeout(r, 1400));
    expect(s.connections[0]!.log.filter((l) => l.xid === Xid.PING)).toHaveLength(0);
    release?.();
    await connecting;
    expect(c.state).toBe('connected');
  });

  it('a server that rejects the exchange (-115): auth-failed with AuthFailedError, connect() rejects, no second attempt', async () => {
    const s = await fake({ onRequest: (conn, req) => (req.type === OpCode.sasl ? conn.reply(req.xid, { err: -115 }) : answer(conn, req)) });
    const c = client(s, { sasl: { mechanism: scripted() } });
    const seen = states(c);
    const started = Date.now();
    const error = await c.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthFailedError);
    expect((error as Error).message).toMatch(/SASL TEST: the server rejected/);
    expect((error as Error & { cause: { keeperCode: number } }).cause.keeperCode).toBe(-115);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(seen).toEqual(['connecting', 'auth-failed', 'closed']);
    await new Promise((r) => setTimeout(r, 300));
    expect(s.connections).toHaveLength(1);
    await expect(c.getData('/x')).rejects.toBeInstanceOf(AuthFailedError);
  });

  it('a mechanism that throws (no ticket, bad server proof…) ends the session with the throw as cause', async () => {
    const s = await fake({ onRequest: answer });
    const broken: SaslMechanism = {
      name: 'BROKEN',
      start: () => ({
        initial: () => enc('hello'),
        evaluate: () => {
          throw new Error('no credentials in the cache');
        },
        complete: false,
      }),
    };
    const c = client(s, { sasl: { mechanism: broken } });
    const error = (await c.connect().catch((e: unknown) => e)) as AuthFailedError;
    expect(error).toBeInstanceOf(AuthFailedError);
    expect(error.message).toBe('SASL BROKEN failed on the client: no credentials in the cache');
    expect((error.cause as Error).message).toBe('no credentials in the cache');
    expect(c.state).toBe('closed');
    expect(s.connections).toHaveLength(1);
  });

  it('a connection lost mid-exchange is not a failure: the next connection authenticates from the start', async () => {
    let dropped = false;
    const s = await fake({
      onRequest: (conn, req) => {
        if (req.type === OpCode.sasl && !dropped) {
          dropped = true;
          conn.close();
          return;
        }
        answer(conn, req);
      },
    });
    const mechanism = scripted();
    const c = client(s, { sasl: { mechanism } });
    await c.connect();
    expect(s.connections).toHaveLength(2);
    expect(mechanism.started).toBe(2);
  });

  it("the sasl option is checked when the client is made", () => {
    expect(() => createClient('127.0.0.1:1', { sasl: { mechanism: 'PLAIN' as 'DIGEST-MD5', username: 'u', password: 'p' } })).toThrow(/mechanism must be/);
    expect(() => createClient('127.0.0.1:1', { sasl: { mechanism: 'DIGEST-MD5', username: '', password: 'p' } })).toThrow(/username/);
  });
});

describe('a server that requires authentication (-124)', () => {
  it('the first request gets SessionClosedRequireSaslAuthError and the session ends in auth-failed', async () => {
    const s = await fake({
      onRequest: (conn, req) => {
        conn.reply(req.xid, { err: -124 });
        setTimeout(() => conn.close(), 5);
      },
    });
    const c = client(s);
    const seen = states(c);
    await c.connect();
    const error = await c.getData('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionClosedRequireSaslAuthError);
    expect(error).toMatchObject({ code: 'SESSION_CLOSED_REQUIRE_SASL_AUTH', keeperCode: -124 });
    await eventually(() => seen.length === 3, 1000, 'auth-failed');
    expect(seen).toEqual(['connecting', 'connected', 'auth-failed']);
    await expect(c.exists('/y')).rejects.toBeInstanceOf(SessionClosedRequireSaslAuthError);
    await new Promise((r) => setTimeout(r, 300));
    expect(s.connections).toHaveLength(1);
  });

  it('an idle session learns it from its first ping', async () => {
    const s = await fake({
      autoPing: false,
      onRequest: (conn, req) => {
        if (req.xid === Xid.PING) conn.reply(Xid.PING, { err: -124 });
      },
    });
    const c = client(s, { sessionTimeout: 600 });
    await c.connect();
    await eventually(() => c.state === 'auth-failed', 2000, 'auth-failed');
    await expect(c.getData('/x')).rejects.toBeInstanceOf(SessionClosedRequireSaslAuthError);
  });

  it('a SASL exchange the server refuses with -124 ends with SessionClosedRequireSaslAuthError', async () => {
    const s = await fake({ onRequest: (conn, req) => conn.reply(req.xid, { err: -124 }) });
    const c = client(s, { sasl: { mechanism: scripted() } });
    await expect(c.connect()).rejects.toBeInstanceOf(SessionClosedRequireSaslAuthError);
  });
});
