// Live host lists against a real ensemble grown by reconfig: 50 clients that track the ensemble spread over
// the new members, each moving by itself with the rebalancing probability, so only that share of sessions
// drops its connection at once, and no session is lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMntr, startEnsemble, type Ensemble } from '@zkts/testkit';
import { connect, type ZkClient } from '@zkts/protocol';
import { clientAddresses } from '../../src/client/ensemble-tracker.js';
import { until } from '../support/integration.js';

const SUPER = 'reconfig-secret';

describe('an ensemble grown from 3 to 5 members by reconfig', () => {
  let ensemble: Ensemble;
  const clients: ZkClient[] = [];

  beforeAll(async () => {
    ensemble = await startEnsemble({ size: 3, reconfigEnabled: true, superPassword: SUPER, heap: '128m' });
  }, 120_000);
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await ensemble?.[Symbol.asyncDispose]();
  });

  async function connectionsPerMember(): Promise<number[]> {
    return Promise.all(ensemble.members.map(async (m) => Number(parseMntr(await m.fourLetter('mntr')).get('zk_num_alive_connections') ?? 0)));
  }

  it('clients tracking the ensemble spread over all 5 members; only the rebalancing share moves', async () => {
    const original = ensemble.connectString;
    for (let i = 0; i < 50; i++) clients.push(await connect(original, { sessionTimeout: 10_000, trackEnsemble: true }));
    const sessions = clients.map((c) => c.sessionId);
    const moves: number[] = [];
    for (const c of clients) c.onStateChange((change) => change.state === 'suspended' && moves.push(Date.now()));

    const { joining, added } = await ensemble.addMembers(2);
    expect(added).toHaveLength(2);
    const admin = await connect(original, { sessionTimeout: 10_000 });
    try {
      await admin.addAuth('digest', `super:${SUPER}`);
      const { data } = await admin.admin.reconfig({ joining });
      expect(clientAddresses(new TextDecoder().decode(data))).toHaveLength(5);
    } finally {
      await admin.close();
    }

    await until(async () => (await connectionsPerMember()).every((n) => n >= 3), 60_000, 'every member serving clients');
    const perMember = await connectionsPerMember();
    // 1 − 3/5 of the clients move (expected 20 of 50); a binomial spread of ±3σ bounds it.
    expect(moves.length).toBeGreaterThanOrEqual(8);
    expect(moves.length).toBeLessThanOrEqual(32);
    // The new members got only movers; nobody lost a session.
    expect(perMember.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(50);
    expect(clients.map((c) => c.sessionId)).toEqual(sessions);
    expect(clients.every((c) => c.state === 'connected')).toBe(true);
    console.info(`reconfig 3→5: ${moves.length} of 50 clients moved; connections per member ${perMember.join('/')}`);
  }, 180_000);
});
