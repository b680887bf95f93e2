// The fault proxy against an in-process fake server that speaks ZooKeeper framing, so the exact frame
// sequences (notifications before a reply, pings, split frames) can be scripted.
import { connect, createServer } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { startFaultProxy } from '../../src/index.js';

import type { Server } from 'node:net';
import type { FaultProxy } from '../../src/index.js';

import { Client, fakeServer, frame, xidOf } from '../support/fake-upstream.js';

describe('fault proxy framing (fake upstream)', () => {
  const servers: Server[] = [];
  let proxy: FaultProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
  });

  async function setup(seen: number[]): Promise<FaultProxy> {
    const server = await fakeServer(seen);
    servers.push(server);
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    proxy = await startFaultProxy({ host: '127.0.0.1', port: address.port });
    return proxy;
  }

  it('dropNextReply lets pings and notifications through and swallows only the reply', async () => {
    const seen: number[] = [];
    const p = await setup(seen);
    p.dropNextReply(); // armed before the handshake: the connect request must not count
    const client = new Client(p.port);
    client.socket.write(frame(0, 0, 0, 30_000));
    expect((await client.next()).length).toBe(20);
    client.socket.write(frame(-2, 11));
    expect(xidOf(await client.next())).toBe(-2);
    client.socket.write(frame(5, 4));
    expect(xidOf(await client.next())).toBe(-1); // the notification before the reply passes
    await client.closed;
    expect(client.frames).toEqual([]); // the reply (xid 5) never arrived
    expect(seen).toEqual([-2, 5]); // but the request reached the server
  });

  it('without faults, forwards split frames intact and in order', async () => {
    const seen: number[] = [];
    const p = await setup(seen);
    const client = new Client(p.port);
    const connectReq = frame(0, 0, 0, 30_000);
    client.socket.write(connectReq.subarray(0, 3));
    setTimeout(() => client.socket.write(Buffer.concat([connectReq.subarray(3), frame(7, 4), frame(8, 4)])), 5);
    await client.next();
    const xids = [];
    for (let i = 0; i < 4; i++) xids.push(xidOf(await client.next()));
    expect(xids).toEqual([-1, 7, -1, 8]);
    expect(seen).toEqual([7, 8]);
    client.socket.destroy();
  });

  it('under delay, data the server sent before closing still arrives before the close', async () => {
    const upstream = createServer((s) => {
      s.on('error', () => undefined);
      s.once('data', () => s.end(frame(0, 30_000, 0, 1)));
    });
    servers.push(upstream);
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
    const address = upstream.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    proxy = await startFaultProxy({ host: '127.0.0.1', port: address.port });
    proxy.delay(100);
    const client = new Client(proxy.port);
    const start = performance.now();
    client.socket.write(frame(0, 0, 0, 30_000));
    await client.closed;
    expect(performance.now() - start).toBeGreaterThanOrEqual(190);
    expect(client.frames.map((f) => f.length)).toEqual([20]);
  });

  it('passes a four-letter word (unframed bytes) through untouched', async () => {
    const upstream = createServer((s) => s.on('data', (d: Buffer) => s.end(`echo:${d.toString()}`)));
    servers.push(upstream);
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
    const address = upstream.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    proxy = await startFaultProxy({ host: '127.0.0.1', port: address.port });
    const socket = connect({ host: '127.0.0.1', port: proxy.port }, () => socket.write('srvr'));
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString()));
    await new Promise((r) => socket.once('close', r));
    expect(text).toBe('echo:srvr');
  });
});
