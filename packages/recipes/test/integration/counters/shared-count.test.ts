// SharedCount against the real server: Curator's format (4-byte big-endian int, seeded), versioned writes,
// listeners following foreign writes through a lost connection and an expired session, concurrent
// trySetCount incrementers through cuts (exact), and Curator's SharedCount sharing the node both ways.
import { describe, expect, it } from 'vitest';

import { SharedCount } from '@zkts/recipes';

import { cutAtRandom, expireSession, victimClient } from '../../support/expiry.js';
import { compileCurator, curator } from '../../support/foreign.js';
import { rng, sharedServer, sleep, testSeed, uniqueRoot, until } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients, proxies } = perTestResources();

const int = (n: number): Uint8Array => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setInt32(0, n);
  return b;
};

describe('SharedCount', () => {
  it("Curator's format, seed, setCount / trySetCount and listeners", async () => {
    const path = `${uniqueRoot()}/parent/count`;
    const [a, b] = await clients.many(2);
    const one = new SharedCount(a!, path, 7);
    const two = new SharedCount(b!, path, 99); // the node exists: the seed is ignored
    expect(() => one.count).toThrow(/not started/);
    await one.start();
    await two.start();
    expect([one.count, two.count]).toEqual([7, 7]);
    expect(Buffer.from((await a!.getData(path)).data).toString('hex')).toBe('00000007');
    const heard: number[] = [];
    two.onChange((n) => heard.push(n));
    const v = one.versioned;
    expect(await one.trySetCount(v, 8)).toBe(true);
    expect(one.versioned).toEqual({ value: 8, version: v.version + 1 });
    await until(() => two.count === 8, 5000, 'two hears 8');
    expect(await two.trySetCount({ value: 7, version: v.version }, 100)).toBe(false); // stale view
    await one.setCount(-3);
    await until(() => two.count === -3, 5000, 'two hears -3');
    // two's view is current now, but one writes first: the versioned write loses.
    const seen = two.versioned;
    await one.setCount(1);
    expect(await two.trySetCount(seen, 50)).toBe(false);
    await until(() => two.count === 1, 5000, 'two re-read');
    expect(heard).toEqual([8, -3, 1]);
    await expect(one.setCount(2 ** 31)).rejects.toMatchObject({ code: 'INVALID_USE' });
    await Promise.all([one.close(), two.close()]);
  });

  it('listeners hear writes made while the connection was lost and across an expired session', async () => {
    const path = `${uniqueRoot()}-count`;
    const victim = await victimClient(clients, proxies);
    const writer = await clients.connect();
    const count = new SharedCount(victim.client, path, 0);
    await count.start();
    const heard: number[] = [];
    count.onChange((n) => heard.push(n));
    victim.proxy.blackhole();
    await writer.setData(path, int(5));
    await sleep(300);
    expect(count.count).toBe(0);
    victim.proxy.cut();
    victim.proxy.restore();
    await until(() => count.count === 5, 10_000, 'heard after reconnect');
    await expireSession(victim, { renewed: true });
    await writer.setData(path, int(6));
    await until(() => count.count === 6, 10_000, 'heard in the new session');
    expect(await count.trySetCount(count.versioned, 7)).toBe(true);
    expect(heard).toEqual([5, 6, 7]);
    await count.close();
  });

  it('4 trySetCount incrementers × 150 through connection cuts: exact', async () => {
    const seed = testSeed('shared count chaos');
    const random = rng(seed);
    const path = `${uniqueRoot()}-count`;
    const victims = await Promise.all([0, 1, 2, 3].map(() => victimClient(clients, proxies, { sessionTimeout: 10_000 })));
    const counts = victims.map((v) => new SharedCount(v.client, path, 0));
    for (const c of counts) await c.start();
    const chaos = cutAtRandom(victims, random);
    await Promise.all(
      counts.map(async (c) => {
        for (let i = 0; i < 150; i++) {
          await chaos.reached(Math.floor(i / 20));
          for (;;) {
            const v = c.versioned;
            if (await c.trySetCount(v, v.value + 1)) break;
            await sleep(random() * 5);
          }
        }
      }),
    );
    const cuts = await chaos.stop();
    const checker = new SharedCount(await clients.connect(), path, 0);
    await checker.start();
    console.info(`shared count chaos: seed ${seed}; ${cuts} cuts`);
    expect(checker.count, `seed ${seed}`).toBe(600);
    expect(cuts).toBeGreaterThan(5);
    await Promise.all([...counts, checker].map((c) => c.close()));
  }, 60_000);

  it("Curator's SharedCount and ours share one count", async () => {
    const compiled = compileCurator();
    try {
      const path = `${uniqueRoot()}-count`;
      const c = await clients.connect();
      const ours = new SharedCount(c, path, 10);
      await ours.start();
      const heard: number[] = [];
      ours.onChange((n) => heard.push(n));
      const jvm = curator(compiled.classpath, 'shared-count', sharedServer(), path, '3');
      expect((await jvm.line(/VALUE (-?\d+)/, 60_000))[1]).toBe('13');
      expect(await jvm.exited).toBe(0);
      await until(() => ours.count === 13, 5000, 'we hear Curator');
      expect(heard.at(-1)).toBe(13);
      expect(await ours.trySetCount(ours.versioned, 20)).toBe(true);
      const jvm2 = curator(compiled.classpath, 'shared-count', sharedServer(), path, '1');
      expect((await jvm2.line(/VALUE (-?\d+)/, 60_000))[1]).toBe('21'); // Curator read ours
      await ours.close();
    } finally {
      compiled.dispose();
    }
  }, 90_000);
});
