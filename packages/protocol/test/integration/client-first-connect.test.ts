// The first connect() against nothing that can answer: a closed port or an unknown host fails at once with
// UnreachableError naming each host (not after the 30 s default), an HTTP server (the AdminServer's port) is
// named as not ZooKeeper, and a silent server is "no handshake reply". `waitForServer: true` waits for a server
// that comes up later; and once a session existed, a refused reconnect is retried as before. The server behind
// the relay is the shared real ZooKeeper; the relay stands for a ZooKeeper that goes away and comes back.
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect as dial, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@zkts/testkit';
import {
  AbortError,
  ConnectTimeoutError,
  NotZooKeeperError,
  UnreachableError,
  connect,
  createClient,
  type ConnectAttempt,
  type ZkClient,
} from '@zkts/protocol';
import { hostPort, sharedServer, until, waitForState } from '../support/integration.js';

const clients: ZkClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

/** A byte relay on `port` to the shared server; close() makes the port refuse again. */
class Relay {
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;

  private constructor(server: Server) {
    this.server = server;
  }

  static async open(port: number): Promise<Relay> {
    const upstream = hostPort(sharedServer());
    const relay = new Relay(createServer());
    relay.server.on('connection', (client) => {
      const server = dial(upstream.port, upstream.host);
      for (const s of [client, server]) {
        relay.sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => {
          relay.sockets.delete(s);
          client.destroy();
          server.destroy();
        });
      }
      client.pipe(server).pipe(client);
    });
    await new Promise<void>((resolve) => relay.server.listen(port, '127.0.0.1', resolve));
    return relay;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Answers every connection like Jetty answers a ZooKeeper ConnectRequest on the AdminServer port. */
let http: HttpServer;
/** Accepts connections and never says a word. */
let silent: Server;
const held: Socket[] = [];
beforeAll(async () => {
  http = createHttpServer((_req, res) => res.end('not here'));
  silent = createServer((socket) => held.push(socket));
  await Promise.all([new Promise<void>((r) => http.listen(0, '127.0.0.1', r)), new Promise<void>((r) => silent.listen(0, '127.0.0.1', r))]);
});
afterAll(async () => {
  for (const s of held) s.destroy();
  await Promise.all([new Promise((r) => http.close(r)), new Promise((r) => silent.close(r))]);
});

const portOf = (server: { address(): AddressInfo | string | null }): number => (server.address() as AddressInfo).port;
const socketCode = (a: ConnectAttempt): unknown => (a.error.cause as { code?: unknown } | undefined)?.code;

describe('the first connect', { timeout: 60_000 }, () => {
  it('to a closed port fails at once with UnreachableError, not after the 30 s default', async () => {
    const closed = `127.0.0.1:${await freePort()}`;
    const started = performance.now();
    const error = await connect(closed).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(UnreachableError);
    const unreachable = error as UnreachableError;
    expect(unreachable.code).toBe('UNREACHABLE');
    expect(unreachable.attempts.map((a) => [a.host, socketCode(a)])).toEqual([[closed, 'ECONNREFUSED']]);
    expect(unreachable.message).toBe(`no ZooKeeper server reachable (${closed}: ECONNREFUSED); waitForServer: true waits for one`);
  });

  it('names each host, in connect-string order, when one refuses and one does not resolve; the client ends closed', async () => {
    const closed = `127.0.0.1:${await freePort()}`;
    const unknown = 'no-such-host.invalid:2181';
    const zk = createClient(`${unknown},${closed}`);
    const error = await zk.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as UnreachableError).attempts.map((a) => [a.host, socketCode(a)])).toEqual([
      [unknown, 'ENOTFOUND'],
      [closed, 'ECONNREFUSED'],
    ]);
    expect(zk.state).toBe('closed');
  });

