// LeaderElection and Curator's LeaderLatch (in a JVM) in one election: the same nodes (`_c_<uuid>-latch-<seq>`,
// the id as data), one order, one leader at a time, and leadership handed over both ways when the leader leaves.
import { afterEach, describe, expect, it } from 'vitest';

import { connect } from '@zkts/protocol';
import { LeaderElection } from '@zkts/recipes';

import { compileCurator, curator, killAll } from '../../support/foreign.js';
import { sharedServer, uniqueRoot, until } from '../../support/helpers.js';

afterEach(() => killAll());

describe("LeaderElection with Curator's LeaderLatch", () => {
  it('queue in one election and hand leadership over both ways', async () => {
    const compiled = compileCurator();
    const zk = await connect(sharedServer());
    try {
      const path = `${uniqueRoot()}/election`;
      // Curator joins first and leads; we queue behind it and read its node as the leader.
      const first = curator(compiled.classpath, 'latch', sharedServer(), path, 'curator-1');
      await first.line(/^LEADER curator-1$/m, 60_000);
      const ours = new LeaderElection(zk, path, { id: 'zkts' });
      await ours.start();
      expect((await ours.participants()).map((p) => [p.id, p.isLeader])).toEqual([['curator-1', true], ['zkts', false]]);
      expect(ours.isLeader).toBe(false);
      for (const p of await ours.participants()) expect(p.node).toMatch(/\/_c_[0-9a-f-]{36}-latch-\d{10}$/);

      // Curator leaves: we lead.
      first.proc.stdin!.write('\n');
      await first.line(/^CLOSED$/m);
      const term = await ours.awaitLeadership({ timeout: 10_000 });
      expect(ours.isLeader).toBe(true);

      // A second Curator latch queues behind us and leads only once we leave.
      const second = curator(compiled.classpath, 'latch', sharedServer(), path, 'curator-2');
      await until(async () => (await ours.participants()).some((p) => p.id === 'curator-2'), 60_000, 'curator-2 joined');
      expect((await ours.participants()).map((p) => [p.id, p.isLeader])).toEqual([['zkts', true], ['curator-2', false]]);
      expect(second.output()).not.toMatch(/LEADER/);
      await ours.close();
      expect(term.aborted).toBe(true);
      await second.line(/^LEADER curator-2$/m, 30_000);
      second.proc.stdin!.write('\n');
      expect(await second.exited).toBe(0);
    } finally {
      await zk.close();
      compiled.dispose();
    }
  }, 120_000);
});
