// A session counts its own times (last frame heard and sent, ping and read deadlines) on the monotonic clock:
// a wall clock stepped back (NTP, a resumed VM) must not hold back its pings until the server expires it, and
// one stepped forward must not look like a silent server and drop a healthy connection.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OpCode } from '../../src/codec/records/constants.js';
import { eventually, type FakeServer } from '../support/fake-server.js';
import { answer, fakeSessions } from '../support/fake-sessions.js';

const { fake, client } = fakeSessions();

afterEach(() => {
  vi.restoreAllMocks();
});

function pings(s: FakeServer): number {
  return s.connections.flatMap((c) => c.log).filter((l) => l.type === OpCode.ping).length;
}

/** From now on Date.now() reads `by` ms off the real time. */
function stepWallClock(by: number): void {
  const realNow = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => realNow() + by);
}

describe('the wall clock stepped while a session is connected', () => {
  it('back by a minute: pings keep coming an interval apart, on the same connection', async () => {
    const s = await fake({ onRequest: answer });
    // 3 s: a ping every second (a third of the timeout), a read timeout after 2 s of silence.
    const c = client(s.connectString, { sessionTimeout: 3000 });
    await c.connect();
    stepWallClock(-60_000);
    const before = pings(s);
    await eventually(() => pings(s) >= before + 2, 3500, 'two pings after the step');
    expect(s.connections).toHaveLength(1);
    expect(c.state).toBe('connected');
  });

  it('forward by a minute: no read timeout, the connection stays and keeps pinging', async () => {
    const s = await fake({ onRequest: answer });
    const c = client(s.connectString, { sessionTimeout: 3000 });
    await c.connect();
    stepWallClock(60_000);
    const before = pings(s);
    await eventually(() => pings(s) >= before + 2, 3500, 'two pings after the step');
    expect(s.connections).toHaveLength(1);
    expect(c.state).toBe('connected');
  });
});
