// An idle session's one timer on a manual clock whose timers can run late, as a busy event loop runs them: the
// timer still wakes once per ping interval, never to find nothing due, and nothing else is left armed. Sessions
// whose pings fall due within a tenth of an interval of each other share one wake-up.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@zkts/testkit';
import { createClient, type ZkClient } from '../../src/index.js';
import { OpCode, Xid } from '../../src/codec/records/constants.js';
import { KeeperCode } from '../../src/errors/codes.js';
import { FakeServer, eventually, type FakeConnection, type FakeServerOptions } from '../support/fake-server.js';

/** A ManualClock that runs timers of `lateMs.ms` (once) `lateMs.by` ms after their due time, and counts the timers run. */
class LateClock extends ManualClock {
  fired = 0;
  late: { ms: number; by: number } | null = null;

  override setTimeout(callback: () => void, ms: number): object {
    const late = this.late !== null && this.late.ms === ms ? this.late.by : 0;
    if (late > 0) this.late = null;
    return super.setTimeout(() => {
      this.fired++;
      callback();
    }, ms + late);
  }
}

const servers: FakeServer[] = [];
const clients: ZkClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) await s.close();
});

function pings(conn: FakeConnection | undefined): number {
  return conn?.log.filter((l) => l.type === OpCode.ping && l.xid === Xid.PING).length ?? 0;
}

async function idleSession(clock: ManualClock, options: FakeServerOptions = {}): Promise<{ server: FakeServer; client: ZkClient }> {
  const server = await FakeServer.start(options);
  servers.push(server);
  // 900 ms: a ping 300 ms after the last send, a read timeout 600 ms after the last frame heard. The connect
  // attempt's own timers get another length (by default they too are a third of the timeout), so that a clock
  // told to run the next 300 ms timer late runs the ping's.
  const client = createClient(server.connectString, { sessionTimeout: 900, connectTimeout: 1000, shuffle: false, clock });
  clients.push(client);
  await client.connect();
  return { server, client };
}

describe('an idle session on a clock whose timers run late', () => {
  it('a ping that left late: its answer moves the timer to the next ping, with no wake-up at the old read deadline', async () => {
    const clock = new LateClock();
    clock.late = { ms: 300, by: 50 };
    const { server } = await idleSession(clock);
    const t0 = clock.now();
    // The first ping's timer runs 50 ms late: the ping leaves at t0+350, when the read deadline counted from the
    // handshake (t0+600) comes before the next ping (t0+650).
    clock.advance(350);
    await eventually(() => pings(server.last) === 1, 2000, 'the late ping');
    // Its answer moved the read deadline to t0+950: the timer waits for the next ping alone.
    await eventually(() => clock.nextDue() === t0 + 650, 2000, 'the timer re-armed for the next ping');
    const fired = clock.fired;
    clock.advance(300);
    await eventually(() => pings(server.last) === 2, 2000, 'the next ping');
    expect(clock.fired - fired).toBe(1);
    expect(clock.pending).toBe(1);
  });

  it('pings on time: one timer run per ping, and the connect wait leaves no timer behind', async () => {
    const clock = new LateClock();
    const { server, client } = await idleSession(clock, { onRequest: (conn, request) => conn.reply(request.xid, { err: KeeperCode.NO_NODE }) });
    // Only the session's one connection timer: the connect timeout and the handshake timer are gone.
    expect(clock.pending).toBe(1);
    const fired = clock.fired;
    for (let i = 1; i <= 3; i++) {
      clock.advance(300);
      await eventually(() => pings(server.last) === i, 2000, `ping ${i}`);
      // The server answers in order, so once this reply is in, the ping's answer was read too. Advancing the
      // clock before that (a loaded machine can read it late) would pass the read deadline counted from the
      // previous answer, and the client would rightly drop the connection.
      await client.exists('/heard');
    }
    expect(clock.fired - fired).toBe(3);
    expect(client.state).toBe('connected');
  });

  it('sessions whose pings fall due within a tenth of an interval ping in one wake-up; further apart, in two', async () => {
    // 900 ms sessions ping every 300 ms and may ping up to 30 ms early.
    for (const [apart, wakeUps] of [
      [20, 1],
      [50, 2],
    ] as const) {
      const clock = new LateClock();
      const answer: FakeServerOptions = { onRequest: (conn, request) => conn.reply(request.xid, { err: KeeperCode.NO_NODE }) };
      const first = await idleSession(clock, answer);
      clock.advance(apart);
      const second = await idleSession(clock, answer);
      const t0 = clock.now() - apart;
      for (let i = 1; i <= 2; i++) {
        const fired = clock.fired;
        clock.advance(300 * i + apart - (clock.now() - t0));
        await eventually(() => pings(first.server.last) === i && pings(second.server.last) === i, 2000, `ping ${i}, ${apart} ms apart`);
        expect(clock.fired - fired, `ping ${i}, sessions ${apart} ms apart`).toBe(wakeUps);
        // Both answers are in before the clock moves on (see the test above).
        await first.client.exists('/heard');
        await second.client.exists('/heard');
      }
    }
  });
});
