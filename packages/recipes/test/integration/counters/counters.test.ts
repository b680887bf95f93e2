// Counters against the real server: Curator's DistributedAtomicLong format and operations, kazoo's Counter
// formats, exactness of 8 concurrent incrementers through connection cuts (lost replies settled by the
// receipt), carrying on after an expired session, and interop with Curator (a JVM) and kazoo (python3).
import { describe, expect, it } from 'vitest';

import { noRetry, type ZkClient } from '@zkts/protocol';
import { Counter, DistributedAtomicLong } from '@zkts/recipes';

import { cutAtRandom, expireSession, victimClient } from '../../support/expiry.js';
import { checkKazoo, compileCurator, curator, kazooCounter } from '../../support/foreign.js';
import { childrenOf, rng, sharedServer, testSeed, text, uniqueRoot } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients, proxies } = perTestResources();

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('DistributedAtomicLong', () => {
  it("Curator's format (8-byte big-endian long) and operations", async () => {
    const path = `${uniqueRoot()}-long`;
    const c = await clients.connect();
    const n = new DistributedAtomicLong(c, path);
    expect(await n.get()).toBe(0n);
    expect(await n.initialize(5n)).toBe(true);
    expect(await n.initialize(9n)).toBe(false);
    expect(await n.increment()).toEqual({ succeeded: true, preValue: 5n, postValue: 6n });
    expect(hex((await c.getData(path)).data)).toBe('0000000000000006');
    expect((await n.subtract(10n)).postValue).toBe(-4n);
    expect(hex((await c.getData(path)).data)).toBe('fffffffffffffffc');
    expect(await n.compareAndSet(7n, 1n)).toEqual({ succeeded: false, preValue: -4n, postValue: -4n });
    expect((await n.compareAndSet(-4n, 2n ** 40n)).succeeded).toBe(true);
    expect((await n.trySet(3n)).postValue).toBe(3n);
    expect(await n.get()).toBe(3n);
    await c.setData(path, new Uint8Array(0));
    expect(await n.get()).toBe(0n); // empty data reads as 0, as in Curator
    await n.close();
    expect(await childrenOf(c, path)).toEqual([]); // the receipt went at close()
  });

  it('a change that keeps losing races reports succeeded: false, and promotion to a lock gets it through', async () => {
    const root = uniqueRoot();
    const [a, b] = (await clients.many(2)) as [ZkClient, ZkClient];
    const path = `${root}/long`;
    const lockDir = `${root}/lock`;
    // A rival bumps the version between each of our reads and our write, unless we hold the promotion lock.
    const rival = new DistributedAtomicLong(b, path);
    expect(await rival.initialize(0n)).toBe(true); // parents made as needed
    const read = a.getData.bind(a);
    let interfered = 0;
    let quietUnderLock = 0;
    a.getData = (async (...args: Parameters<ZkClient['getData']>) => {
      const r = await read(...args);
      if (args[0] === path) {
        if ((await childrenOf(b, lockDir)).length === 0) {
          interfered++;
          await rival.increment();
        } else quietUnderLock++;
      }
      return r;
    }) as ZkClient['getData'];
    const plain = new DistributedAtomicLong(a, path, { retry: noRetry });
    expect((await plain.increment()).succeeded).toBe(false);
    expect(interfered).toBe(1);
    const promoted = new DistributedAtomicLong(a, path, { retry: noRetry, promoteToLock: { path: lockDir, retry: noRetry } });
    const r = await promoted.increment();
    expect(r).toEqual({ succeeded: true, preValue: 2n, postValue: 3n });
    expect([interfered, quietUnderLock]).toEqual([2, 1]); // the optimistic try lost; the try under the lock won
    expect(await rival.get()).toBe(3n);
    expect(await childrenOf(b, lockDir)).toEqual([]);
  });

  it('8 incrementers × 250 through connection cuts: the final value is exact', async () => {
    const seed = testSeed('counter chaos');
    const random = rng(seed);
    const path = `${uniqueRoot()}-long`;
    const victims = await Promise.all(Array.from({ length: 8 }, () => victimClient(clients, proxies, { sessionTimeout: 10_000 })));
    const counters = victims.map((v) => new DistributedAtomicLong(v.client, path, { retry: noRetry }));
    const chaos = cutAtRandom(victims, random);
    const started = Date.now();
    await Promise.all(
      counters.map(async (n) => {
        for (let i = 0; i < 250; i++) {
          await chaos.reached(Math.floor(i / 20));
          while (!(await n.increment()).succeeded);
        }
      }),
    );
    const cuts = await chaos.stop();
    const settled = counters.reduce((s, n) => s + n.stats.settledByReceipt, 0);
    const conflicts = counters.reduce((s, n) => s + n.stats.conflicts, 0);
    console.info(`counter chaos: seed ${seed}; ${cuts} cuts; ${settled} lost replies settled by receipt; ${conflicts} conflicts; ${Date.now() - started} ms`);
    const checker = await clients.connect();
    expect(await new DistributedAtomicLong(checker, path).get(), `seed ${seed}`).toBe(2000n);
    expect(cuts).toBeGreaterThan(10);
    expect(settled).toBeGreaterThan(0); // replies really were lost mid-write
    await Promise.all(counters.map((n) => n.close()));
  }, 60_000);

  it('carries on after an expired session: the receipt is made again in the new session', async () => {
    const path = `${uniqueRoot()}-long`;
    const victim = await victimClient(clients, proxies);
    const n = new DistributedAtomicLong(victim.client, path);
    await n.increment();
    await expireSession(victim, { renewed: true });
    expect((await n.increment()).postValue).toBe(2n);
    const kids = await childrenOf(victim.client, path);
    expect(kids).toHaveLength(1);
    expect((await victim.client.exists(`${path}/${kids[0]}`))!.ephemeralOwner).toBe(victim.client.sessionId);
    await n.close();
  });

  it("Curator's DistributedAtomicLong increments ours and we read theirs", async () => {
    const compiled = compileCurator();
    try {
      const path = `${uniqueRoot()}-long`;
      const c = await clients.connect();
      const n = new DistributedAtomicLong(c, path);
      await n.add(40n);
      const jvm = curator(compiled.classpath, 'atomic-long', sharedServer(), path, '2');
      expect((await jvm.line(/VALUE (-?\d+)/, 60_000))[1]).toBe('42');
      expect(await jvm.exited).toBe(0);
      expect(await n.get()).toBe(42n);
      // A counter Curator made first: we read and change it.
      const theirs = `${path}-curator`;
      const jvm2 = curator(compiled.classpath, 'atomic-long', sharedServer(), theirs, '3');
      await jvm2.line(/DONE/, 60_000);
      expect((await new DistributedAtomicLong(c, theirs).increment()).postValue).toBe(4n);
      await n.close();
    } finally {
      compiled.dispose();
    }
  }, 90_000);
});

