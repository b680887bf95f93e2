// The TLS contract every backend meets: a TLS-only server (generated CA, mutual TLS, four-letter words over
// TLS, plaintext refused, TLS kept across restart) and a secure port beside the plain one.
import { connect } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startZooKeeper } from '../../src/index.js';
import { connectRequest, Frames, openSession } from '../support/raw-zk.js';
import { titled } from './backends.js';

import type { ZooKeeperServer } from '../../src/index.js';
import type { BackendUnderTest } from './backends.js';

export function tlsContract(b: BackendUnderTest): void {
  describe.skipIf(b.unavailable !== undefined)(titled('TLS-only server', b), () => {
    let server: ZooKeeperServer;
    beforeAll(async () => {
      server = await startZooKeeper({ backend: b.backend, tls: true, clientPort: false });
    });
    afterAll(async () => {
      await server?.[Symbol.asyncDispose]();
    });

    it('exposes only the secure port and PEM material for a node:tls client', () => {
      expect(server.securePort).toBeGreaterThan(0);
      expect(server.port).toBe(server.securePort);
      expect(server.connectString).toBe(`127.0.0.1:${server.securePort}`);
      expect(server.tls?.ca).toMatch(/^-----BEGIN CERTIFICATE-----/);
      expect(server.tls?.cert).toMatch(/^-----BEGIN CERTIFICATE-----/);
      expect(server.tls?.key).toMatch(/-----BEGIN PRIVATE KEY-----/);
    });

    it('completes a TLS handshake and a ZooKeeper session with the generated CA and client certificate', async () => {
      const tls = server.tls;
      if (!tls || server.securePort === undefined) throw new Error('no tls');
      await using session = await openSession(server.host, server.securePort, { ...tls, servername: 'localhost' });
      expect(session.sessionId).not.toBe(0n);
      expect(await session.create('/over-tls', 'secret')).toBe(0);
      expect(await session.getData('/over-tls')).toEqual({ err: 0, data: 'secret' });
      // Four-letter words go over TLS too when there is no plain port.
      expect(await server.fourLetter('ruok')).toBe('imok');
    });

    it('refuses plaintext on the secure port', async () => {
      const socket = connect({ host: server.host, port: server.securePort ?? 0 });
      const frames = new Frames();
      const bytes: Buffer[] = [];
      socket.on('data', (c: Buffer) => {
        bytes.push(c);
        frames.push(c);
      });
      socket.on('error', () => {
        // A reset is one of the acceptable refusals.
      });
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(connectRequest());
      await closed;
      // No ConnectResponse came back: at most a TLS alert (content type 0x15), never a length-prefixed reply.
      const received = Buffer.concat(bytes);
      expect(received.length === 0 || received[0] === 0x15).toBe(true);
    });

    it('keeps TLS working across a restart', async () => {
      await server.restart();
      const tls = server.tls;
      if (!tls || server.securePort === undefined) throw new Error('no tls');
      await using session = await openSession(server.host, server.securePort, { ...tls, servername: 'localhost' });
      expect(await session.getData('/over-tls')).toEqual({ err: 0, data: 'secret' });
    });
  });

  describe.skipIf(b.unavailable !== undefined)(titled('TLS beside a plain port', b), () => {
    it('serves both', async () => {
      await using server = await startZooKeeper({ backend: b.backend, tls: true });
      expect(server.securePort).toBeGreaterThan(0);
      expect(server.port).not.toBe(server.securePort);
      await using plain = await openSession(server.host, server.port);
      expect(await plain.create('/both', 'x')).toBe(0);
      const tls = server.tls;
      if (!tls || server.securePort === undefined) throw new Error('no tls');
      await using secure = await openSession(server.host, server.securePort, { ...tls, servername: 'localhost' });
      expect(await secure.getData('/both')).toEqual({ err: 0, data: 'x' });
    });
  });
}