  it('with a signal, fails at once with UnreachableError the same way; and an abort ends a wait that has no answer', async () => {
    const closed = `127.0.0.1:${await freePort()}`;
    const controller = new AbortController();
    const started = performance.now();
    const error = await connect(closed, { signal: controller.signal }).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as UnreachableError).attempts.map((a) => [a.host, socketCode(a)])).toEqual([[closed, 'ECONNREFUSED']]);
    const waiting = createClient(closed, { waitForServer: true });
    const aborting = new AbortController();
    const started2 = performance.now();
    const aborted = waiting.connect({ signal: aborting.signal }).catch((e: unknown) => e);
    aborting.abort();
    // The caller's abort, not a time limit: an AbortError, never a ConnectTimeoutError.
    const reason = await aborted;
    expect(reason).toBeInstanceOf(AbortError);
    expect(reason).not.toBeInstanceOf(ConnectTimeoutError);
    expect(performance.now() - started2).toBeLessThan(2000);
    expect(waiting.state).toBe('closed');
    const factoryAbort = new AbortController();
    const viaConnect = connect(closed, { waitForServer: true, signal: factoryAbort.signal }).catch((e: unknown) => e);
    factoryAbort.abort();
    expect(await viaConnect).toBeInstanceOf(AbortError);
  });

  it('connects when any host answers, even after others refused', async () => {
    const closed = `127.0.0.1:${await freePort()}`;
    const zk = await connect(`${closed},${sharedServer()}`, { shuffle: false, sessionTimeout: 4000 });
    clients.push(zk);
    expect(zk.state).toBe('connected');
  });

  it('to an HTTP server says it is not a ZooKeeper client port, at once', async () => {
    const address = `127.0.0.1:${portOf(http)}`;
    const started = performance.now();
    const error = await connect(address).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(UnreachableError);
    const [attempt] = (error as UnreachableError).attempts;
    expect(attempt?.error).toBeInstanceOf(NotZooKeeperError);
    expect(attempt?.error).toMatchObject({ code: 'NOT_ZOOKEEPER', protocol: 'HTTP' });
    expect((error as Error).message).toBe(`no ZooKeeper server reachable (${address}: not a ZooKeeper client port (an HTTP server: the AdminServer?)); waitForServer: true waits for one`);
  });

  it('to a silent server times out naming the handshake that got no reply', async () => {
    const address = `127.0.0.1:${portOf(silent)}`;
    const error = await connect(address, { timeout: 600 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectTimeoutError);
    expect((error as Error).message).toMatch(new RegExp(`^not connected within 600 ms \\(${address}: no handshake reply from ${address} within \\d+ ms\\)$`));
  });

  it('with waitForServer: true waits, and connects to a server that comes up meanwhile', async () => {
    const port = await freePort();
    const zk = createClient(`127.0.0.1:${port}`, { waitForServer: true, sessionTimeout: 4000 });
    clients.push(zk);
    const heard: ConnectAttempt[] = [];
    zk.onConnectFailure((a) => heard.push(a));
    const connecting = zk.connect({ timeout: 20_000 });
    await until(() => heard.length >= 2, 10_000, 'two refused attempts');
    expect(heard.every((a) => socketCode(a) === 'ECONNREFUSED')).toBe(true);
    const relay = await Relay.open(port);
    try {
      await connecting;
      expect(zk.state).toBe('connected');
    } finally {
      await zk.close();
      await relay.close();
    }
  });

  it('with waitForServer: true and nothing coming up, ends in ConnectTimeoutError as before', async () => {
    const closed = `127.0.0.1:${await freePort()}`;
    const error = await connect(closed, { waitForServer: true, timeout: 800 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectTimeoutError);
    expect((error as Error).message).toMatch(/^not connected within 800 ms \(.*ECONNREFUSED/);
  });
});

describe('once a session existed', { timeout: 60_000 }, () => {
  it('a refused reconnect is retried until the server is back, in the same session', async () => {
    const port = await freePort();
    let relay = await Relay.open(port);
    const zk = await connect(`127.0.0.1:${port}`, { sessionTimeout: 10_000 });
    clients.push(zk);
    const id = zk.sessionId;
    const refused: ConnectAttempt[] = [];
    zk.onConnectFailure((a) => {
      if (socketCode(a) === 'ECONNREFUSED') refused.push(a);
    });
    await relay.close();
    await waitForState(zk, 'suspended', 5000);
    await until(() => refused.length >= 2, 10_000, 'two refused reconnects');
    expect(zk.state).toBe('suspended');
    relay = await Relay.open(port);
    try {
      await waitForState(zk, 'connected', 10_000);
      expect(zk.sessionId).toBe(id);
    } finally {
      await zk.close();
      await relay.close();
    }
  });
});
