// Hostile and broken input closes the offending connection only: the server and every other session go on.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readConnectResponse, JuteReader } from '@zkts/protocol/codec';
import { startServer, type Logger, type ZkServer } from '@zkts/server';
import { connectFrame, rawConnect, replyOf, requestFrame, type Raw } from '../support/raw.js';

const warnings: string[] = [];
const logger: Logger = { debug() {}, info() {}, warn: (m) => warnings.push(m) };

async function session(server: ZkServer): Promise<Raw> {
  const raw = await rawConnect(server.port);
  raw.socket.write(connectFrame());
  const resp = readConnectResponse(new JuteReader(await raw.next()));
  expect(resp.timeOut).toBe(10_000);
  return raw;
}

async function stillServes(server: ZkServer, raw: Raw): Promise<void> {
  raw.socket.write(requestFrame(77, 3, { path: '/', watch: false }));
  const reply = replyOf(await raw.next());
  expect([reply.xid, reply.err]).toEqual([77, 0]);
  expect(server.connectionCount).toBeGreaterThan(0);
}

describe('robustness', () => {
  let server: ZkServer;
  let bystander: Raw;
  beforeEach(async () => {
    warnings.length = 0;
    server = await startServer({ maxBuffer: 4096, logger });
    bystander = await session(server);
  });
  afterEach(async () => {
    await server.close();
  });

  it('a length prefix past maxBuffer closes that connection', async () => {
    const raw = await session(server);
    raw.socket.write(Uint8Array.from([0, 0, 0x10, 0x01]));
    await raw.closed;
    expect(warnings.join('\n')).toMatch(/frame length 4097 out of range/);
    await stillServes(server, bystander);
  });

  it('a negative length and garbage before the handshake close the connection', async () => {
    const a = await rawConnect(server.port);
    a.socket.write(Uint8Array.from([0xff, 0xff, 0xff, 0xfe, 1, 2, 3]));
    await a.closed;
    const b = await rawConnect(server.port);
    b.socket.write(Uint8Array.from([0, 0, 0, 3, 1, 2, 3]));
    await b.closed;
    const c = await rawConnect(server.port);
    c.socket.write(new TextEncoder().encode('xyzw'));
    await c.closed;
    await stillServes(server, bystander);
  });

  it('frames split into single bytes and pipelined in one write are served in order', async () => {
    const raw = await rawConnect(server.port);
    const bytes = connectFrame();
    for (const byte of bytes) raw.socket.write(Uint8Array.of(byte));
    expect(readConnectResponse(new JuteReader(await raw.next())).timeOut).toBe(10_000);
    const many = Buffer.concat([1, 2, 3, 4, 5].map((x) => Buffer.from(requestFrame(x, 3, { path: '/', watch: false }))));
    raw.socket.write(many.subarray(0, 7));
    raw.socket.write(many.subarray(7));
    const xids = [];
    for (let i = 0; i < 5; i++) xids.push(replyOf(await raw.next()).xid);
    expect(xids).toEqual([1, 2, 3, 4, 5]);
  });

  it('a request shorter than its header closes; an unknown opcode is answered -6 and closes', async () => {
    const a = await session(server);
    a.socket.write(Uint8Array.from([0, 0, 0, 3, 0, 0, 1]));
    await a.closed;
    const b = await session(server);
    b.socket.write(requestFrame(9, 0 as never, null as never));
    const reply = replyOf(await b.next());
    expect([reply.xid, reply.err, reply.zxid]).toEqual([9, -6, -1n]);
    await b.closed;
    await stillServes(server, bystander);
  });

  it('thousands of random frames never take the server down', async () => {
    let seed = 12345;
    const rand = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let round = 0; round < 20; round++) {
      const raw = await session(server);
      for (let i = 0; i < 100 && !raw.isClosed(); i++) {
        const len = Math.floor(rand() * 64);
        const body = Uint8Array.from({ length: len }, () => Math.floor(rand() * 256));
        const op = [1, 2, 3, 4, 5, 6, 7, 8, 12, 14, 15, 17, 18, 19, 21, 22, 101, 103, 104, 105, 106][Math.floor(rand() * 21)] as number;
        const frame = new Uint8Array(12 + len);
        const v = new DataView(frame.buffer);
        v.setInt32(0, 8 + len);
        v.setInt32(4, i + 1);
        v.setInt32(8, op);
        frame.set(body, 12);
        raw.socket.write(frame);
      }
      raw.socket.destroy();
    }
    await stillServes(server, bystander);
  });

  it('a flood of connections is accepted and released', async () => {
    const raws = await Promise.all(Array.from({ length: 100 }, () => session(server)));
    expect(server.connectionCount).toBeGreaterThanOrEqual(101);
    for (const r of raws) r.socket.destroy();
    await Promise.all(raws.map((r) => r.closed));
    await new Promise((r) => setTimeout(r, 50));
    expect(server.connectionCount).toBe(1);
    await stillServes(server, bystander);
  });
});

describe('back-pressure', () => {
  it('a client that stops reading stops being served; others are not held up; it gets every reply once it reads', async () => {
    await using server = await startServer();
    const writer = await session(server);
    const big = new Uint8Array(512 * 1024).fill(7);
    writer.socket.write(requestFrame(1, 1, { path: '/big', data: big, acl: [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }], flags: 0 }));
    expect(replyOf(await writer.next()).err).toBe(0);
    const slow = await session(server);
    slow.socket.pause();
    // 400 reads of 512 KiB in one 10 KB write: answered all at once, that would be 200 MiB in memory.
    const n = 400;
    const before = process.memoryUsage().arrayBuffers;
    const batch = Buffer.concat(Array.from({ length: n }, (_, i) => Buffer.from(requestFrame(i + 1, 4, { path: '/big', watch: false }))));
    slow.socket.write(batch);
    await new Promise((r) => setTimeout(r, 300));
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(48 * 1024 * 1024);
    await stillServes(server, writer);
    slow.socket.resume();
    let last = 0;
    for (let i = 0; i < n; i++) last = replyOf(await slow.next(10_000)).xid;
    expect(last).toBe(n);
  });
});
