// Server error codes that name a condition with its own class arrive as that class, wherever they arrive: a
// reply header, a multiRead slot, an auth reply. The `code` string stays the KeeperException name.
import { afterEach, describe, expect, it } from 'vitest';
import type {
  ZkError} from '../../src/index.js';
import { errorFromKeeperCode } from '../../src/codec.js';
import {
  AuthFailedError,
  ConnectionLossError,
  ServerError,
  SessionClosedRequireSaslAuthError,
  SessionExpiredError,
  createClient,
  serverKeeperCode,
  type ZkClient,
} from '../../src/index.js';
import { OpCode } from '../../src/codec/records/constants.js';
import { writeMultiResponse } from '../../src/codec/multi.js';
import { FakeServer, type FakeConnection, type ReceivedRequest } from '../support/fake-server.js';

const servers: FakeServer[] = [];
const clients: ZkClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) await s.close();
});

async function clientAnswering(onRequest: (conn: FakeConnection, req: ReceivedRequest) => void): Promise<ZkClient> {
  const s = await FakeServer.start({ onRequest });
  servers.push(s);
  const c = createClient(s.connectString, { sessionTimeout: 3000 });
  clients.push(c);
  await c.connect();
  return c;
}

describe('error mapping', () => {
  it('maps each code with a class, keeps the rest as ServerError', () => {
    const expired = errorFromKeeperCode(-112, '/a');
    expect(expired).toBeInstanceOf(SessionExpiredError);
    expect(expired.code).toBe('SESSION_EXPIRED');
    expect(serverKeeperCode(expired)).toBe(-112);
    expect(expired.message).toBe('the server reports the session expired (/a)');
    const auth = errorFromKeeperCode(-115);
    expect(auth).toBeInstanceOf(AuthFailedError);
    expect(auth.code).toBe('AUTH_FAILED');
    const requireSasl = errorFromKeeperCode(-124);
    expect(requireSasl).toBeInstanceOf(SessionClosedRequireSaslAuthError);
    expect(requireSasl).not.toBeInstanceOf(ServerError);
    expect(requireSasl.code).toBe('SESSION_CLOSED_REQUIRE_SASL_AUTH');
    expect(serverKeeperCode(requireSasl)).toBe(-124);
    const loss = errorFromKeeperCode(-4);
    expect(loss).toBeInstanceOf(ConnectionLossError);
    expect((loss as ConnectionLossError).outcomeUnknown).toBe(true);
    const noNode = errorFromKeeperCode(-101, '/x');
    expect(noNode).toBeInstanceOf(ServerError);
    expect(noNode.code).toBe('NO_NODE');
    expect(serverKeeperCode(noNode)).toBe(-101);
    expect(serverKeeperCode(new Error('x'))).toBeUndefined();
    expect(errorFromKeeperCode(-999).code).toBe('SERVER_ERROR');
  });

  it('a -112 reply reaches the caller as SessionExpiredError, a -115 as AuthFailedError, a -4 as ConnectionLossError', async () => {
    const codes = new Map([
      ['/expired', -112],
      ['/auth', -115],
      ['/loss', -4],
      ['/missing', -101],
    ]);
    const c = await clientAnswering((conn, req) => conn.reply(req.xid, { err: codes.get(req.reader().readString() ?? '') ?? 0 }));
    const errorOf = (path: string): Promise<unknown> => c.getData(path).then(() => undefined, (e: unknown) => e);
    const expired = await errorOf('/expired');
    expect(expired).toBeInstanceOf(SessionExpiredError);
    expect((expired as ZkError).code).toBe('SESSION_EXPIRED');
    expect(await errorOf('/auth')).toBeInstanceOf(AuthFailedError);
    expect(await errorOf('/loss')).toBeInstanceOf(ConnectionLossError);
    const missing = await errorOf('/missing');
    expect(missing).toBeInstanceOf(ServerError);
    expect((missing as ServerError).path).toBe('/missing');
    // The reply-level mapping changes nothing else: the session is still connected.
    expect(c.state).toBe('connected');
  });

  it('a multiRead slot with -112 holds a SessionExpiredError', async () => {
    const c = await clientAnswering((conn, req) => {
      if (req.type !== OpCode.multiRead) return conn.reply(req.xid);
      conn.reply(req.xid, {
        body: (w) =>
          writeMultiResponse(w, [
            { op: 'error', err: -112 },
            { op: 'error', err: -101 },
          ]),
      });
    });
    const results = await c.multiRead([
      { op: 'getData', path: '/a' },
      { op: 'getData', path: '/b' },
    ]);
    expect(results[0]).toMatchObject({ op: 'error' });
    expect(results[0]?.op === 'error' && results[0].error).toBeInstanceOf(SessionExpiredError);
    expect(results[1]?.op === 'error' && results[1].error.code).toBe('NO_NODE');
  });
});
