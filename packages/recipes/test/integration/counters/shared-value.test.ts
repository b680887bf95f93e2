// SharedValue against the real server: the data is the bytes as given, the seed only creates, versioned writes
// lose to a change made first, listeners follow another client's writes; and Curator's SharedValue (a JVM,
// java/CuratorLayouts.java) on the same node: it starts on our seed, hears our versioned write, and we hear its.
import { describe, expect, it } from 'vitest';

import { SharedValue } from '@zkts/recipes';

import { compileCurator, javaMain } from '../../support/foreign.js';
import { sharedServer, uniqueRoot, until } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients } = perTestResources();

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

describe('SharedValue', () => {
  it('bytes as given, seed, setValue / trySetValue and listeners', async () => {
    const path = `${uniqueRoot()}/parent/value`;
    const [a, b] = await clients.many(2);
    const one = new SharedValue(a!, path, new Uint8Array([0, 255, 7]));
    const two = new SharedValue(b!, path, 'ignored: the node exists');
    expect(() => one.value).toThrow(/not started/);
    await one.start();
    await two.start();
    expect([...one.value]).toEqual([0, 255, 7]);
    expect([...two.value]).toEqual([0, 255, 7]);
    expect([...(await a!.getData(path)).data]).toEqual([0, 255, 7]);
    const heard: string[] = [];
    two.onChange((v) => heard.push(text(v)));
    const v = one.versioned;
    expect(await one.trySetValue(v, 'first')).toBe(true);
    expect(text(one.value)).toBe('first');
    expect(one.versioned.version).toBe(v.version + 1);
    await until(() => text(two.value) === 'first', 5000, 'two hears first');
    expect(await two.trySetValue(v, 'stale view')).toBe(false);
    const seen = two.versioned;
    await one.setValue('second');
    expect(await two.trySetValue(seen, 'lost the race')).toBe(false);
    await until(() => text(two.value) === 'second', 5000, 'two re-read');
    await one.setValue('second'); // the same bytes again: no change to hear
    await one.setValue(new Uint8Array(0));
    await until(() => two.value.length === 0, 5000, 'two hears empty');
    expect(heard).toEqual(['first', 'second', '']);
    expect(text((await a!.getData(path)).data)).toBe('');
    await Promise.all([one.close(), two.close()]);
  });

  it("Curator's SharedValue starts on our seed, hears our write, and we hear its", async () => {
    const compiled = compileCurator('CuratorLayouts.java');
    try {
      const path = `${uniqueRoot()}/value`;
      const c = await clients.connect();
      const ours = new SharedValue(c, path, 'zkts-seed');
      await ours.start();
      const heard: string[] = [];
      ours.onChange((v) => heard.push(text(v)));
      const jvm = javaMain(compiled.classpath, 'CuratorLayouts', 'sv', sharedServer(), path, 'curator-seed', 'from-zkts', 'from-curator');
      expect((await jvm.line(/VALUE (\S+)/, 60_000))[1]).toBe('zkts-seed');
      const before = ours.versioned;
      expect(await ours.trySetValue(before, 'from-zkts')).toBe(true);
      await jvm.line(/HEARD from-zkts/, 60_000);
      await jvm.line(/^SET$/m, 60_000);
      await until(() => text(ours.value) === 'from-curator', 10_000, 'we hear Curator');
      expect(heard).toEqual(['from-zkts', 'from-curator']);
      expect(await ours.trySetValue(before, 'stale')).toBe(false); // Curator's write moved the version on
      expect(await jvm.exited).toBe(0);
      expect(text((await c.getData(path)).data)).toBe('from-curator');

      // A node Curator made first: its seed is what we start on.
      const theirs = `${path}-curator`;
      const first = javaMain(compiled.classpath, 'CuratorLayouts', 'sv', sharedServer(), theirs, 'curator-seed', 'curator-seed', 'curator-write');
      await first.line(/^DONE$/m, 60_000);
      const late = new SharedValue(c, theirs, 'zkts-seed');
      await late.start();
      expect(text(late.value)).toBe('curator-write');
      await Promise.all([ours.close(), late.close()]);
    } finally {
      compiled.dispose();
    }
  }, 120_000);
});
