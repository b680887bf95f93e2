// SetPartitioner safety under chaos, on the real server: 5 members, each with its own client behind its own
// fault proxy, split 10 items while a seeded schedule cuts connections, freezes them briefly, partitions a
// member past its session timeout (expiry, then the client's renewal), expires a session by take-over (at
// least once, scripted), and kills members (client closed) that are replaced by new ones, so 4 or 5 members
// always take part. Each member works on its set until the set's signal fires, then asks for the next one.
// An observer checks at every state change of any member and every few ms that no item is in the sets of two
// members whose signals have not fired. Once the faults stop, every member must hold a set, the sets must
// split the items exactly, and in ZooKeeper each item's lock must be one node, written by its holder.
// Replay a schedule with ZKTS_SEED=<seed> (the seed is printed first).
import { describe, expect, it } from 'vitest';

import type { ZkClient } from '@zkts/protocol';
import { SetPartitioner } from '@zkts/recipes';

import { expireSession, victimClient, type Victim } from '../../support/expiry.js';
import { childrenOf, rng, sleep, testSeed, text, uniqueRoot } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients, proxies } = perTestResources();

const CHAOS_MS = 14_000;
const SLOTS = 5;
const ITEMS = Array.from({ length: 10 }, (_, i) => `item-${String(i).padStart(2, '0')}`);
const TIME_BOUNDARY = 150;

interface Member {
  readonly id: string;
  readonly victim: Victim;
  readonly partitioner: SetPartitioner;
  killed: boolean;
}

const fired = (signal: AbortSignal): Promise<void> =>
  signal.aborted ? Promise.resolve() : new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