describe('Counter (kazoo)', () => {
  it("kazoo's formats: repr text for int and float counters, 4-byte ints with supportCurator", async () => {
    const root = uniqueRoot();
    const c = await clients.connect();
    const ints = new Counter(c, `${root}-int`);
    expect(await ints.value()).toBe(0);
    expect(await ints.add(5)).toEqual({ preValue: 0, postValue: 5 });
    expect(await ints.subtract(7)).toEqual({ preValue: 5, postValue: -2 });
    expect(text((await c.getData(`${root}-int`)).data)).toBe('-2');
    const floats = new Counter(c, `${root}-float`, { float: true, default: 1 });
    await floats.add(2);
    expect(text((await c.getData(`${root}-float`)).data)).toBe('3.0');
    await floats.add(0.5);
    expect(await floats.value()).toBe(3.5);
    const cur = new Counter(c, `${root}-curator`, { supportCurator: true });
    await cur.add(258);
    expect(hex((await c.getData(`${root}-curator`)).data)).toBe('00000102');
    await c.setData(`${root}-int`, 'x');
    await expect(ints.value()).rejects.toMatchObject({ code: 'INVALID_USE' });
    expect(() => new Counter(c, root, { float: true, supportCurator: true })).toThrow(/integers only/);
    await Promise.all([ints.close(), floats.close(), cur.close()]);
  });

  it("kazoo's Counter and ours change one counter, in both of kazoo's formats", async () => {
    checkKazoo();
    const root = uniqueRoot();
    const c = await clients.connect();
    for (const curatorFormat of [false, true]) {
      const path = `${root}-${curatorFormat ? 'curator' : 'text'}`;
      const ours = new Counter(c, path, { supportCurator: curatorFormat });
      await ours.add(10);
      const py = kazooCounter(sharedServer(), path, 5, curatorFormat);
      expect((await py.line(/VALUE (\S+)/, 30_000))[1]).toBe('15');
      expect(await py.exited).toBe(0);
      expect((await ours.add(1)).postValue).toBe(16);
      // kazoo reads our write (a fresh kazoo process, no changes).
      const py2 = kazooCounter(sharedServer(), path, 0, curatorFormat);
      expect((await py2.line(/VALUE (\S+)/, 30_000))[1]).toBe('16');
      await ours.close();
    }
  }, 60_000);
});
