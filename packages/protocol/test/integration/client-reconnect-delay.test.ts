// The wait before dialling again after a dropped connection, against a real ZooKeeper: a session that another
// connection took over (a second client given its id and password; the server closes the first connection
// without a word) is not taken straight back, so the newcomer completes its handshake and can close the session;
// a tug-of-war backs off for seconds; a blip in the network (the fault proxy resetting the connection)
// reconnects to the same server at once, and an orderly close waits the drawn delay.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '@zkts/testkit';
import { createClient, type StateChange, type ZkClient } from '@zkts/protocol';
import { hostPort, open, sharedServer, until } from '../support/integration.js';
import { CONTEST_WINDOW_MS, DEFAULT_RECONNECT_DELAY, REDIAL_SPACING_MS } from '../../src/client/session/reconnect-delay.js';

interface Timed extends StateChange {
  at: number;
}

function record(c: ZkClient): Timed[] {
  const out: Timed[] = [];
  c.onStateChange((change) => out.push({ ...change, at: Date.now() }));
  return out;
}

// Debian's python3-kazoo lives beside the system interpreter (another python3 may come first on PATH).
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const hasKazoo = spawnSync(PYTHON, ['-c', 'import kazoo'], { stdio: 'ignore' }).status === 0;

// kazoo re-attaches a session given its id and password, connects (10 s at most), closes the session (stop()
// sends closeSession) and says how far it got. Asynchronous: our client must be free to take the session back.
const KAZOO_TAKEOVER = `
import binascii, sys
from kazoo.client import KazooClient
zk = KazooClient(hosts=sys.argv[1], client_id=(int(sys.argv[2], 16), binascii.unhexlify(sys.argv[3])), timeout=6)
zk.start(timeout=10)
print("connected 0x%x" % zk.client_id[0], flush=True)
zk.stop()
zk.close()
print("closed", flush=True)
`;

function kazooTakeover(connectString: string, id: bigint, password: Uint8Array): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const py = spawn(PYTHON, ['-c', KAZOO_TAKEOVER, connectString, id.toString(16), Buffer.from(password).toString('hex')]);
    let out = '';
    py.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    py.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
    py.on('error', reject);
    py.on('exit', (code) => resolve({ code, out }));
  });
}

