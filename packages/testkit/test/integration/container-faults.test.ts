// The faults only containers give (a fault proxy sits between client and server; these are between the
// servers): a member isolated from its peers while clients still reach it, a minority/majority partition,
// a frozen JVM, and heal. One 3-member ensemble for the file; each test heals what it did.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { modeOf, partitionsUnavailableReason, startEnsemble } from '../../src/index.js';
import { containerBackend, titled } from '../contract/backends.js';
import { openSession } from '../support/raw-zk.js';

import type { ContainerEnsemble, ContainerZooKeeperServer } from '../../src/index.js';

const b = await containerBackend();
const why = b.unavailable ?? partitionsUnavailableReason();
const backend = { ...b, unavailable: why };

async function mode(member: ContainerZooKeeperServer): Promise<string> {
  return modeOf(await member.fourLetter('srvr', 2000).catch(() => '')) ?? 'not serving';
}

/** Polls until `member`'s srvr mode is `want` (30 s). */
async function until(member: ContainerZooKeeperServer, want: string): Promise<void> {
  let got = '';
  for (let i = 0; i < 150; i++) {
    got = await mode(member);
    if (got === want) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`member ${member.myid} is ${got}, not ${want}`);
}

/** A leader among `among` (the isolated old leader may still call itself leader for a moment). */
async function leaderAmong(among: ContainerZooKeeperServer[]): Promise<ContainerZooKeeperServer> {
  for (let i = 0; i < 150; i++) {
    for (const m of among) if ((await mode(m)) === 'leader') return m;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('no leader among the majority');
}

describe.skipIf(why !== undefined)(titled('container ensemble faults', backend), () => {
  let ensemble: ContainerEnsemble;
  beforeAll(async () => {
    ensemble = await startEnsemble({ backend: 'container', size: 3, tickTime: 500 });
  });
  afterEach(async () => {
    await ensemble?.heal();
  });
  afterAll(async () => {
    await ensemble?.[Symbol.asyncDispose]();
  });

  it('isolate(leader): the others elect a leader, clients still reach the isolated one; heal: it rejoins with the data', async () => {
    const old = (await ensemble.leader()) as ContainerZooKeeperServer;
    const others = ensemble.members.filter((m) => m !== old);
    await ensemble.isolate(old);
    const next = await leaderAmong(others);
    {
      await using session = await openSession(next.host, next.port);
      expect(await session.create('/while-isolated', 'majority')).toBe(0);
    }
    // Cut from its peers the old leader stops serving, but its port answers: clients are not cut off.
    await until(old, 'not serving');
    expect(await old.fourLetter('srvr')).toMatch(/not currently serving/);
    await ensemble.heal();
    await until(old, 'follower');
    await using session = await openSession(old.host, old.port);
    expect(await session.getData('/while-isolated')).toEqual({ err: 0, data: 'majority' });
  });

  it('partition([a], [b, c]): the minority stops serving, the majority keeps a leader; faults survive a restart', async () => {
    const [a, bb, c] = ensemble.members as [ContainerZooKeeperServer, ContainerZooKeeperServer, ContainerZooKeeperServer];
    await ensemble.partition([a], [bb, c]);
    await until(a, 'not serving');
    await leaderAmong([bb, c]);
    // A restarted member is a new process in a new network namespace: the cut is re-applied to it.
    await bb.restart();
    await leaderAmong([bb, c]);
    await new Promise((r) => setTimeout(r, 3000));
    expect(await mode(a)).toBe('not serving');
    await ensemble.heal();
    await until(a, 'follower');
    await ensemble.leader();
  });

  it('pause(member): a frozen JVM answers nothing, the others go on; unpause: it serves again', async () => {
    const leader = (await ensemble.leader()) as ContainerZooKeeperServer;
    const others = ensemble.members.filter((m) => m !== leader);
    await ensemble.pause(leader);
    expect(leader.paused).toBe(true);
    await expect(leader.fourLetter('ruok', 1500)).rejects.toThrow(/timed out/);
    await leaderAmong(others);
    await ensemble.unpause(leader);
    await until(leader, 'follower');
  });
});
