// Credentials given as options.auth against the shared ZooKeeper: a malformed entry fails at once, a refused
// scheme rejects connect() with AuthFailedError (not a timeout, not `connected` then CONNECTION_LOSS), a good
// digest is in force for the first request, the credentials ride with the ConnectRequest (no extra round
// trip), and after a cut or a renewal the state says connected only once the replayed credential is answered.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '@zkts/testkit';
import { Acls, AuthFailedError, InvalidArgumentError, connect, createClient, digestId, type ClientOptions, type StateChange, type ZkClient } from '@zkts/protocol';
import { AUTH_XID, FrameRelay } from '../support/frame-relay.js';
import { expireBehindProxy, hostPort, open, sharedServer, uniqueRoot, until, waitForState } from '../support/integration.js';

const ALICE: ClientOptions['auth'] = [{ scheme: 'digest', auth: 'alice:secret' }];
const root = uniqueRoot('auth');
const clients: ZkClient[] = [];
let direct: ZkClient;

function track(c: ZkClient): ZkClient {
  clients.push(c);
  return c;
}

/** Every state change with the time it was delivered. */
function timedStates(c: ZkClient): (StateChange & { at: number })[] {
  const out: (StateChange & { at: number })[] = [];
  c.onStateChange((s) => out.push({ ...s, at: performance.now() }));
  return out;
}

beforeAll(async () => {
  direct = await open(sharedServer());
  await direct.create(root);
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});
afterAll(async () => {
  await direct.removeRecursive(root);
  await direct.close();
});

