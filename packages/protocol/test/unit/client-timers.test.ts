// The session's timers on an injected ManualClock: each assertion says at which clock time something happens,
// to the millisecond, with no wall-clock window. Socket I/O stays real (the wire-level fake server), so a test
// lets it settle between clock steps.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@zkts/testkit';
import { ConnectTimeoutError, SessionExpiredError, TimeoutError, createClient, type ClientOptions, type StateChange, type ZkClient } from '../../src/index.js';
import { OpCode, Xid } from '../../src/codec/records/constants.js';
import { writeGetDataResponse, readGetDataRequest } from '../../src/codec/records/node.js';
import type { Stat } from '../../src/codec/records/data.js';
import { FakeServer, eventually, type FakeConnection, type FakeServerOptions, type ReceivedRequest } from '../support/fake-server.js';
import { MIN_REDIAL_WINDOW_MS } from '../../src/client/session/reconnect-delay.js';

const STAT: Stat = { czxid: 1n, mzxid: 2n, ctime: 3n, mtime: 4n, version: 0, cversion: 0, aversion: 0, ephemeralOwner: 0n, dataLength: 1, numChildren: 0, pzxid: 5n };

function answer(conn: FakeConnection, req: ReceivedRequest): void {
  if (req.type === OpCode.getData) conn.reply(req.xid, { zxid: 10n, body: (w) => writeGetDataResponse(w, { data: new Uint8Array([118]), stat: STAT }) });
  else if (req.type === OpCode.exists) conn.reply(req.xid, { zxid: 10n, err: -101 });
  else conn.reply(req.xid, { zxid: 10n });
}

const servers: FakeServer[] = [];
const clients: ZkClient[] = [];

async function fake(options: FakeServerOptions = {}): Promise<FakeServer> {
  const s = await FakeServer.start(options);
  servers.push(s);
  return s;
}

function client(connectString: string, clock: ManualClock, options: ClientOptions = {}): ZkClient {
  const c = createClient(connectString, { sessionTimeout: 3000, shuffle: false, clock, ...options });
  clients.push(c);
  return c;
}

function recordStates(c: ZkClient): StateChange[] {
  const out: StateChange[] = [];
  c.onStateChange((s) => out.push(s));
  return out;
}

/** Lets socket I/O and promise callbacks run (real time, no clock time passes). */
const settle = (ms = 20): Promise<void> => new Promise((r) => setTimeout(r, ms));

function pings(conn: FakeConnection | undefined): number {
  return conn?.log.filter((l) => l.type === OpCode.ping && l.xid === Xid.PING).length ?? 0;
}

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) await s.close();
});

