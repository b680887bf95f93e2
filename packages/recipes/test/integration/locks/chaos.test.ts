// Chaos: a 3-member ensemble, clients behind one fault proxy per member, for ≥ 60 s of member kills/restarts,
// connection cuts and partitions (some longer than the session timeout). Workers hammer one Mutex with
// lostOn: 'suspended', so a lease counts as valid until its `lost` fires. Checked: never two valid holders at
// once (0 exclusion violations), progress despite the faults, and 0 orphan contender nodes at the end. The fault
// schedule and hold times come from a seed, printed first: ZKTS_SEED=<seed> replays the schedule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { connect, type ZkClient } from '@zkts/protocol';
import { Mutex, type LockHandle } from '@zkts/recipes';
import { startEnsemble, startFaultProxy, type Ensemble, type FaultProxy } from '@zkts/testkit';

import { settleCleanups } from '../../../src/internal/cleanup.js';
import { childrenOf, rng, sleep, testSeed, uniqueRoot } from '../../support/helpers.js';

const CHAOS_MS = 62_000;
const SESSION_TIMEOUT = 4000;

let ensemble: Ensemble;
let proxies: FaultProxy[] = [];

beforeAll(async () => {
  ensemble = await startEnsemble({ size: 3, tickTime: 500, minSessionTimeout: 1000, maxSessionTimeout: 20_000 });
  proxies = await Promise.all(ensemble.members.map((m) => startFaultProxy({ host: m.host, port: m.port })));
}, 180_000);

afterAll(async () => {
  await Promise.allSettled(proxies.map((p) => p.close()));
  await ensemble?.[Symbol.asyncDispose]();
}, 120_000);

describe('chaos', () => {
  it(`mutex under member kills, cuts and partitions for ${CHAOS_MS / 1000} s: 0 violations, 0 orphans`, async () => {
    const seed = testSeed('lock chaos');
    const random = rng(seed);
    const dir = `${uniqueRoot('chaos')}/lock`;
    const viaProxies = proxies.map((p) => p.connectString).join(',');
    const live = new Set<ZkClient>();
    const everyClient: ZkClient[] = [];
    const holders = new Set<LockHandle>();
    let violations = 0;
    let grants = 0;
    let sessionsReplaced = 0;
    // The client renews an expired session by itself (renewSession): counted here; a client is replaced only when it is over.
    let sessionsRenewed = 0;
    const faults: string[] = [];
    let stop = false;

    const newClient = async (): Promise<ZkClient> => {
      for (;;) {
        try {
          const c = await connect(viaProxies, { sessionTimeout: SESSION_TIMEOUT, connectTimeout: 1000 });
          live.add(c);
          everyClient.push(c);
          c.onStateChange((change) => {
            if (change.state === 'expired') sessionsRenewed++;
          });
          return c;
        } catch {
          if (stop) throw new Error('stopped');
          await sleep(200);
        }
      }
    };

    const worker = async (): Promise<void> => {
      let client = await newClient();
      while (!stop) {
        if (client.state === 'expired' || client.state === 'closed') {
          live.delete(client);
          await client.close().catch(() => undefined);
          client = await newClient();
          sessionsReplaced++;
        }
        try {
          const lease = await new Mutex(client, dir, { lostOn: 'suspended' }).acquire({ timeout: 3000 });
          if (!lease.lost.aborted) {
            for (const other of holders) if (!other.lost.aborted) violations++;
            holders.add(lease);
            grants++;
            await sleep(random() * 10);
            holders.delete(lease);
          }
          await lease.release();
        } catch {
          // timeouts, lost sessions, connection trouble: try again (with a new client if the session is gone)
          await sleep(20);
        }
      }
      live.delete(client);
      await client.close().catch(() => undefined);
    };

    const chaos = async (): Promise<void> => {
      const until = Date.now() + CHAOS_MS;
      // The first rounds cover every kind of fault once; the rest of the schedule is random.
      const scripted = [0.1, 0.4, 0.7, 0.9];
      while (Date.now() < until) {
        await sleep(1000 + random() * 1500);
        const i = Math.floor(random() * 3);
        const pick = scripted.shift() ?? random();
        if (pick < 0.3) {
          faults.push(`kill member ${i}`);
          await ensemble.members[i]!.kill();
          await sleep(1000 + random() * 2000);
          await ensemble.members[i]!.start();
        } else if (pick < 0.6) {
          faults.push(`cut proxy ${i}`);
          proxies[i]!.cut();
        } else if (pick < 0.85) {
          const ms = Math.floor(500 + random() * 2500);
          faults.push(`blackhole proxy ${i} ${ms} ms`);
          proxies[i]!.blackhole();
          await sleep(ms);
          proxies[i]!.cut();
          proxies[i]!.restore();
        } else {
          // Longer than the session timeout on every path: sessions expire, workers must start over.
          faults.push('partition all 5 s');
          for (const p of proxies) p.blackhole();
          await sleep(SESSION_TIMEOUT + 1000);
          for (const p of proxies) {
            p.cut();
            p.restore();
          }
        }
      }
    };

    const workers = Array.from({ length: 6 }, () => worker());
    await chaos();
    for (const p of proxies) p.restore();
    await Promise.all(ensemble.members.map((m) => m.start()));
    // A calm stretch: the lock must work normally again after the faults.
    const grantsBeforeCalm = grants;
    await sleep(4000);
    stop = true;
    await Promise.all(workers);
    await settleCleanups(...everyClient);
    expect(violations, `seed ${seed}; faults: ${faults.join(', ')}`).toBe(0);
    expect(grants - grantsBeforeCalm, 'progress after the faults').toBeGreaterThan(10);
    expect(grants).toBeGreaterThan(100);
    // The schedule really ran: every kind of fault, several times (kills and restarts take seconds each).
    expect(faults.length, faults.join(', ')).toBeGreaterThanOrEqual(8);
    for (const kind of ['kill', 'cut', 'blackhole', 'partition']) expect(faults.some((f) => f.startsWith(kind))).toBe(true);

    // No orphans: every contender node is gone once every client has released or closed.
    const checker = await connect(ensemble.connectString, { sessionTimeout: SESSION_TIMEOUT });
    try {
      const deadline = Date.now() + SESSION_TIMEOUT * 2;
      let left = await childrenOf(checker, dir);
      while (left.length > 0 && Date.now() < deadline) {
        await sleep(200);
        left = await childrenOf(checker, dir);
      }
      expect(left, `orphans; seed ${seed}`).toEqual([]);
      expect(live.size).toBe(0);
    } finally {
      await checker.close();
    }
    console.info(`chaos: seed ${seed}, ${grants} grants, ${sessionsRenewed} sessions renewed, ${sessionsReplaced} clients replaced, faults: ${faults.join('; ')}`);
  }, 240_000);
});
