// close() tells the session's listeners before it tells the server. Whoever holds something through the session
// (a lock's `lost`, a leader's signal) must hear that it is over before closeSession can make its ephemeral nodes
// go and let someone else take over. A listener may wait a turn behind a reply that just completed (dispatcher.ts),
// which is the case checked here: the closeSession frame must still leave after it.
import { Socket } from 'node:net';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { open, sharedServer, uniqueRoot } from '../support/integration.js';

/** ZooKeeper's closeSession request: op code -11 in the request header after the length and the xid. */
const CLOSE_SESSION = -11;

/** Whether a chunk written to a socket holds a closeSession request frame (frames: 4-byte length, then the body). */
function holdsCloseSession(chunk: unknown): boolean {
  if (!(chunk instanceof Uint8Array)) return false;
  const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  for (let at = 0; at + 12 <= chunk.byteLength; at += 4 + view.getInt32(at)) {
    if (view.getInt32(at) >= 8 && view.getInt32(at + 8) === CLOSE_SESSION) return true;
    if (view.getInt32(at) < 0) return false;
  }
  return false;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('close() and the session listeners', () => {
  it("a listener hears 'closed' before the closeSession request is written, even right after a reply", async () => {
    const zk = await open(sharedServer());
    const order: string[] = [];
    zk.onStateChange((change) => {
      if (change.state === 'closed') order.push('closed heard');
    });
    const write = Socket.prototype.write;
    vi.spyOn(Socket.prototype, 'write').mockImplementation(function (this: Socket, ...args: Parameters<Socket['write']>) {
      if (holdsCloseSession(args[0])) order.push('closeSession written');
      return write.apply(this, args);
    });
    // A reply completes just before close(): the next listener waits a macrotask turn behind it.
    await zk.exists(uniqueRoot());
    await zk.close();
    expect(order).toEqual(['closed heard', 'closeSession written']);
  });

  it('the frame check sees a closeSession at all (the order above is not vacuous)', async () => {
    const zk = await open(sharedServer());
    let seen = 0;
    const write = Socket.prototype.write;
    vi.spyOn(Socket.prototype, 'write').mockImplementation(function (this: Socket, ...args: Parameters<Socket['write']>) {
      if (holdsCloseSession(args[0])) seen++;
      return write.apply(this, args);
    });
    await zk.close();
    expect(seen).toBe(1);
  });
});
