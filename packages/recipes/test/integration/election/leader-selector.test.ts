// LeaderSelector against the real server: turns, requeue by hand, close(), a lost connection, an expired
// session (renewed by the client), a short seeded chaos run (never two live members with un-fired signals) and
// Curator's LeaderSelector taking turns with ours on one path.
import { describe, expect, it } from 'vitest';

import { connect, type ZkClient } from '@zkts/protocol';
import { LeaderSelector, type LeadershipCallback } from '@zkts/recipes';

import { expireSession, victimClient } from '../../support/expiry.js';
import { compileCurator, curator } from '../../support/foreign.js';
import { childrenOf, rng, sharedServer, sleep, testSeed, uniqueRoot, until } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients, proxies } = perTestResources();

/** Resolves when the signal fires. */
const fired = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));

/** A callback that leads until its signal fires, recording its terms. */
function untilLost(log: AbortSignal[]): LeadershipCallback {
  return async (signal) => {
    log.push(signal);
    await fired(signal);
  };
}

describe('LeaderSelector', () => {
  it('members take turns; leaving the callback hands leadership on; Curator node layout with the id as data', async () => {
    const dir = `${uniqueRoot()}/selector`;
    const cs = await clients.many(3);
    const violations: string[] = [];
    const counts = [0, 0, 0];
    const selectors: LeaderSelector[] = [];
    cs.forEach((c, i) => {
      selectors.push(new LeaderSelector(c, dir, async () => {
        for (const [j, other] of selectors.entries()) if (j !== i && other.isLeader) violations.push(`s${i} leads while s${j} does`);
        counts[i]!++;
        if (i === 0 && counts[0] === 1) {
          const ps = await selectors[0]!.participants();
          expect(ps.map((p) => p.data).sort()).toEqual(['s0', 's1', 's2']);
          for (const p of ps) expect(p.node).toMatch(/\/_c_[0-9a-f-]{36}-lock-\d{10}$/);
        }
        await sleep(20);
      }, { id: `s${i}`, autoRequeue: true }));
    });
    for (const s of selectors) s.start();
    await until(() => counts.every((n) => n >= 3), 15_000, 'three terms each');
    await Promise.all(selectors.map((s) => s.close()));
    expect(violations).toEqual([]);
    expect(selectors.reduce((n, s) => n + s.stats.terms, 0)).toBe(counts.reduce((a, b) => a + b, 0));
    expect(await childrenOf(cs[0]!, dir)).toEqual([]);
  });

  it('without autoRequeue one term, then nothing until requeue(); close() fires the signal and waits for the callback', async () => {
    const dir = `${uniqueRoot()}/selector`;
    const c = await clients.connect();
    let terms = 0;
    const s = new LeaderSelector(c, dir, async () => {
      terms++;
      await sleep(10);
    });
    expect(s.requeue()).toBe(false); // not started
    s.start();
    await until(() => terms === 1 && !s.isLeader, 5000, 'first term');
    await sleep(300);
    expect(terms).toBe(1);
    expect(await childrenOf(c, dir)).toEqual([]);
    expect(s.requeue()).toBe(true);
    await until(() => terms === 2, 5000, 'second term');

    // A callback that throws gives leadership up too; onError hears the error.
    const errors: unknown[] = [];
    const thrower = new LeaderSelector(c, `${dir}-throws`, () => Promise.reject(new Error('boom')), { onError: (e) => errors.push(e) });
    thrower.start();
    await until(() => errors.length === 1, 5000, 'error heard');
    expect((errors[0] as Error).message).toBe('boom');
    await until(async () => (await childrenOf(c, `${dir}-throws`)).length === 0, 5000, 'node released');
    expect(() => thrower.start()).toThrow(/already started/);
    await thrower.close();

    const signals: AbortSignal[] = [];
    let returned = false;
    const t = new LeaderSelector(c, dir, async (signal) => {
      signals.push(signal);
      await fired(signal);
      await sleep(100); // close() must wait for this
      returned = true;
    });
    t.start();
    await until(() => t.isLeader, 5000, 't leads');
    await t.close();
    expect(signals[0]!.aborted).toBe(true);
    expect((signals[0]!.reason as Error).name).toBe('RecipeClosedError');
    expect(returned).toBe(true);
    expect(t.stats).toEqual({ terms: 1, interrupted: 1 });
    expect(await childrenOf(c, dir)).toEqual([]);
    expect(() => t.start()).toThrow(/closed/);
    await s.close();
  });

  it('a lost connection ends the term at suspension; it leads again after the reconnect (lostOn "expired" keeps it)', async () => {
    const dir = `${uniqueRoot()}/selector`;
    const victim = await victimClient(clients, proxies);
    const signals: AbortSignal[] = [];
    const s = new LeaderSelector(victim.client, dir, untilLost(signals), { autoRequeue: true });
    s.start();
    await until(() => s.isLeader, 5000, 'leads');
    victim.proxy.cut();
    await until(() => signals[0]!.aborted, 5000, 'signal at suspension');
    expect((signals[0]!.reason as Error).name).toBe('LockLostError');
    await until(() => signals.length === 2 && s.isLeader, 10_000, 'leads again');
    expect(s.stats.interrupted).toBe(1);
    await s.close();

    const patient: AbortSignal[] = [];
    const p = new LeaderSelector(victim.client, `${dir}-patient`, untilLost(patient), { lostOn: 'expired' });
    p.start();
    await until(() => p.isLeader, 5000, 'patient leads');
    victim.proxy.cut();
    await victim.client.connected({ timeout: 10_000 });
    expect(patient[0]!.aborted).toBe(false);
    expect(p.isLeader).toBe(true);
    await p.close();
  });

  it('an expired session fires the signal, the other member leads, and the renewed client leads again later', async () => {
    const dir = `${uniqueRoot()}/selector`;
    const victim = await victimClient(clients, proxies);
    const other = await clients.connect();
    const aSignals: AbortSignal[] = [];
    const bSignals: AbortSignal[] = [];
    const a = new LeaderSelector(victim.client, dir, untilLost(aSignals), { id: 'a', autoRequeue: true, lostOn: 'expired' });
    a.start();
    await until(() => a.isLeader, 5000, 'a leads');
    const b = new LeaderSelector(other, dir, async (signal) => {
      bSignals.push(signal);
      await sleep(200);
    }, { id: 'b', autoRequeue: false });
    b.start();
    await until(async () => (await childrenOf(other, dir)).length === 2, 5000, 'b queued');
    await expireSession(victim, { renewed: true });
    expect(aSignals[0]!.aborted).toBe(true);
    await until(() => bSignals.length === 1, 8000, 'b leads');
    // b gives up after 200 ms; a, back in the queue in its new session, leads again.
    await until(() => aSignals.length === 2 && a.isLeader, 10_000, 'a leads again');
    const nodes = await childrenOf(other, dir);
    expect(nodes).toHaveLength(1);
    expect((await other.exists(`${dir}/${nodes[0]}`))!.ephemeralOwner).toBe(victim.client.sessionId);
    await Promise.all([a.close(), b.close()]);
  });

  it('short chaos: cuts and partitions never leave two live members with un-fired signals', async () => {
    const seed = testSeed('selector chaos');
    const random = rng(seed);
    const dir = `${uniqueRoot()}/selector`;
    const members = await Promise.all([0, 1, 2].map(() => victimClient(clients, proxies, { sessionTimeout: 2000, connectTimeout: 1000 })));
    const violations: string[] = [];
    let terms = 0;
    let calm = false;
    let calmDown = (): void => undefined;
    const calmed = new Promise<void>((resolve) => (calmDown = resolve));
    const selectors: LeaderSelector[] = members.map(
      ({ client }, i) =>
        new LeaderSelector(client, dir, async (signal) => {
          terms++;
          for (const [j, other] of selectors.entries()) if (j !== i && other.isLeader) violations.push(`m${i} leads while m${j} does`);
          // Half the terms are long (until the signal fires, at most 4 s), so faults often hit a running term.
          const ms = calm ? 50 : random() < 0.5 ? 4000 : 100 + random() * 400;
          await Promise.race([fired(signal), sleep(ms), calmed]);
        }, { id: `m${i}`, autoRequeue: true }),
    );
    let expiries = 0;
    for (const { client } of members) client.onStateChange((ch) => void (ch.state === 'expired' && expiries++));
    for (const s of selectors) s.start();
    const faults: string[] = [];
    // At least 12 s, five faults and one partition (an expiry), whatever the seed's draws; never past 30 s.
    const minimumUntil = Date.now() + 12_000;
    const hardStop = Date.now() + 30_000;
    const enough = (): boolean => faults.length >= 5 && faults.some((f) => f.startsWith('partition'));
    while (Date.now() < hardStop && (Date.now() < minimumUntil || !enough())) {
      await sleep(300 + random() * 700);
      // Half the time the fault hits the leader, so leadership must move through it.
      const leader = selectors.findIndex((s) => s.isLeader);
      const m = leader >= 0 && random() < 0.5 ? leader : Math.floor(random() * members.length);
      const proxy = members[m]!.proxy;
      // Late in the run with no partition yet, the next fault is one.
      const owesPartition = Date.now() >= minimumUntil && !faults.some((f) => f.startsWith('partition'));
      if (!owesPartition && random() < 0.6) {
        faults.push(`cut m${m}`);
        proxy.cut();
      } else {
        const ms = Math.floor(2500 + random() * 1000); // longer than the session timeout: expiry, renewal
        faults.push(`partition m${m} ${ms} ms`);
        proxy.blackhole();
        await sleep(ms);
        proxy.cut();
        proxy.restore();
      }
    }
    // Then short terms only: leadership must move round again (nobody is stuck).
    calm = true;
    calmDown();
    const before = terms;
    await until(() => terms > before + 3, 10_000, `leadership moves again after the faults (${selectors.map((s) => s.isLeader).join(' ')})`);
    console.info(`selector chaos: seed ${seed}; ${faults.length} faults (${faults.join('; ')}); ${expiries} expiries; ${terms} terms`);
    await Promise.all(selectors.map((s) => s.close()));
    expect(violations, `seed ${seed}`).toEqual([]);
    expect(faults.length).toBeGreaterThanOrEqual(5);
    expect(expiries).toBeGreaterThanOrEqual(1);
    const checker = await clients.connect();
    expect(await childrenOf(checker, dir)).toEqual([]);
  }, 40_000);

  it("Curator's LeaderSelector and ours take turns on one path", async () => {
    const compiled = compileCurator();
    try {
      const dir = `${uniqueRoot()}/selector`;
      const c: ZkClient = await connect(sharedServer(), { sessionTimeout: 4000 });
      const ours: Array<[bigint, bigint]> = [];
      const s = new LeaderSelector(c, dir, async () => {
        const t0 = process.hrtime.bigint();
        await sleep(50);
        ours.push([t0, process.hrtime.bigint()]);
      }, { id: 'zkts', autoRequeue: true });
      const jvm = curator(compiled.classpath, 'selector', sharedServer(), dir, '5', '50', 'curator');
      s.start();
      let sawCurator = false;
      while (!/DONE/.test(jvm.output())) {
        const ps = await s.participants().catch(() => []);
        if (ps.some((p) => p.data === 'curator')) sawCurator = true;
        await sleep(30);
        if (jvm.proc.exitCode !== null) break;
      }
      await jvm.line(/DONE/, 60_000);
      await s.close();
      await c.close();
      expect(await jvm.exited).toBe(0);
      const theirs = [...jvm.output().matchAll(/TERM curator (\d+) (\d+)/g)].map((m) => [BigInt(m[1]!), BigInt(m[2]!)] as const);
      expect(theirs).toHaveLength(5);
      expect(ours.length).toBeGreaterThanOrEqual(2);
      expect(sawCurator).toBe(true);
      // Turns, not overlaps: no term of ours intersects one of Curator's (one monotonic clock for both).
      for (const [a0, a1] of ours) for (const [b0, b1] of theirs) expect(a1 <= b0 || b1 <= a0, `${a0}-${a1} vs ${b0}-${b1}`).toBe(true);
    } finally {
      compiled.dispose();
    }
  }, 90_000);
});