describe('session timers on a manual clock', () => {
  it('pings exactly a third of the negotiated timeout after the last send, and again each third', async () => {
    const clock = new ManualClock();
    const s = await fake({ onRequest: answer });
    const c = client(s.connectString, clock, { sessionTimeout: 900 });
    await c.connect();
    clock.advance(299);
    await settle();
    expect(pings(s.last)).toBe(0);
    clock.advance(1);
    await eventually(() => pings(s.last) === 1, 2000, 'first ping');
    // A request sent now moves the next ping to 300 ms after it.
    clock.advance(100);
    await c.getData('/x');
    clock.advance(299);
    await settle();
    expect(pings(s.last)).toBe(1);
    clock.advance(1);
    await eventually(() => pings(s.last) === 2, 2000, 'second ping');
    expect(c.state).toBe('connected');
  });

  it('leaves a frozen server exactly at the read timeout (2/3 of the timeout): dials it again at once, then the next host when it stays silent', async () => {
    const clock = new ManualClock();
    // Hung after the first handshake: pings go unanswered, and so does the next handshake.
    let handshakes = 0;
    const frozen = await fake({ autoPing: false, onRequest: () => undefined, onConnect: () => (handshakes++ === 0 ? {} : 'silent') });
    const other = await fake({ onRequest: answer });
    const c = client(`${frozen.connectString},${other.connectString}`, clock, { sessionTimeout: 1500, reconnectDelay: { min: 40, max: 40 } });
    await c.connect();
    const states = recordStates(c);
    clock.advance(500);
    await eventually(() => pings(frozen.last) === 1, 2000, 'the unanswered ping');
    clock.advance(499);
    await settle();
    expect(frozen.last?.closed).toBe(false);
    expect(states).toEqual([]);
    clock.advance(1);
    // Silence reads as a broken path, not a server going away: the same server again at once...
    await eventually(() => states.length === 1 && frozen.connections.length === 2, 2000, 'suspended, and the same server dialled again');
    expect(other.connections.length).toBe(0);
    // ...given the redial floor (the 40 ms drawn is less) to answer; then the next host, with nothing left to wait.
    clock.advance(MIN_REDIAL_WINDOW_MS - 1);
    await settle();
    expect(other.connections.length).toBe(0);
    clock.advance(1);
    await eventually(() => c.state === 'connected' && other.connections.length === 1, 2000, 'failover');
    expect(states.map((x) => x.state)).toEqual(['suspended', 'connected']);
    expect(states[0]?.error?.message).toBe(`nothing heard from ${frozen.connectString} for 1000 ms (read timeout 1000 ms)`);
    expect(other.last?.connect?.sessionId).toBe(0x1234n);
  });

  it('after an expiry, the renewal waits the reconnect delay too: a server full of expired sessions is not hit at once', async () => {
    const clock = new ManualClock();
    // The first session is 0x1111; its re-attach is refused as expired (timeOut 0); the renewal gets 0x5678.
    let created = 0;
    const s = await fake({ onRequest: answer, onConnect: (_c, req) => (req.sessionId !== 0n ? { timeOut: 0 } : { sessionId: created++ === 0 ? 0x1111n : 0x5678n }) });
    const c = client(s.connectString, clock, { reconnectDelay: { min: 40, max: 40 } });
    await c.connect();
    const states = recordStates(c);
    s.last?.socket.destroy();
    await eventually(() => states.length === 1, 2000, 'suspended');
    clock.advance(40);
    await eventually(() => states.some((x) => x.state === 'expired'), 2000, 'expired');
    const dialled = s.connections.length;
    clock.advance(39);
    await settle();
    expect(s.connections.length).toBe(dialled);
    clock.advance(1);
    await eventually(() => c.state === 'connected', 2000, 'renewed');
    expect(states.map((x) => x.state)).toEqual(['suspended', 'expired', 'connecting', 'connected']);
    expect(c.sessionId).toBe(0x5678n);
  });

  it('expires the session itself exactly 4/3 of the timeout after the last server contact', async () => {
    const clock = new ManualClock();
    const s = await fake({ onRequest: answer });
    const c = client(s.connectString, clock, { sessionTimeout: 1200, renewSession: false });
    await c.connect();
    const watch = (await c.exists('/w', { watch: true })).watch;
    const states = recordStates(c);
    await s.close();
    await eventually(() => c.state === 'suspended', 2000, 'suspension');
    clock.advance(1599);
    await settle();
    expect(c.state).toBe('suspended');
    clock.advance(1);
    await eventually(() => c.state === 'expired', 2000, 'expiry');
    expect(states.map((x) => x.state)).toEqual(['suspended', 'expired']);
    expect(states[1]?.error?.message).toBe('no server reachable for 1600 ms (client-side expiry after 1600 ms)');
    await expect(watch).rejects.toBeInstanceOf(SessionExpiredError);
    await expect(c.getData('/x')).rejects.toBeInstanceOf(SessionExpiredError);
  });

  it('handshakes that get no answer do not count as server contact: expiry stays at 4/3 of the timeout', async () => {
    const clock = new ManualClock();
    const good = await fake({ onRequest: answer });
    const silentA = await fake({ onConnect: () => 'silent' });
    const silentB = await fake({ onConnect: () => 'silent' });
    const c = client(`${good.connectString},${silentA.connectString},${silentB.connectString}`, clock, { sessionTimeout: 1200, connectTimeout: 150, renewSession: false });
    await c.connect();
    await good.close();
    await eventually(() => c.state === 'suspended', 2000, 'suspension');
    // Walk the clock in handshake-sized steps, letting each silent attempt start.
    for (let t = 0; t < 1500; t += 150) {
      clock.advance(150);
      await settle(10);
    }
    clock.advance(99);
    await settle();
    expect(c.state).toBe('suspended');
    clock.advance(1);
    await eventually(() => c.state === 'expired', 2000, 'expiry');
    expect(silentA.connections.length + silentB.connections.length).toBeGreaterThanOrEqual(2);
  });

  it('a silent server: the handshake times out at exactly connectTimeout, then the next host is tried', async () => {
    const clock = new ManualClock();
    const silent = await fake({ onConnect: () => 'silent' });
    const good = await fake({ onRequest: answer });
    const c = client(`${silent.connectString},${good.connectString}`, clock, { connectTimeout: 200 });
    const connecting = c.connect();
    await eventually(() => silent.last?.connect !== undefined, 2000, 'the first handshake');
    clock.advance(199);
    await settle();
    expect(good.connections).toHaveLength(0);
    clock.advance(1);
    await connecting;
    expect(good.connections).toHaveLength(1);
  });

  it('one host that takes the connection and never answers the handshake: the attempt ends at a third of the timeout and the session comes back', async () => {
    // ZooKeeper 3.8 restarting: a connection that arrives while it loads its database is neither answered nor
    // closed. Given the whole timeout (Java's sessionTimeout / hosts), the attempt would outlast the session.
    const clock = new ManualClock();
    let handshakes = 0;
    const s = await fake({ onRequest: answer, onConnect: () => (++handshakes === 2 ? 'silent' : {}) });
    const c = client(s.connectString, clock, { sessionTimeout: 3000, reconnectDelay: { min: 0, max: 0 } });
    await c.connect();
    const id = c.sessionId;
    const failures: string[] = [];
    c.onConnectFailure((attempt) => failures.push(attempt.error.message));
    const dropped = clock.now();
    s.last?.close();
    await eventually(() => handshakes === 2 && s.last?.connect !== undefined, 2000, 'the unanswered handshake');
    clock.advance(999);
    await settle();
    expect(c.stats().dialFailures).toBe(0);
    clock.advance(1);
    await eventually(() => c.stats().dialFailures === 1, 2000, 'the attempt given up');
    expect(failures).toEqual([`no handshake reply from ${s.connectString} within 1000 ms`]);
    // The cycle's back-off (0.5-1.5 s), then the session re-attached, well before the server would expire it.
    clock.advance((clock.nextDue() as number) - clock.now());
    await eventually(() => c.state === 'connected', 2000, 'the session back');
    expect(clock.now() - dropped).toBeLessThanOrEqual(2500);
    expect(s.last?.connect?.sessionId).toBe(id);
    expect(c.sessionId).toBe(id);
  });

  it('an expiry during the back-off between cycles: the renewal dials the reconnect delay after it, and says expired', async () => {
    const clock = new ManualClock();
    let handshakes = 0;
    let renewal: bigint | undefined;
    // Answers the first handshake, refuses the next ones (closes), then takes the renewal once it is asked for.
    const s = await fake({ onRequest: answer, onConnect: (_c, req) => (++handshakes === 1 ? {} : req.sessionId === 0n ? ((renewal = 0x5678n), { sessionId: 0x5678n }) : 'close') });
    // 3300 ms: expiry at 4400 ms of silence, in the middle of a 1000 ms back-off (random 0.5) that began at 4020.
    const c = client(s.connectString, clock, { sessionTimeout: 3300, reconnectDelay: { min: 20, max: 20 }, random: () => 0.5 });
    await c.connect();
    const reasons: string[] = [];
    const onDial = (m: unknown): void => {
      const message = m as { event: string; reason?: string; sessionId: bigint };
      if (message.event === 'dialing') reasons.push(message.reason ?? '');
    };
    subscribe('zkts:connection', onDial);
    try {
      const dropped = clock.now();
      s.last?.close();
      for (const [i, at] of [20, 1020, 2020, 3020, 4020].entries()) {
        await eventually(() => (clock.nextDue() as number) - dropped === at && c.state === 'suspended', 2000, `the dial at ${at} ms`);
        clock.advance((clock.nextDue() as number) - clock.now());
        await eventually(() => reasons.length === i + 1 && s.connections.length === i + 2 && c.stats().dialFailures === i + 1, 2000, `the refusal at ${at} ms`);
      }
      // The client-side expiry (4/3 of the timeout after the last frame heard) comes 380 ms into the back-off.
      await eventually(() => (clock.nextDue() as number) - dropped === 4400, 2000, 'the expiry timer');
      clock.advance(4400 - (clock.now() - dropped));
      await eventually(() => c.state === 'connecting' && clock.nextDue() !== undefined, 2000, 'expired, and a new session due');
      expect((clock.nextDue() as number) - dropped).toBe(4420);
      clock.advance(20);
      await eventually(() => c.state === 'connected', 2000, 'the renewed session');
      expect(renewal).toBe(0x5678n);
      expect(reasons).toEqual(['lost', 'cycle', 'cycle', 'cycle', 'cycle', 'expired']);
    } finally {
      unsubscribe('zkts:connection', onDial);
    }
  });

  it('backs off 0.5–1.5 s (jittered) after each full cycle through the hosts, and not a millisecond less', async () => {
    const clock = new ManualClock();
    let attempts = 0;
    const s = await fake({ onConnect: () => (++attempts < 3 ? 'close' : {}), onRequest: answer });
    const c = client(s.connectString, clock);
    const connecting = c.connect();
    for (const expected of [1, 2]) {
      // The server refused the attempt, and the client has seen it fail: until then the attempt's handshake
      // timer, not the back-off, is the earliest pending one.
      await eventually(() => attempts === expected && c.stats().dialFailures === expected, 2000, `attempt ${expected}`);
      // The pending back-off sleep (the connect() budget is a later timer).
      const backoff = (clock.nextDue() as number) - clock.now();
      expect(backoff).toBeGreaterThanOrEqual(500);
      expect(backoff).toBeLessThanOrEqual(1500);
      clock.advance(backoff - 1);
      await settle();
      expect(attempts).toBe(expected);
      clock.advance(1);
    }
    await connecting;
    expect(attempts).toBe(3);
  });

  it('a held write batch leaves exactly when the ping is due, so a slow server never starves it', async () => {
    const clock = new ManualClock();
    const s = await fake();
    const c = client(s.connectString, clock, { sessionTimeout: 3000 });
    await c.connect();
    void Promise.allSettled(Array.from({ length: 300 }, (_, i) => c.getData(`/a${i}`)));
    await eventually(() => s.last?.requests.length === 300);
    const conn = s.last as FakeConnection;
    const late = c.getData('/late');
    clock.advance(999);
    await settle();
    expect(conn.requests.length).toBe(300);
    clock.advance(1);
    await eventually(() => conn.requests.length === 301, 2000, 'the held request');
    expect(readGetDataRequest((conn.requests[300] as ReceivedRequest).reader()).path).toBe('/late');
    for (const r of conn.requests) answer(conn, r);
    await expect(late).resolves.toMatchObject({ stat: { version: 0 } });
  });

  it('a request timeout fires at exactly its limit, queued or sent', async () => {
    const clock = new ManualClock();
    const s = await fake({ onRequest: () => undefined });
    const c = client(s.connectString, clock);
    await c.connect();
    const sent = c.getData('/slow', { timeout: 100 });
    const outcome = sent.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    clock.advance(99);
    await settle();
    expect(await Promise.race([outcome, Promise.resolve('pending')])).toBe('pending');
    clock.advance(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('request timed out after 100 ms');
  });

  it('connect() gives up at exactly its timeout and closes the client', async () => {
    const clock = new ManualClock();
    const silent = await fake({ onConnect: () => 'silent' });
    const c = client(silent.connectString, clock, { connectTimeout: 10_000 });
    const connecting = c.connect({ timeout: 700 }).then(
      () => 'connected',
      (e: unknown) => e,
    );
    await eventually(() => silent.last?.connect !== undefined, 2000, 'the handshake');
    clock.advance(699);
    await settle();
    expect(await Promise.race([connecting, Promise.resolve('pending')])).toBe('pending');
    clock.advance(1);
    expect(await connecting).toBeInstanceOf(TimeoutError);
    expect(c.state).toBe('closed');
  });
});

describe('why nothing connects', () => {
  it('connect() times out with what each host answered; listeners hear each failure as it happens', async () => {
    const clock = new ManualClock();
    const { freePorts } = await import('@zkts/testkit');
    const [a, b] = await freePorts(2);
    const closing = await fake({ onConnect: () => 'close' });
    const c = client(`127.0.0.1:${a},127.0.0.1:${b},${closing.connectString}`, clock, { connectTimeout: 500 });
    const heard: string[] = [];
    c.onConnectFailure((attempt) => heard.push(`${attempt.host} ${(attempt.error.cause as { code?: string } | undefined)?.code ?? attempt.error.message}`));
    const connecting = c.connect({ timeout: 1000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    await eventually(() => heard.length >= 3, 2000, 'one failure per host');
    expect(heard.slice(0, 3)).toEqual([`127.0.0.1:${a} ECONNREFUSED`, `127.0.0.1:${b} ECONNREFUSED`, `${closing.connectString} connection closed by server`]);
    clock.advance(1000);
    const error = await connecting;
    expect(error).toBeInstanceOf(ConnectTimeoutError);
    expect(error).toBeInstanceOf(TimeoutError);
    const timeout = error as ConnectTimeoutError;
    expect(timeout.attempts.map((x) => x.host)).toEqual([`127.0.0.1:${a}`, `127.0.0.1:${b}`, closing.connectString]);
    expect(timeout.message).toBe(
      `not connected within 1000 ms (127.0.0.1:${a}: ECONNREFUSED; 127.0.0.1:${b}: ECONNREFUSED; ${closing.connectString}: connection closed by server)`,
    );
    expect(timeout.cause).toBe(timeout.attempts[2]?.error);
  });
});
