// Where zkts's contender order and Curator's part, at the 2^31 wrap of ZooKeeper's sequence suffix: the same lock
// directory listings sorted by zkts (sortContenders: serial arithmetic on the parsed number, i.e. creation order)
// and by Curator itself in a JVM (LockInternals.getSortedChildren with StandardLockInternalsDriver: the text after
// "lock-"), plus whom Curator's getsTheLock grants. No server: the listings are what a lock directory holds once its
// cversion has wrapped, which takes 2^31 child changes. The unit side is test/unit/internal/names.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LOCK_MARKERS } from '../../../src/locks/lock-rule.js';
import { parseContender, sortContenders } from '../../../src/internal/names.js';

import { compileCurator, javaMain } from '../../support/foreign.js';
import { BOUNDARY_CASES, namesOf } from '../../support/sequence-boundary.js';

let compiled: ReturnType<typeof compileCurator> | undefined;
beforeAll(() => {
  compiled = compileCurator('CuratorSequenceOrder.java');
});
afterAll(() => compiled?.dispose());

const sequenceOf = (name: string): number => {
  const c = parseContender(name, LOCK_MARKERS);
  if (c === undefined) throw new Error(`not a lock node: ${name}`);
  return c.sequence;
};

/** Curator's sorted listing and the contender it grants, from CuratorSequenceOrder.java. */
async function curatorView(names: readonly string[]): Promise<{ sorted: number[]; granted: number[] }> {
  const jvm = javaMain(compiled!.classpath, 'CuratorSequenceOrder', ...names);
  await jvm.line(/^DONE$/m, 60_000);
  expect(await jvm.exited).toBe(0);
  const out = jvm.output();
  const sorted = [...out.matchAll(/^SORTED (\S+)$/gm)].map((m) => sequenceOf(m[1]!));
  const granted = [...out.matchAll(/^GRANT (\S+) true -$/gm)].map((m) => sequenceOf(m[1]!));
  return { sorted, granted };
}

describe('lock order at the 2^31 wrap: zkts and Curator over the same names', () => {
  for (const c of BOUNDARY_CASES) {
    it(`${c.what}: ${c.parts ? 'the orders part' : 'the same order'}`, async () => {
      const names = namesOf(c);
      const zkts = sortContenders(names, LOCK_MARKERS).map((x) => x.sequence);
      const curator = await curatorView(names);
      expect(zkts).toEqual(c.created);
      expect(curator.sorted).toEqual(c.curator);
      expect(JSON.stringify(curator.sorted) !== JSON.stringify(zkts)).toBe(c.parts);
      // One contender takes the lock in each view: Curator's head, and zkts's (the oldest node). Where the heads
      // differ, a Curator contender and a zkts one on this listing would both hold the lock.
      expect(curator.granted).toEqual([c.curator[0]]);
      expect(zkts[0]).toBe(c.created[0]);
    });
  }

  it('in the wrap case Curator grants the newest node, ahead of the holder created before it', async () => {
    const wrap = BOUNDARY_CASES.find((c) => c.what.startsWith('the wrap'))!;
    const { granted } = await curatorView(namesOf(wrap));
    expect(granted).toEqual([-2_147_483_647]);
    expect(wrap.created.at(-1)).toBe(-2_147_483_647);
    expect(sortContenders(namesOf(wrap), LOCK_MARKERS)[0]?.sequence).toBe(2_147_483_645);
  });
});