describe('SetPartitioner chaos', () => {
  it(`5 members, 10 items, ${CHAOS_MS / 1000} s of cuts, freezes, partitions, an expiry and kills: never one item in two live sets; then an exact split`, async () => {
    const seed = testSeed('partitioner chaos');
    const random = rng(seed);
    const path = uniqueRoot('partition-chaos');
    const violations: string[] = [];
    const faults: string[] = [];
    const everyone: Member[] = [];
    let grants = 0;
    let expiries = 0;
    let incarnations = 0;

    /** No item in two sets whose signals have not fired, among all members ever started (killed ones included). */
    const check = (when: string): void => {
      const owner = new Map<string, string>();
      for (const m of everyone) {
        const set = m.partitioner.acquiredSet;
        if (set === undefined || set.signal.aborted) continue;
        for (const item of set.items) {
          const other = owner.get(item);
          if (other !== undefined && violations.length < 20) violations.push(`${when}: ${item} held by ${other} and ${m.id}`);
          owner.set(item, m.id);
        }
      }
    };

    const spawn = async (slot: number): Promise<Member> => {
      const victim = await victimClient(clients, proxies, { sessionTimeout: 2000, connectTimeout: 1000 });
      const id = `m${slot}.${incarnations++}`;
      const partitioner = new SetPartitioner(victim.client, path, ITEMS, { identifier: id, timeBoundary: TIME_BOUNDARY });
      const member: Member = { id, victim, partitioner, killed: false };
      everyone.push(member);
      partitioner.onChange((state) => check(`${id} ${state}`));
      victim.client.onStateChange((c) => void (c.state === 'expired' && expiries++));
      // The worker: take a set, work on it until its signal fires, take the next (which releases this one).
      void (async () => {
        for (;;) {
          let signal: AbortSignal;
          try {
            signal = (await partitioner.acquired()).signal;
          } catch {
            return; // killed: the partitioner is over
          }
          grants++;
          check(`${id} granted`);
          await fired(signal);
        }
      })();
      return member;
    };

    const slots: Member[] = [];
    for (let i = 0; i < SLOTS; i++) slots.push(await spawn(i));
    const ticker = setInterval(() => check('tick'), 5);
    const checker: ZkClient = await clients.connect();
    try {
      const timeout = slots[0]!.victim.client.negotiatedTimeout;
      const scripted = ['expire', 'kill', 'partition', 'cut'];
      const end = Date.now() + CHAOS_MS;
      while (Date.now() < end) {
        await sleep(300 + random() * 700);
        const slot = Math.floor(random() * SLOTS);
        const m = slots[slot]!;
        const r = random();
        const kind = scripted.shift() ?? (r < 0.35 ? 'cut' : r < 0.6 ? 'freeze' : r < 0.8 ? 'partition' : 'kill');
        switch (kind) {
          case 'cut':
            faults.push(`cut ${m.id}`);
            m.victim.proxy.cut();
            break;
          case 'freeze': {
            const ms = Math.floor(200 + random() * 800);
            faults.push(`freeze ${m.id} ${ms} ms`);
            m.victim.proxy.blackhole();
            await sleep(ms);
            m.victim.proxy.cut();
            m.victim.proxy.restore();
            break;
          }
          case 'partition': {
            // Past the session timeout: the session expires, the client renews it, the member carries on.
            const ms = Math.floor(timeout + 500 + random() * 1000);
            faults.push(`partition ${m.id} ${ms} ms`);
            m.victim.proxy.blackhole();
            await sleep(ms);
            m.victim.proxy.cut();
            m.victim.proxy.restore();
            break;
          }
          case 'expire':
            faults.push(`expire ${m.id}`);
            await expireSession(m.victim, { renewed: true });
            break;
          case 'kill':
            faults.push(`kill ${m.id}`);
            m.killed = true;
            await m.victim.client.close();
            slots[slot] = await spawn(slot);
            break;
        }
      }
      for (const m of slots) m.victim.proxy.restore();
      const healedAt = Date.now();

      // Settled: every live member holds a set with an unfired signal, the sets split the items exactly, and
      // each item's lock in ZooKeeper is one node whose data names its holder.
      const settled = async (): Promise<string | undefined> => {
        const held = new Map<string, string>();
        for (const m of slots) {
          const set = m.partitioner.acquiredSet;
          if (m.partitioner.state !== 'acquired' || set === undefined || set.signal.aborted) return `${m.id} is ${m.partitioner.state}`;
          for (const item of set.items) {
            if (held.has(item)) return `${item} twice`;
            held.set(item, m.id);
          }
        }
        if (held.size !== ITEMS.length) return `${held.size} of ${ITEMS.length} items held`;
        for (const item of ITEMS) {
          const nodes = await childrenOf(checker, `${path}/locks/${item}`);
          if (nodes.length !== 1) return `${item}: ${nodes.length} lock nodes`;
          const data = text((await checker.getData(`${path}/locks/${item}/${nodes[0]}`)).data);
          if (data !== held.get(item)) return `${item}: lock node of ${data}, held by ${held.get(item)}`;
        }
        return undefined;
      };
      let why = await settled().catch((e: unknown) => String(e));
      while (why !== undefined && Date.now() - healedAt < 20_000) {
        await sleep(100);
        why = await settled().catch((e: unknown) => String(e));
      }
      const settledMs = Date.now() - healedAt;
      check('settled');
      console.info(
        `partitioner chaos: seed ${seed}; ${faults.length} faults (${faults.join('; ')}); ${expiries} expiries; ` +
          `${incarnations} members in all; ${grants} sets granted; settled ${settledMs} ms after the faults stopped`,
      );
      expect(violations, `seed ${seed}`).toEqual([]);
      expect(why, `seed ${seed}: not settled`).toBeUndefined();
      for (const kind of ['cut', 'partition', 'expire', 'kill']) expect(faults.some((f) => f.startsWith(kind)), kind).toBe(true);
      expect(expiries).toBeGreaterThanOrEqual(1);
      expect(grants).toBeGreaterThan(SLOTS * 2);

      // Finishing leaves nothing behind: no party node, no lock node.
      await Promise.all(slots.map((m) => m.partitioner.finish()));
      expect(await childrenOf(checker, `${path}/party`)).toEqual([]);
      for (const item of ITEMS) expect(await childrenOf(checker, `${path}/locks/${item}`)).toEqual([]);
    } finally {
      clearInterval(ticker);
      await Promise.allSettled(everyone.map((m) => m.partitioner.finish()));
    }
  }, 90_000);
});