describe('reconnect delay', () => {
  const clients: ZkClient[] = [];
  let proxy: FaultProxy | undefined;
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    await proxy?.close();
    proxy = undefined;
  });

  it('a session taken over by another connection is not taken straight back: the newcomer connects and closes it', async () => {
    // random → 0.999: the first wait after the silent close is the default range's top (~1.2 s).
    const a = await open(sharedServer(), { sessionTimeout: 6000, renewSession: false, random: () => 0.999 });
    clients.push(a);
    const aStates = record(a);
    const b = createClient(sharedServer(), { sessionTimeout: 6000, sessionId: a.sessionId, sessionPassword: a.sessionPassword });
    clients.push(b);
    const bStates = record(b);
    await b.connect({ timeout: 5000 });
    expect(b.sessionId).toBe(a.sessionId);
    // The server closed A's connection when B's handshake arrived (no reply, no error code: a plain close).
    await until(() => a.state === 'suspended', 5000, 'A suspended');
    await b.close();
    expect(bStates.map((s) => s.state)).toEqual(['connecting', 'connected', 'closed']);
    // A's next handshake finds the session closed: A never had it back in between.
    await until(() => a.state === 'expired', 8000, 'A expired');
    expect(aStates.map((s) => s.state)).toEqual(['suspended', 'expired']);
  });

  it.skipIf(!hasKazoo)('kazoo given our session id and password connects within its 10 s and closes the session; we then see it expired', async () => {
    // random → 0.999: our first wait is the default range's top, so kazoo's connect and close fit before it.
    const a = await open(sharedServer(), { sessionTimeout: 6000, renewSession: false, random: () => 0.999 });
    clients.push(a);
    const aStates = record(a);
    const { code, out } = await kazooTakeover(sharedServer(), a.sessionId, a.sessionPassword);
    expect(out).toContain(`connected 0x${a.sessionId.toString(16)}`);
    expect(out).toContain('closed');
    expect(code).toBe(0);
    await until(() => a.state === 'expired', 8000, 'our client expired');
    // Never connected in between: we did not take the session back from kazoo.
    expect(aStates.map((x) => x.state)).toEqual(['suspended', 'expired']);
  }, 20_000);

  it('a tug-of-war: a re-attached connection the server closes again soon is a contest, and the side that lost it waits ≥ 1 s', async () => {
    const a = await open(sharedServer(), { sessionTimeout: 12_000, random: () => 0 });
    clients.push(a);
    const aStates = record(a);
    // B re-dials 100 ms after each loss (random 0: the default minimum), as a client without this back-off would keep doing.
    const b = createClient(sharedServer(), { sessionTimeout: 12_000, sessionId: a.sessionId, sessionPassword: a.sessionPassword, random: () => 0 });
    clients.push(b);
    await b.connect({ timeout: 5000 });
    // A loses the session (an orderly close: A cannot tell it from a server going away), takes it back after 100 ms, loses it
    // again to B's re-dial soon after: that second loss is a contest, and A stays away ≥ 1 s.
    await until(() => aStates.filter((s) => s.state === 'suspended').length >= 2, 5000, 'A dropped twice');
    const second = aStates.filter((s) => s.state === 'suspended')[1] as Timed;
    const reconnectedAt = (): number | undefined => aStates.find((s) => s.state === 'connected' && s.at >= second.at)?.at;
    await until(() => reconnectedAt() !== undefined, 8000, 'A back after its contest back-off');
    expect((reconnectedAt() as number) - second.at).toBeGreaterThanOrEqual(950);
    // Between A's first loss and its first re-take: the plain 100 ms.
    const first = aStates.find((s) => s.state === 'suspended') as Timed;
    const retake = aStates.find((s) => s.state === 'connected' && s.at >= first.at) as Timed;
    expect(retake.at - first.at).toBeLessThan(950);
  });

  it('a blip in the network (a reset) reconnects to the same server at once, well within a second', async () => {
    proxy = await startFaultProxy(hostPort(sharedServer()));
    // A drawn wait of 3 s, far above a redial's round trip even on a loaded machine: a reconnect well under it
    // did not wait (with the default's 100 ms minimum, a round trip under load could look like a wait).
    const zk = await open(proxy.connectString, { sessionTimeout: 10_000, reconnectDelay: { min: 3000, max: 3000 } });
    clients.push(zk);
    const id = zk.sessionId;
    const states = record(zk);
    for (let i = 0; i < 3; i++) {
      const before = states.length;
      proxy.reset();
      await until(() => states.length >= before + 2, 5000, 'suspended and connected again');
      const [down, up] = states.slice(before) as [Timed, Timed];
      expect([down.state, up.state]).toEqual(['suspended', 'connected']);
      expect(up.at - down.at).toBeLessThan(1500);
      expect(zk.sessionId).toBe(id);
      // Resets further apart than the redial spacing: each gets its immediate redial.
      await new Promise((r) => setTimeout(r, REDIAL_SPACING_MS + 100));
    }
  });

  it('the server closing the connection in order (as one going away does) waits the drawn delay, within the default range', async () => {
    proxy = await startFaultProxy(hostPort(sharedServer()));
    const draws = [0, 0.999];
    const zk = await open(proxy.connectString, { sessionTimeout: 6000, random: () => draws[0] ?? 0.5 });
    clients.push(zk);
    const states = record(zk);
    for (const draw of draws) {
      draws[0] = draw;
      const before = states.length;
      proxy.cut();
      await until(() => states.length >= before + 2, 5000, 'suspended and connected again');
      const [down, up] = states.slice(before) as [Timed, Timed];
      expect([down.state, up.state]).toEqual(['suspended', 'connected']);
      const wanted = DEFAULT_RECONNECT_DELAY.min + (DEFAULT_RECONNECT_DELAY.max - DEFAULT_RECONNECT_DELAY.min) * draw;
      expect(up.at - down.at).toBeGreaterThanOrEqual(wanted - 5);
      expect(up.at - down.at).toBeLessThan(wanted + 500);
      // Cuts further apart than the contest window: each is a plain close (two within it would read as a contest).
      await new Promise((r) => setTimeout(r, CONTEST_WINDOW_MS + 100));
    }
  });
});
