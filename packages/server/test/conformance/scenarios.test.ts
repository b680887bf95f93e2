// Every conformance scenario, run against real ZooKeeper 3.8 and against startServer: what each client
// observes must be deep-equal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observe, type Scenario } from './harness.js';
import { edgeScenarios } from './scenarios-edges.js';
import { sessionScenarios } from './scenarios-session.js';
import { treeScenarios } from './scenarios-tree.js';
import { watchScenarios } from './scenarios-watches.js';
import { startPair, type ServerPair } from './servers.js';

const all: [string, Scenario][] = [
  ...Object.entries(sessionScenarios),
  ...Object.entries(treeScenarios),
  ...Object.entries(watchScenarios),
  ...Object.entries(edgeScenarios),
];

describe('conformance with ZooKeeper 3.8', () => {
  let pair: ServerPair;
  beforeAll(async () => {
    pair = await startPair();
  });
  afterAll(async () => {
    await pair?.close();
  });

  it('has at least 30 scenarios', () => {
    expect(all.length).toBeGreaterThanOrEqual(30);
  });

  all.forEach(([name, scenario], i) => {
    it(name, async () => {
      const root = `/c${i}`;
      const expected = await observe(pair.zookeeper.connectString, root, scenario);
      const actual = await observe(pair.ours.connectString, root, scenario);
      expect(actual).toEqual(expected);
    });
  });
});
