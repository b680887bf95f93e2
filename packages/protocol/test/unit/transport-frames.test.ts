// The transport's read path against a local socket: frames that arrive before the connection attaches are kept
// as copies and handed over on attach (one onRead for them), and later reads hand frames on as ranges of the
// reused read buffer, each read announced once.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';

import { frameWithLength } from '../../src/codec/frame.js';
import { systemClock } from '../../src/client/clock.js';
import { Transport } from '../../src/client/session/transport.js';
import { hex } from '../support/recorded-session.js';

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A server that hands its one accepted socket to `onSocket`; resolves with its port. */
function serve(onSocket: (s: Socket) => void): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer(onSocket);
    servers.push(server);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}

const payload = (fill: number, n: number): Uint8Array => new Uint8Array(n).fill(fill);

interface Seen {
  reads: number;
  frames: string[];
  closed: boolean;
}

function record(seen: Seen): { onRead(): void; onFrame(b: Uint8Array, s: number, e: number): void; onClose(): void } {
  return {
    onRead: () => seen.reads++,
    onFrame: (b, s, e) => seen.frames.push(hex(b.subarray(s, e))),
    onClose: () => {
      seen.closed = true;
    },
  };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

describe('Transport frames', () => {
  it('keeps frames that came before attach as copies, and hands them over with one onRead', async () => {
    let peer: Socket | undefined;
    const port = await serve((s) => {
      peer = s;
      s.write(Buffer.concat([frameWithLength(payload(1, 5)), frameWithLength(payload(2, 300))]));
    });
    const t = await Transport.dial({ host: '127.0.0.1', port }, { timeout: 5000, clock: systemClock, maxPacket: 0xfffff });
    // Let the early bytes arrive, then overwrite the shared read buffer with another read of another socket.
    const other = await Transport.dial({ host: '127.0.0.1', port: await serve((s) => s.write(frameWithLength(payload(9, 4000)))) }, { timeout: 5000, clock: systemClock, maxPacket: 0xfffff });
    const otherSeen: Seen = { reads: 0, frames: [], closed: false };
    other.attach(record(otherSeen));
    await until(() => otherSeen.frames.length === 1);
    const seen: Seen = { reads: 0, frames: [], closed: false };
    t.attach(record(seen));
    expect(seen.reads).toBe(1);
    expect(seen.frames).toEqual([hex(payload(1, 5)), hex(payload(2, 300))]);
    // Later reads: each announced once, whatever number of frames they hold.
    peer?.write(Buffer.concat([frameWithLength(payload(3, 7)), frameWithLength(payload(4, 8))]));
    await until(() => seen.frames.length === 4);
    expect(seen.frames.slice(2)).toEqual([hex(payload(3, 7)), hex(payload(4, 8))]);
    expect(seen.reads).toBeGreaterThanOrEqual(2);
    expect(seen.reads).toBeLessThanOrEqual(3);
    t.destroy();
    other.destroy();
  });

  it('ends with the splitter\'s error on a hostile length, after the whole frames before it', async () => {
    const port = await serve((s) => {
      const bad = new Uint8Array(4);
      new DataView(bad.buffer).setInt32(0, -5);
      setTimeout(() => s.write(Buffer.concat([frameWithLength(payload(6, 3)), bad])), 20);
    });
    const t = await Transport.dial({ host: '127.0.0.1', port }, { timeout: 5000, clock: systemClock, maxPacket: 0xfffff });
    const seen: Seen = { reads: 0, frames: [], closed: false };
    t.attach(record(seen));
    await until(() => seen.closed);
    expect(seen.frames).toEqual([hex(payload(6, 3))]);
  });
});
