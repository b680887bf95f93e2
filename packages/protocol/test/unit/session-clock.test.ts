// What a session keeps of its clock and identity, in the forms that cost the least heap. Its clock: the system
// clock from a near origin (whole ms, small enough to stay a small integer in an object's field), a given clock
// unchanged; what reaches the caller stays on the caller's clock. Its password: every byte kept, copies handed out.
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@zkts/testkit';
import { createClient, systemClock, type ConnectAttempt, type ZkClient } from '../../src/index.js';
import { sessionClock } from '../../src/client/clock.js';
import { SessionIdentity } from '../../src/client/session/identity.js';

const clients: ZkClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('sessionClock', () => {
  it('keeps a given clock', () => {
    const clock = new ManualClock();
    expect(sessionClock(clock)).toBe(clock);
  });

  it('counts the system clock in whole ms from a near origin, moving with Date.now', async () => {
    const clock = sessionClock(systemClock);
    expect(clock).not.toBe(systemClock);
    const t0 = clock.now();
    const d0 = Date.now();
    expect(Number.isInteger(t0)).toBe(true);
    expect(t0).toBeGreaterThanOrEqual(0);
    expect(t0).toBeLessThan(2 ** 31);
    await new Promise<void>((resolve) => clock.setTimeout(resolve, 30));
    const moved = clock.now() - t0;
    const wall = Date.now() - d0;
    expect(Math.abs(moved - wall)).toBeLessThanOrEqual(2);
    expect(moved).toBeGreaterThanOrEqual(29);
  });

  it('reports connect failures at system clock times', async () => {
    const port = await refusedPort();
    const client = createClient(`127.0.0.1:${port}`, { waitForServer: true, reconnectDelay: { min: 0, max: 0 } });
    clients.push(client);
    const seen: ConnectAttempt[] = [];
    client.onConnectFailure((a) => seen.push(a));
    const before = Date.now();
    void client.connect({ timeout: 2000 }).catch(() => undefined);
    const deadline = Date.now() + 5000;
    while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const after = Date.now();
    expect(seen.length).toBeGreaterThan(0);
    const at = (seen[0] as ConnectAttempt).at;
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after);
  });
});

describe('SessionIdentity password', () => {
  it('keeps every byte value of a password, and hands out copies', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const identity = new SessionIdentity(undefined);
    identity.adopt({ protocolVersion: 0, timeOut: 3000, sessionId: 7n, passwd: bytes.subarray(0, 256), readOnly: false });
    expect([...identity.password]).toEqual([...bytes]);
    expect([...(identity.connectRequest(3000).passwd ?? [])]).toEqual([...bytes]);
    identity.password[0] = 99;
    expect(identity.password[0]).toBe(0);
    const given = new SessionIdentity({ sessionId: 5n, password: Uint8Array.of(1, 2, 3) });
    expect([...(given.connectRequest(3000).passwd ?? [])]).toEqual([1, 2, 3]);
    expect(new SessionIdentity(undefined).password).toEqual(new Uint8Array(16));
  });
});
