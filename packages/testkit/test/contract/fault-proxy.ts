// The fault proxy's contract, in front of any server: traffic passes untouched, cut / reset / blackhole / delay /
// dropNextReply / close behave as documented. The upstream says how to tell that it dropped a session (a JVM's
// `cons` stops listing it; without four-letter words, the session timeout passes).
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { fourLetter, startFaultProxy } from '../../src/index.js';
import { connectRequest, createRequest, Frames, getDataRequest, openSession, parseConnectResponse, parseReply, pingRequest } from '../support/raw-zk.js';

import type { FaultProxy } from '../../src/index.js';

/** The server behind the proxy. Its minimum session timeout must be 1 s (the blackhole test asks for it). */
export interface Upstream {
  address: { host: string; port: number };
  fourLetterWords: boolean;
  /** Resolves once the server has dropped the connection of the (expired) session. */
  dropped(sessionId: bigint): Promise<void>;
  close(): Promise<void>;
}

const unique = (name: string): string => `/proxy-${name}-${randomBytes(4).toString('hex')}`;

async function noFrameWithin(frames: Frames, ms: number): Promise<void> {
  await expect(frames.next(ms)).rejects.toThrow(/no frame/);
}

/** Waits until `cons` no longer lists the session. */
export async function droppedPerCons(address: { host: string; port: number }, sessionId: bigint): Promise<void> {
  const sid = `sid=0x${sessionId.toString(16)}`;
  let listed = true;
  for (let i = 0; i < 150 && listed; i++) {
    await new Promise((r) => setTimeout(r, 100));
    listed = (await fourLetter(address, 'cons')).includes(sid);
  }
  expect(listed).toBe(false);
}

export function faultProxyContract(title: string, start: () => Promise<Upstream>): void {
  describe(`startFaultProxy (raw sockets through the proxy to ${title})`, () => {
    let proxy: FaultProxy;
    let upstream: Upstream;
    beforeAll(async () => {
      upstream = await start();
    });
    afterAll(async () => {
      await upstream?.close();
    });
    beforeEach(async () => {
      proxy = await startFaultProxy(upstream.address);
    });
    afterEach(async () => {
      await proxy.close();
    });

    it('passes ZooKeeper traffic and four-letter words through untouched', async () => {
      expect(proxy.connectString).toBe(`127.0.0.1:${proxy.port}`);
      expect(proxy.port).not.toBe(upstream.address.port);
      await using session = await openSession(proxy.host, proxy.port);
      const path = unique('pass');
      expect(await session.create(path, 'through')).toBe(0);
      expect(await session.getData(path)).toEqual({ err: 0, data: 'through' });
      if (upstream.fourLetterWords) expect(await fourLetter({ host: proxy.host, port: proxy.port }, 'ruok')).toBe('imok');
    });

    it('cut() closes both sides of current connections; new connections still work', async () => {
      const session = await openSession(proxy.host, proxy.port);
      expect(proxy.connections).toBe(1);
      proxy.cut();
      await session.closed;
      expect(session.socket.destroyed).toBe(true);
      await using again = await openSession(proxy.host, proxy.port);
      expect((await again.getData('/')).err).toBe(0);
    });

    it('reset() resets current connections (the client sees ECONNRESET, not an orderly close); new connections still work', async () => {
      const session = await openSession(proxy.host, proxy.port);
      const failed = new Promise<NodeJS.ErrnoException>((resolve) => session.socket.once('error', resolve));
      proxy.reset();
      expect((await failed).code).toBe('ECONNRESET');
      await session.closed;
      expect(proxy.connections).toBe(0);
      await using again = await openSession(proxy.host, proxy.port);
      expect((await again.getData('/')).err).toBe(0);
    });

    it('blackhole() freezes open sockets and new ones; restore() delivers what was held', async () => {
      await using session = await openSession(proxy.host, proxy.port);
      proxy.blackhole();
      session.socket.write(getDataRequest(7, '/'));
      await noFrameWithin(session.frames, 600);
      expect(session.socket.destroyed).toBe(false);

      // A connection made during the blackhole is accepted, but its handshake goes nowhere.
      const late = connect({ host: proxy.host, port: proxy.port });
      const lateFrames = new Frames();
      late.on('data', (c: Buffer) => lateFrames.push(c));
      await new Promise<void>((resolve) => late.once('connect', () => resolve()));
      late.write(connectRequest());
      await noFrameWithin(lateFrames, 300);
      expect(late.destroyed).toBe(false);

      proxy.restore();
      expect(parseReply(await session.frames.next()).xid).toBe(7);
      const connected = await lateFrames.next();
      expect(connected.length).toBeGreaterThanOrEqual(36);
      late.destroy();
    });

    it('blackhole() hides the server closing the connection until restore()', async () => {
      // The upstream's minimum session timeout is 1 s: ask for it, then go silent so the session expires
      // and the server closes its side.
      const socket = connect({ host: proxy.host, port: proxy.port });
      const frames = new Frames();
      socket.on('data', (c: Buffer) => frames.push(c));
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.write(connectRequest(1000));
      const { sessionId } = parseConnectResponse(await frames.next());
      proxy.blackhole();
      await upstream.dropped(sessionId);
      let clientSawClose = false;
      void closed.then(() => (clientSawClose = true));
      await new Promise((r) => setTimeout(r, 200));
      expect(clientSawClose).toBe(false);
      expect(socket.destroyed).toBe(false);
      proxy.restore();
      await closed;
      // The proxy's own side finishes a moment later.
      for (let i = 0; i < 20 && proxy.connections > 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(proxy.connections).toBe(0);
    });

    it('delay(ms) adds at least ms of latency; restore() removes it', async () => {
      await using session = await openSession(proxy.host, proxy.port);
      const roundTrip = async (xid: number): Promise<number> => {
        const start = performance.now();
        session.socket.write(getDataRequest(xid, '/'));
        expect(parseReply(await session.frames.next()).xid).toBe(xid);
        return performance.now() - start;
      };
      await roundTrip(1);
      proxy.delay(400);
      // Both directions are held back: ≥ 2 × 400 ms.
      expect(await roundTrip(2)).toBeGreaterThanOrEqual(790);
      proxy.restore();
      // Well under one delay, even on a loaded machine.
      expect(await roundTrip(3)).toBeLessThan(400);
    });

    it('dropNextReply(): the request is applied, its reply never arrives, the socket closes', async () => {
      const path = unique('drop');
      const session = await openSession(proxy.host, proxy.port);
      proxy.dropNextReply();
      // A ping is not "the next request": it passes and is answered.
      session.socket.write(pingRequest());
      expect(parseReply(await session.frames.next()).xid).toBe(-2);
      session.socket.write(createRequest(1, path, 'applied'));
      await session.closed;
      expect(session.frames.frames).toEqual([]);
      // The write reached the server: read it back directly, not through the proxy.
      await using direct = await openSession(upstream.address.host, upstream.address.port);
      expect(await direct.getData(path)).toEqual({ err: 0, data: 'applied' });
      // Armed once: the next connection's requests and replies pass.
      await using next = await openSession(proxy.host, proxy.port);
      expect(await next.getData(path)).toEqual({ err: 0, data: 'applied' });
    });

    it('close() stops accepting connections', async () => {
      const { port, host } = proxy;
      await proxy.close();
      const refused = await new Promise<boolean>((resolve) => {
        const s = connect({ host, port });
        s.once('connect', () => {
          s.destroy();
          resolve(false);
        });
        s.once('error', () => resolve(true));
      });
      expect(refused).toBe(true);
      // afterEach closes again: close() must be idempotent.
    });
  });
}
