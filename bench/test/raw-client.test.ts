// The raw ceiling client (clients/raw.ts) when its connection goes: what waits for a reply fails, and so does
// every later call, instead of waiting for ever (a driver that left the session idle past the server's expiry
// hung on it). Against a stand-in server that answers the handshake and closes on the first request.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';

import { client as raw } from '../clients/raw.js';

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Answers the handshake with a 36-byte body, then closes the connection when the next bytes come. */
async function closesOnFirstRequest(): Promise<string> {
  server = createServer((socket: Socket) => {
    let answered = false;
    socket.on('data', () => {
      if (answered) {
        socket.destroy();
        return;
      }
      answered = true;
      const handshake = Buffer.alloc(40);
      handshake.writeInt32BE(36, 0);
      socket.write(handshake);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `127.0.0.1:${address.port}`;
}

const outcome = (call: (done: (error: Error | null) => void) => void): Promise<Error | null> =>
  new Promise((resolve) => call((error) => resolve(error)));

describe('raw ceiling client', () => {
  it('fails the request in flight and every later one once the server closes the connection', async () => {
    const session = await raw.connect(await closesOnFirstRequest());
    const inFlight = await outcome((done) => session.getData('/a', done));
    expect(inFlight?.message).toMatch(/connection closed/);
    const later = await outcome((done) => session.create('/b', new Uint8Array(0), done));
    expect(later?.message).toMatch(/connection closed/);
    await session.close();
  });
});
