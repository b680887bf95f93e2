// A connection that never completes its handshake is closed after sessionlessConnectionTimeout, as ZooKeeper
// closes it (zookeeper.nio.sessionlessCnxnTimeout); bytes trickling in restart the wait; a session's connection
// is left alone.
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, JuteReader, readConnectResponse } from '@zkts/protocol/codec';
import { startServer } from '@zkts/server';

import { connectFrame, rawConnect, replyOf, requestFrame } from '../support/raw.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('connections without a session', () => {
  it('are closed after sessionlessConnectionTimeout; a trickle restarts it; a session is kept', async () => {
    await using server = await startServer({ sessionlessConnectionTimeout: 300 });
    const silent = await rawConnect(server.port);
    const half = await rawConnect(server.port);
    half.socket.write(Uint8Array.from([0, 0x0f, 0xff, 0xf0, 1, 2]));
    const trickle = await rawConnect(server.port);
    const withSession = await rawConnect(server.port);
    withSession.socket.write(connectFrame());
    readConnectResponse(new JuteReader(await withSession.next()));
    const hello = connectFrame();
    for (let i = 0; i < 4; i++) {
      trickle.socket.write(hello.subarray(i, i + 1));
      await sleep(200);
    }
    expect(trickle.isClosed()).toBe(false);
    await Promise.all([silent.closed, half.closed]);
    trickle.socket.write(hello.subarray(4));
    readConnectResponse(new JuteReader(await trickle.next()));
    await sleep(500);
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
