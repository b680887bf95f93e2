// Election chaos: 5 participants, each with its own client, a LeaderElection (lostOn: 'suspended', so leadership
// counts as lost at suspension, as Curator's standard error policy has it) and a PersistentNode (a protected
// ephemeral-sequential registration), on a 3-member ensemble. Each participant reaches each member through its
// own fault proxy (5 × 3 proxies), so a fault can hit one participant (a partition longer than the session
// timeout: its session expires and the client renews it), one member (its clients cut or frozen), or everyone.
// For ≥ 60 s of seeded faults (member kills, cuts, partitions) it checks, at every start of a leadership term:
// no other participant holds a term whose signal has not fired, and fencing tokens (the leader node's czxid)
// never go back nor repeat for another node. Within 2× the session timeout after the faults stop there must be
// exactly one leader, each participant in the election once, and all 5 persistent nodes, owned by the current
// sessions. Replay a schedule with ZKTS_SEED=<seed> (the seed is printed first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { basename, connect, type ZkClient } from '@zkts/protocol';
import { LeaderElection, PersistentNode } from '@zkts/recipes';
import { startEnsemble, startFaultProxy, type Ensemble, type FaultProxy } from '@zkts/testkit';

import { childrenOf, rng, sleep, testSeed, uniqueRoot } from '../../support/helpers.js';

const CHAOS_MS = 60_000;
const SESSION_TIMEOUT = 4000;
const PARTICIPANTS = 5;
const MEMBERS = 3;

let ensemble: Ensemble;
/** proxies[participant][member] */
let proxies: FaultProxy[][] = [];

beforeAll(async () => {
  ensemble = await startEnsemble({ size: MEMBERS, tickTime: 500, minSessionTimeout: 1000, maxSessionTimeout: 20_000 });
  proxies = await Promise.all(
    Array.from({ length: PARTICIPANTS }, () => Promise.all(ensemble.members.map((m) => startFaultProxy({ host: m.host, port: m.port })))),
  );
}, 180_000);

afterAll(async () => {
  await Promise.allSettled(proxies.flat().map((p) => p.close()));
  await ensemble?.[Symbol.asyncDispose]();
}, 120_000);

interface Participant {
  readonly id: string;
  readonly client: ZkClient;
  readonly election: LeaderElection;
  readonly node: PersistentNode;
  expiries: number;
}

type FaultKind = 'kill member' | 'cut participant' | 'cut member' | 'partition participant' | 'freeze member' | 'partition all';
const KINDS: readonly FaultKind[] = ['kill member', 'cut participant', 'cut member', 'partition participant', 'freeze member', 'partition all'];

async function heal(ps: readonly FaultProxy[]): Promise<void> {
  for (const p of ps) {
    p.cut();
    p.restore();
  }
}