describe('options.auth against a real server', () => {
  it('an entry without its auth field rejects connect() at once with InvalidArgumentError', async () => {
    const started = performance.now();
    const error = await connect(sharedServer(), { auth: [{ scheme: 'digest' }] } as unknown as ClientOptions).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).argument).toBe('auth[0].auth');
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('a refused scheme (digets): connect() rejects with AuthFailedError at once, the state says auth-failed, never connected', async () => {
    const c = track(createClient(sharedServer(), { sessionTimeout: 4000, auth: [{ scheme: 'digets', auth: 'a:b' }] }));
    const states = timedStates(c);
    const started = performance.now();
    const error = await c.connect().catch((e: unknown) => e);
    const took = performance.now() - started;
    expect(error).toBeInstanceOf(AuthFailedError);
    expect((error as Error).message).toContain('"digets"');
    expect((error as Error).cause).toMatchObject({ code: 'AUTH_FAILED' });
    expect(took).toBeLessThan(2000);
    await until(() => states.length >= 3, 2000, 'closed');
    expect(states.map((s) => s.state)).toEqual(['connecting', 'auth-failed', 'closed']);
    expect(states[1]?.error).toBe(error);
  });

  it('a good digest is in force for a request made right after connect(), and for one queued before it resolved', async () => {
    const c = track(createClient(sharedServer(), { sessionTimeout: 4000, auth: ALICE }));
    const connecting = c.connect();
    // Queued while connecting: it must not run before the server knows who we are (else INVALID_ACL).
    const early = c.create(`${root}/early`, null, { acl: Acls.creatorAll() });
    await connecting;
    expect(c.state).toBe('connected');
    await c.create(`${root}/right-after`, null, { acl: Acls.creatorAll() });
    await early;
    const alice = digestId('alice', 'secret');
    for (const name of ['early', 'right-after']) {
      expect((await c.getACL(`${root}/${name}`)).acl.map((a) => `${a.id.scheme}:${a.id.id}`)).toEqual([`digest:${alice}`]);
      // Only alice may read it: removed here, or the clean-up could not walk it.
      await c.delete(`${root}/${name}`);
    }
  });

  it('costs no extra round trip: the credential leaves with the ConnectRequest, before any server byte', async () => {
    const relay = await FrameRelay.start(hostPort(sharedServer()));
    try {
      track(await open(relay.connectString, { auth: [...ALICE!, { scheme: 'ip', auth: '127.0.0.1' }] }));
      const up = relay.of(1, 'c2s');
      const down = relay.of(1, 's2c');
      expect(up.slice(0, 3).map((f) => f.xid)).toEqual([undefined, AUTH_XID, AUTH_XID]);
      const firstAnswer = down[0]!.at;
      for (const f of up.slice(1, 3)) expect(f.at).toBeLessThanOrEqual(firstAnswer);
      // Both replies came behind the handshake answer.
      expect(down.slice(0, 3).map((f) => f.xid)).toEqual([undefined, AUTH_XID, AUTH_XID]);
    } finally {
      await relay.close();
    }
  });

  it('with 100 ms each way, connect with credentials takes no round trip (200 ms) more than without', async () => {
    const proxy: FaultProxy = await startFaultProxy(hostPort(sharedServer()));
    try {
      proxy.delay(100);
      const timed = async (options: ClientOptions): Promise<number> => {
        const started = performance.now();
        const c = await open(proxy.connectString, options);
        const took = performance.now() - started;
        await c.close();
        return took;
      };
      const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const plain: number[] = [];
      const authed: number[] = [];
      // A warm-up of each, not counted: the first connections through a fresh proxy run slower.
      await timed({});
      await timed({ auth: ALICE });
      for (let i = 0; i < 3; i++) {
        plain.push(await timed({}));
        authed.push(await timed({ auth: ALICE }));
      }
      console.log(`connect through a 100 ms proxy: plain ${plain.map(Math.round).join('/')} ms, with auth ${authed.map(Math.round).join('/')} ms`);
      // One round trip is 200 ms: a credential answered one round trip later would add it in full.
      expect(median(authed) - median(plain)).toBeLessThan(100);
    } finally {
      await proxy.close();
    }
  });

  it("NO_AUTH to an authenticated session says it is not permitted, not that it is not authenticated", async () => {
    const c = track(await open(sharedServer(), { auth: ALICE }));
    await c.create(`${root}/bob-only`, 'x', { acl: [Acls.digest('bob', 'pw')] });
    const error = await c.getData(`${root}/bob-only`).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NO_AUTH', message: `not permitted: the session's identities lack the permission (${root}/bob-only)` });
    // Deleting needs DELETE on the parent only (the cleanup's listing would need READ on the node).
    await c.delete(`${root}/bob-only`);
  });
});

describe('credentials on reconnect and renewal', () => {
  it('after a cut: suspended, the credential sent after the handshake answer, connected only after its reply', async () => {
    const relay = await FrameRelay.start(hostPort(sharedServer()));
    try {
      const c = track(await open(relay.connectString, { auth: ALICE }));
      const id = c.sessionId;
      const states = timedStates(c);
      relay.holdAuthReplies = 300;
      relay.cut();
      await waitForState(c, 'suspended', 5000);
      const queued = c.create(`${root}/after-cut`, null, { acl: Acls.creatorAll() });
      await waitForState(c, 'connected', 8000);
      expect(c.sessionId).toBe(id);
      const conn = Math.max(...relay.frames.map((f) => f.conn));
      const up = relay.of(conn, 'c2s');
      const down = relay.of(conn, 's2c');
      // A re-attach: the credential waits for the handshake answer (an expiry answer must not be lost to a reset).
      expect(up[1]?.xid).toBe(AUTH_XID);
      expect(up[1]!.at).toBeGreaterThanOrEqual(down[0]!.at);
      const authReply = down.find((f) => f.xid === AUTH_XID);
      expect(authReply).toBeDefined();
      const connected = states.find((s) => s.state === 'connected')!;
      expect(connected.at).toBeGreaterThanOrEqual(authReply!.at);
      expect(connected.at - down[0]!.at).toBeGreaterThanOrEqual(250);
      expect(states.map((s) => s.state)).toEqual(['suspended', 'connected']);
      await queued;
      expect((await c.getACL(`${root}/after-cut`)).acl[0]?.id.id).toBe(digestId('alice', 'secret'));
      await c.delete(`${root}/after-cut`);
    } finally {
      await relay.close();
    }
  });

  it('after a renewal: the new session has the identity from its first request', async () => {
    const proxy = await startFaultProxy(hostPort(sharedServer()));
    try {
      const c = track(await open(proxy.connectString, { auth: ALICE }));
      const first = c.sessionId;
      const states = timedStates(c);
      await expireBehindProxy(c, proxy);
      await until(() => states.some((s) => s.state === 'connected' && s.sessionId !== first), 10_000, 'renewed');
      await c.create(`${root}/renewed`, null, { acl: Acls.creatorAll() });
      expect((await c.getACL(`${root}/renewed`)).acl[0]?.id.id).toBe(digestId('alice', 'secret'));
      await c.delete(`${root}/renewed`);
      expect(states.map((s) => s.state)).toEqual(expect.arrayContaining(['expired', 'connecting', 'connected']));
    } finally {
      await proxy.close();
    }
  });
});
