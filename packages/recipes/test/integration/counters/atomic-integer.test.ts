// DistributedAtomicInteger against the real server: Curator's format (4-byte big-endian int, empty reads as 0),
// Java int wrap-around, and Curator's DistributedAtomicInteger (a JVM) incrementing the same node at the same time
// as two zkts clients (racing for its whole run): the sum is exact on both sides.
import { describe, expect, it } from 'vitest';

import { DistributedAtomicInteger, DistributedAtomicLong } from '@zkts/recipes';

import { compileCurator, javaMain } from '../../support/foreign.js';
import { childrenOf, sharedServer, uniqueRoot } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients } = perTestResources();

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('DistributedAtomicInteger', () => {
  it("Curator's format (4-byte big-endian int) and operations, wrapping as a Java int", async () => {
    const path = `${uniqueRoot()}/int`;
    const c = await clients.connect();
    const n = new DistributedAtomicInteger(c, path);
    expect(await n.get()).toBe(0);
    expect(await n.initialize(5)).toBe(true); // parents made as needed
    expect(await n.initialize(9)).toBe(false);
    expect(await n.increment()).toEqual({ succeeded: true, preValue: 5, postValue: 6 });
    expect(hex((await c.getData(path)).data)).toBe('00000006');
    expect((await n.subtract(10)).postValue).toBe(-4);
    expect(hex((await c.getData(path)).data)).toBe('fffffffc');
    expect(await n.compareAndSet(7, 1)).toEqual({ succeeded: false, preValue: -4, postValue: -4 });
    expect((await n.compareAndSet(-4, 2 ** 31 - 1)).succeeded).toBe(true);
    expect(await n.increment()).toEqual({ succeeded: true, preValue: 2 ** 31 - 1, postValue: -(2 ** 31) });
    expect(hex((await c.getData(path)).data)).toBe('80000000');
    expect((await n.decrement()).postValue).toBe(2 ** 31 - 1);
    expect((await n.trySet(3)).postValue).toBe(3);
    await c.setData(path, new Uint8Array(0));
    expect(await n.get()).toBe(0); // empty data reads as 0, as in Curator
    // A long's 8 bytes are not an int: refused, not misread.
    const long = new DistributedAtomicLong(c, path);
    await long.trySet(1n);
    await expect(n.get()).rejects.toThrow(/not a 4-byte int: 8 bytes/);
    await Promise.all([n.close(), long.close()]);
    expect(await childrenOf(c, path)).toEqual([]); // the receipt went at close()
  });

  it("Curator's DistributedAtomicInteger and two zkts clients increment one node at once: the sum is exact", async () => {
    const compiled = compileCurator('CuratorLayouts.java');
    try {
      const path = `${uniqueRoot()}/int`;
      const [a, b] = await clients.many(2);
      const ours = [new DistributedAtomicInteger(a!, path), new DistributedAtomicInteger(b!, path)];
      expect(await ours[0]!.initialize(1000)).toBe(true);
      const jvm = javaMain(compiled.classpath, 'CuratorLayouts', 'atomic-int', sharedServer(), path, '60');
      // Ours keep incrementing until Curator is done, so the two sides overlap for the whole of Curator's run.
      let jvmDone = false;
      void jvm.exited.then(() => (jvmDone = true));
      const applied = [0, 0];
      await Promise.all(ours.map(async (n, i) => {
        while (!jvmDone || applied[i]! < 20) {
          if ((await n.increment()).succeeded) applied[i]!++;
        }
      }));
      const value = Number((await jvm.line(/VALUE (-?\d+)/, 60_000))[1]);
      expect(await jvm.exited).toBe(0);
      expect(value).toBeGreaterThanOrEqual(1060); // what Curator last read holds at least its own 60
      const total = 1000 + 60 + applied[0]! + applied[1]!;
      expect(await ours[0]!.get()).toBe(total);
      expect(hex((await a!.getData(path)).data)).toBe(total.toString(16).padStart(8, '0'));
      expect(ours[0]!.stats.conflicts + ours[1]!.stats.conflicts).toBeGreaterThan(0); // they did race
      await Promise.all(ours.map((n) => n.close()));
    } finally {
      compiled.dispose();
    }
  }, 120_000);
});
