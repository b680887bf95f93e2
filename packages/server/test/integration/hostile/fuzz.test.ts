// 100,000 mutated frames (frames.ts; seeded, ZKTS_SEED replays) over 400 connections, four at a time, against
// one server while a well-behaved zkts session works beside them: the server stays up, no request handler fails,
// the good session sees every result right on the same session, and every hostile connection is released.
import { describe, expect, it } from 'vitest';
import { startServer, type Logger } from '@zkts/server';

import { rawConnect } from '../../support/raw.js';
import { baseFrames, handshakeFrame, mutate, prng } from '../../support/fuzz-frames.js';
import { testSeed } from '../../../../../test/support/seed.js';
import { goodSession } from './good-session.js';

const FRAMES = 100_000;
const PER_CONNECTION = 250;
const PARALLEL = 4;

describe('hostile input: fuzzing', () => {
  it(`${FRAMES} mutated frames leave the server up and a good session unharmed`, async () => {
    const seed = testSeed('server fuzz');
    const warnings: string[] = [];
    const logger: Logger = { debug() {}, info() {}, warn: (m) => warnings.push(m) };
    await using server = await startServer({ maxBuffer: 64 * 1024, logger });
    const good = await goodSession(server.connectString, '/good');
    const rand = prng(seed);
    const bases = baseFrames();
    let sent = 0;
    let replies = 0;
    let closedByServer = 0;
    const started = Date.now();
    const connections = FRAMES / PER_CONNECTION;
    // Frames are made here, in order, so the seed alone decides the bytes whatever the timing.
    const batches = Array.from({ length: connections }, () => {
      const frames = [handshakeFrame(rand)];
      for (let i = 0; i < PER_CONNECTION; i++) frames.push(mutate(bases, rand).bytes);
      return Buffer.concat(frames);
    });
    for (let c = 0; c < connections; c += PARALLEL) {
      await Promise.all(
        batches.slice(c, c + PARALLEL).map(async (bytes) => {
          const raw = await rawConnect(server.port);
          raw.socket.write(bytes);
          sent += PER_CONNECTION;
          // Until the server has answered everything or closed the connection; then this side drops it.
          const deadline = Date.now() + 3000;
          let last = -1;
          while (!raw.isClosed() && Date.now() < deadline) {
            await new Promise((r) => setTimeout(r, 30));
            if (raw.frames.length === last) break; // quiet for 30 ms: nothing more is coming
            last = raw.frames.length;
          }
          if (raw.isClosed()) closedByServer++;
          replies += raw.frames.length;
          raw.socket.destroy();
          await raw.closed;
        }),
      );
    }
    const seconds = (Date.now() - started) / 1000;
    const result = await good.stop();
    console.info(
      `fuzz: ${sent} frames over ${connections} connections in ${seconds.toFixed(1)} s; ${replies} replies and events; ` +
        `${closedByServer} connections closed by the server; good session: ${result.cycles} cycles, failure ${result.failure ?? 'none'}`,
    );
    expect(sent).toBe(FRAMES);
    expect(result.failure).toBeUndefined();
    expect(result.sameSession).toBe(true);
    expect(result.cycles).toBeGreaterThan(50);
    expect(replies).toBeGreaterThan(FRAMES / 10);
    expect(warnings.filter((w) => w.includes('request failed'))).toEqual([]);
    // Every hostile connection is gone (the good one closed too).
    for (let i = 0; i < 100 && server.connectionCount > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(server.connectionCount).toBe(0);
  }, 120_000);
});
