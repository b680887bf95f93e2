// The randomized differential run: a seeded workload (ZKTS_SEED to replay one; the seed is printed) goes to
// ZooKeeper 3.8 and to startServer, and the two observation lists must be equal; on a difference, the first
// diverging observation is reported with its neighbours.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observe, type Observation } from './harness.js';
import { randomWorkload } from './random-ops.js';
import { startPair, type ServerPair } from './servers.js';
import { freshSeed, replaySeed } from '../../../../test/support/seed.js';

const OPS = Number(process.env.ZKTS_OPS ?? 1500);
// A fresh seed every run, and two fixed ones that every run covers.
const given = replaySeed();
const seeds = given !== undefined ? [given] : [freshSeed(), 1, 2];

function firstDifference(a: Observation, b: Observation): string | undefined {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) {
      const show = (o: Observation): string => o.slice(Math.max(0, i - 3), i + 2).map((e) => JSON.stringify(e)).join('\n  ');
      return `observation ${i}:\nZooKeeper:\n  ${show(a)}\nours:\n  ${show(b)}`;
    }
  }
  return undefined;
}

describe('randomized differential run against ZooKeeper 3.8', () => {
  let pair: ServerPair;
  beforeAll(async () => {
    // Containers that the workload empties stay until the run ends: the reaper runs on each server's wall
    // clock, so where its deletion lands among the requests would depend on the machine's speed, not the seed.
    pair = await startPair({ containerCheckIntervalMs: 3_600_000 });
  });
  afterAll(async () => {
    await pair?.close();
  });

  for (const seed of seeds) {
    it(`seed ${seed}: ${OPS} operations over 4 sessions`, async () => {
      console.info(`differential run: seed ${seed} (replay: ZKTS_SEED=${seed} ZKTS_OPS=${OPS})`);
      const root = `/r${seed}`;
      const scenario = randomWorkload(seed, OPS);
      const expected = await observe(pair.zookeeper.connectString, root, scenario);
      const actual = await observe(pair.ours.connectString, root, scenario);
      expect(firstDifference(expected, actual)).toBeUndefined();
      expect(actual.length).toBe(expected.length);
    }, 300_000);
  }
});
