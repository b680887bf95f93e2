// A 3-member ensemble: failover keeps the session and its watches; after losing quorum, a canBeReadOnly
// client gets a read-only session, then moves back to read-write when quorum returns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEnsemble, type Ensemble, type ZooKeeperServer } from '@zkts/testkit';
import { ServerError, type ZkClient } from '@zkts/protocol';
import { open, until, waitForState } from '../support/integration.js';

async function memberOf(ensemble: Ensemble, sessionId: bigint): Promise<ZooKeeperServer | undefined> {
  const needle = `sid=0x${sessionId.toString(16)}`;
  for (const m of ensemble.members) {
    const cons = await m.fourLetter('cons').catch(() => '');
    if (cons.includes(needle)) return m;
  }
  return undefined;
}

describe('ensemble', () => {
  let ensemble: Ensemble;

  beforeAll(async () => {
    ensemble = await startEnsemble({ size: 3, tickTime: 500, readOnlyMode: true });
  });
  afterAll(async () => {
    await ensemble[Symbol.asyncDispose]();
  });

  it('moves to another member when its member dies, keeping session and watches', async () => {
    const zk: ZkClient = await open(ensemble.connectString, { sessionTimeout: 6000 });
    const id = zk.sessionId;
    await zk.create('/failover', 'v0');
    await zk.create('/failover/eph', null, { mode: 'ephemeral' });
    const watch = (await zk.getData('/failover', { watch: true })).watch;
    let member: ZooKeeperServer | undefined;
    await until(async () => (member = await memberOf(ensemble, id)) !== undefined, 5000, 'the member holding the session');
    // Listen before the kill: the client can suspend and re-attach to another member before kill() returns.
    const states: string[] = [];
    const off = zk.onStateChange((c) => states.push(c.state));
    const killedAt = Date.now();
    await member?.kill();
    await until(() => states.includes('suspended') && states.at(-1) === 'connected', 6000, 'suspended, then connected');
    off();
    expect(Date.now() - killedAt).toBeLessThan(6000);
    expect(zk.sessionId).toBe(id);
    const now = await memberOf(ensemble, id);
    expect(now).toBeDefined();
    expect(now).not.toBe(member);
    const other = await open(ensemble.members.filter((m) => m !== member).map((m) => m.connectString).join(','));
    await other.setData('/failover', 'v1');
    expect(await watch).toMatchObject({ type: 'dataChanged', path: '/failover' });
    expect(await other.exists('/failover/eph')).not.toBeNull();
    await other.close();
    await zk.close();
    await member?.start();
  });

  it('read-only mode without quorum, back to read-write when quorum returns', async () => {
    const setup = await open(ensemble.connectString);
    await setup.create('/ro', 'readable').catch(() => undefined);
    await setup.close();
    const [a, b, survivor] = ensemble.members as [ZooKeeperServer, ZooKeeperServer, ZooKeeperServer];
    await Promise.all([a.kill(), b.kill()]);
    await until(async () => (await survivor.fourLetter('isro').catch(() => '')).trim() === 'ro', 30_000, 'the survivor in read-only mode');
    const zk = await open(ensemble.connectString, { sessionTimeout: 6000, canBeReadOnly: true, connectTimeout: 1000 });
    try {
      expect(zk.state).toBe('connected-read-only');
      const roSession = zk.sessionId;
      expect(new TextDecoder().decode((await zk.getData('/ro')).data)).toBe('readable');
      const err = await zk.setData('/ro', 'nope').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServerError);
      expect((err as ServerError).code).toBe('NOT_READ_ONLY');
      await Promise.all([a.start(), b.start()]);
      await waitForState(zk, 'connected', 40_000);
      // Born read-only, so not re-attached: a read-write session of its own.
      expect(zk.sessionId).not.toBe(roSession);
      await zk.setData('/ro', 'writable again');
    } finally {
      await zk.close();
    }
  });
});
