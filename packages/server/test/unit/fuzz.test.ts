// Mutated valid frames: a request of every opcode, with bytes flipped, lengths changed or the frame cut,
// sent over many connections. The server must stay up, answer a bystander, and never fail inside a handler
// (a failure there would be logged as "request failed").
import { describe, expect, it } from 'vitest';
import { JuteReader, readConnectResponse } from '@zkts/protocol/codec';
import { startServer, type Logger } from '@zkts/server';
import { baseFrames } from '../support/fuzz-frames.js';
import { connectFrame, pingFrame, rawConnect, replyOf, requestFrame } from '../support/raw.js';

const OPEN = [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }];


describe('fuzzing with mutated frames', () => {
  it('20,000 mutated requests leave the server up and no handler failing', async () => {
    const warnings: string[] = [];
    const logger: Logger = { debug() {}, info() {}, warn: (m) => warnings.push(m) };
    await using server = await startServer({ maxBuffer: 64 * 1024, logger });
    const bystander = await rawConnect(server.port);
    bystander.socket.write(connectFrame());
    readConnectResponse(new JuteReader(await bystander.next()));
    bystander.socket.write(requestFrame(1, 1, { path: '/f', data: null, acl: OPEN, flags: 0 }));
    await bystander.next();
    let seed = 987654321;
    const rand = (n: number): number => {
      seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6a09e667) >>> 0;
      return seed % n;
    };
    const bases = baseFrames();
    let answered = 0;
    for (let round = 0; round < 100; round++) {
      // A round can take up to its 2 s deadline on a loaded machine, so the rounds together can outlast the
      // bystander's 10 s session: it pings, as a client would, to stay alive until it is asked again.
      bystander.socket.write(pingFrame());
      const raw = await rawConnect(server.port);
      raw.socket.write(connectFrame());
      const chunks: Buffer[] = [];
      for (let i = 0; i < 200; i++) {
        const frame = Buffer.from(bases[rand(bases.length)] as Uint8Array);
        const mutation = rand(4);
        if (mutation === 0) {
          // Body bytes only: a mutated header is an unknown opcode, which (rightly) ends the connection.
          for (let k = 0; k < 1 + rand(4); k++) frame[12 + rand(frame.length - 12)] = rand(256);
        } else if (mutation === 1) {
          // A length field inside the body set to something odd.
          const at = 12 + rand(Math.max(1, frame.length - 16));
          if (at + 4 <= frame.length) frame.writeInt32BE([-1, -2, 0, 0x7fffffff, 65536, 3][rand(6)] as number, at);
        } else if (mutation === 2) {
          // Cut short, with the length prefix fixed up so the stream stays framed.
          const keep = 12 + rand(frame.length - 12);
          frame.writeInt32BE(keep - 4, 0);
          chunks.push(frame.subarray(0, keep));
          continue;
        }
        chunks.push(frame);
      }
      raw.socket.write(Buffer.concat(chunks));
      // Until the server has answered everything or closed the connection (an unknown opcode closes it).
      const deadline = Date.now() + 2000;
      while (!raw.isClosed() && raw.frames.length < 201 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      answered += raw.frames.length - 1;
      raw.socket.destroy();
    }
    console.log(`fuzz: ${answered} replies and notifications to 20,000 mutated requests`);
    expect(answered).toBeGreaterThan(5000);
    bystander.socket.write(requestFrame(99, 3, { path: '/', watch: false }));
    let reply;
    do reply = replyOf(await bystander.next());
    while (reply.xid !== 99);
    expect(reply.err).toBe(0);
    expect(warnings.filter((w) => w.includes('request failed'))).toEqual([]);
  }, 60_000);
});
