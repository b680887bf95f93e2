// A connection that never completes its handshake is closed after sessionlessConnectionTimeout, as ZooKeeper
// closes it (zookeeper.nio.sessionlessCnxnTimeout); bytes trickling in restart the wait; a session's connection
// is left alone.
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, JuteReader, readConnectResponse } from '@zkts/protocol/codec';
import { startServer } from '@zkts/server';
import { ManualClock } from '@zkts/testkit';

import { connectFrame, rawConnect, replyOf, requestFrame, type Raw } from '../support/raw.js';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Resolves once `raw`'s bytes are in the kernel (loopback: the server's socket is readable then) and the
 * in-process server has been through a poll phase to read them: two check phases have a poll between them.
 */
async function delivered(raw: Raw, bytes: Uint8Array): Promise<void> {
  await new Promise<void>((resolve, reject) => raw.socket.write(bytes, (error) => (error ? reject(error) : resolve())));
  await nextTurn();
  await nextTurn();
}

describe('connections without a session', () => {
  // On a manual clock: the quiet time is the server's clock, not how fast a loaded machine delivers each byte.
  it('are closed after sessionlessConnectionTimeout; a trickle restarts it; a session is kept', async () => {
    const clock = new ManualClock(Date.now());
    await using server = await startServer({ sessionlessConnectionTimeout: 300, clock });
    const silent = await rawConnect(server.port);
    const half = await rawConnect(server.port);
    await delivered(half, Uint8Array.from([0, 0x0f, 0xff, 0xf0, 1, 2]));
    const trickle = await rawConnect(server.port);
    const withSession = await rawConnect(server.port);
    withSession.socket.write(connectFrame());
    readConnectResponse(new JuteReader(await withSession.next()));
    while (server.connectionCount < 4) await nextTurn();
    const hello = connectFrame();
    for (let i = 0; i < 4; i++) {
      await delivered(trickle, hello.subarray(i, i + 1));
      await clock.advanceAsync(200);
    }
    await Promise.all([silent.closed, half.closed]);
    expect(trickle.isClosed()).toBe(false);
    await delivered(trickle, hello.subarray(4));
    readConnectResponse(new JuteReader(await trickle.next()));
    await clock.advanceAsync(500);
    for (const raw of [withSession, trickle]) {
      expect(raw.isClosed()).toBe(false);
      raw.socket.write(requestFrame(5, 3, { path: '/', watch: false }));
      expect(replyOf(await raw.next()).err).toBe(0);
    }
    expect(server.connectionCount).toBe(2);
  });

  it('rejects a timeout that is not a positive integer', async () => {
    await expect(startServer({ sessionlessConnectionTimeout: 0 })).rejects.toThrow(InvalidArgumentError);
  });
});