describe('election chaos', () => {
  it(`5 participants with LeaderElection + PersistentNode under ${CHAOS_MS / 1000} s of kills, cuts and partitions`, async () => {
    const seed = testSeed('election chaos');
    const random = rng(seed);
    const root = uniqueRoot('election-chaos');
    const electionDir = `${root}/election`;
    const servicesDir = `${root}/services`;
    const violations: string[] = [];
    const faults: string[] = [];
    let terms = 0;
    // Faults that end a term under way (a partition of the leader, or of everyone, while someone leads): each one
    // must be followed by another term, so there are more terms than these. How many other faults reach the leader
    // depends on which member each client happens to be on, so they are not counted on.
    let forcedHandovers = 0;
    let last: { token: bigint; node: string } | undefined;

    const participants: Participant[] = await Promise.all(
      proxies.map(async (mine, i): Promise<Participant> => {
        const client = await connect(mine.map((p) => p.connectString).join(','), { sessionTimeout: SESSION_TIMEOUT, connectTimeout: 1000 });
        const id = `p${i}`;
        const election = new LeaderElection(client, electionDir, { id, lostOn: 'suspended' });
        const node = new PersistentNode(client, `${servicesDir}/member-`, { mode: 'ephemeral-sequential', data: id });
        return { id, client, election, node, expiries: 0 };
      }),
    );
    for (const p of participants) {
      p.client.onStateChange((c) => {
        if (c.state === 'expired') p.expiries++;
      });
      p.election.onChange((leader) => {
        if (!leader) return;
        const term = p.election.leadership!;
        terms++;
        for (const other of participants) {
          const held = other.election.leadership;
          if (other !== p && held !== undefined && !held.signal.aborted) violations.push(`${p.id} leads while ${other.id} still leads`);
        }
        if (last !== undefined && (term.fencingToken < last.token || (term.fencingToken === last.token && term.node !== last.node))) {
          violations.push(`${p.id}'s token ${term.fencingToken} after ${last.token} (${last.node})`);
        }
        last = { token: term.fencingToken, node: term.node };
      });
    }
    for (const p of participants) {
      await p.election.start();
      p.node.start();
    }
    await Promise.any(participants.map((p) => p.election.awaitLeadership({ timeout: 10_000 })));

    const chaos = async (): Promise<void> => {
      const until = Date.now() + CHAOS_MS;
      const scripted: FaultKind[] = ['partition participant', 'kill member', 'cut participant', 'freeze member', 'cut member', 'partition all'];
      while (Date.now() < until) {
        await sleep(800 + random() * 1200);
        const kind = scripted.shift() ?? KINDS[Math.min(KINDS.length - 1, Math.floor(random() ** 1.3 * KINDS.length))]!;
        const m = Math.floor(random() * MEMBERS);
        const who = Math.floor(random() * PARTICIPANTS);
        const members = proxies.map((mine) => mine[m]!);
        switch (kind) {
          case 'kill member': {
            const down = Math.floor(1000 + random() * 2000);
            faults.push(`kill member ${m} ${down} ms`);
            await ensemble.members[m]!.kill();
            await sleep(down);
            await ensemble.members[m]!.start();
            break;
          }
          case 'cut participant':
            faults.push(`cut p${who}`);
            await heal(proxies[who]!);
            break;
          case 'cut member':
            faults.push(`cut member ${m}`);
            await heal(members);
            break;
          case 'freeze member': {
            const ms = Math.floor(500 + random() * 2500);
            faults.push(`freeze member ${m} ${ms} ms`);
            for (const p of members) p.blackhole();
            await sleep(ms);
            await heal(members);
            break;
          }
          case 'partition participant': {
            // Longer than the session timeout: the participant's session expires; its client renews it. Half the
            // time (and the first time) it is the leader, so leadership must move through an expiry.
            const leader = participants.findIndex((p) => p.election.isLeader);
            const target = leader >= 0 && (faults.length === 0 || random() < 0.5) ? leader : who;
            const ms = Math.floor(SESSION_TIMEOUT + 1000 + random() * 1000);
            faults.push(`partition p${target}${target === leader ? ' (leader)' : ''} ${ms} ms`);
            if (target === leader) forcedHandovers++;
            for (const p of proxies[target]!) p.blackhole();
            await sleep(ms);
            await heal(proxies[target]!);
            break;
          }
          case 'partition all': {
            const ms = SESSION_TIMEOUT + 1000;
            faults.push(`partition all ${ms} ms`);
            if (participants.some((p) => p.election.isLeader)) forcedHandovers++;
            for (const p of proxies.flat()) p.blackhole();
            await sleep(ms);
            await heal(proxies.flat());
            break;
          }
        }
      }
    };
    await chaos();
    for (const p of proxies.flat()) p.restore();
    await Promise.all(ensemble.members.map((m) => m.start()));
    const healedAt = Date.now();

    // Within 2× the session timeout: one leader (the first node), everyone in the election once, all 5 nodes.
    const checker = await connect(ensemble.connectString, { sessionTimeout: SESSION_TIMEOUT });
    const settled = async (): Promise<string | undefined> => {
      const leaders = participants.filter((p) => p.election.isLeader);
      if (leaders.length !== 1) return `${leaders.length} leaders`;
      const election = await childrenOf(checker, electionDir);
      if (election.length !== PARTICIPANTS) return `${election.length} election nodes`;
      const sorted = [...election].sort((a, b) => Number(a.slice(-10)) - Number(b.slice(-10)));
      if (basename(leaders[0]!.election.node ?? '') !== sorted[0]) return 'the leader is not the first node';
      const services = new Set(await childrenOf(checker, servicesDir));
      for (const p of participants) {
        const path = p.node.currentPath;
        if (path === undefined || !services.has(basename(path))) return `${p.id} has no node`;
        const stat = await checker.exists(path);
        if (stat?.ephemeralOwner !== p.client.sessionId) return `${p.id}'s node is not its session's`;
        const own = p.election.node === undefined ? null : await checker.exists(p.election.node);
        if (own?.ephemeralOwner !== p.client.sessionId) return `${p.id}'s election node is not its session's`;
      }
      if (services.size !== PARTICIPANTS) return `${services.size} service nodes`;
      return undefined;
    };
    let why = await settled().catch((e: unknown) => String(e));
    while (why !== undefined && Date.now() - healedAt < 2 * SESSION_TIMEOUT) {
      await sleep(100);
      why = await settled().catch((e: unknown) => String(e));
    }
    const convergedMs = Date.now() - healedAt;

    const expiries = participants.map((p) => p.expiries);
    const rejoins = participants.map((p) => p.election.stats.renewals);
    const nodeLosses = participants.map((p) => p.node.stats.losses);
    console.info(
      `election chaos: seed ${seed}; ${faults.length} faults (${faults.join('; ')}); ${terms} leadership terms; ` +
        `${expiries.reduce((a, b) => a + b, 0)} session renewals [${expiries.join(' ')}], election re-joins [${rejoins.join(' ')}], ` +
        `persistent node re-creations [${nodeLosses.join(' ')}]; settled ${convergedMs} ms after the faults stopped`,
    );

    try {
      expect(violations, `seed ${seed}`).toEqual([]);
      expect(why, `seed ${seed}: not settled within 2× the session timeout`).toBeUndefined();
      expect(convergedMs).toBeLessThanOrEqual(2 * SESSION_TIMEOUT);
      // The schedule really ran: every kind of fault, sessions expired and were renewed, leadership moved.
      for (const kind of ['kill', 'cut p', 'cut member', 'freeze', 'partition p', 'partition all']) expect(faults.some((f) => f.startsWith(kind)), kind).toBe(true);
      expect(expiries.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(PARTICIPANTS + 1);
      expect(forcedHandovers).toBeGreaterThanOrEqual(1); // the first fault is a partition of the leader
      expect(terms, `${forcedHandovers} faults ended a term`).toBeGreaterThan(forcedHandovers);
      // Leaving: every node goes (elections and persistent nodes delete theirs), nothing is left behind.
      await Promise.all(participants.map(async (p) => Promise.all([p.election.close(), p.node.close()])));
      expect(await childrenOf(checker, electionDir)).toEqual([]);
      expect(await childrenOf(checker, servicesDir)).toEqual([]);
    } finally {
      await Promise.allSettled([checker.close(), ...participants.map((p) => p.client.close())]);
    }
  }, 240_000);
});
