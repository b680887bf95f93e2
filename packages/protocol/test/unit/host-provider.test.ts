// The rebalancing rules of a changing host list (ZOOKEEPER-1355), checked on the probabilities themselves (a
// scripted random source) and on their outcome over many simulated clients; and the wait before dialling again
// after a dropped connection (reconnect-delay.ts), on a scripted random source.
import { describe, expect, it } from 'vitest';
import { HostProvider, dropKind } from '../../src/client/session/host-provider.js';
import { CONTEST_WINDOW_MS, DEFAULT_RECONNECT_DELAY, MIN_REDIAL_WINDOW_MS, REDIAL_SPACING_MS, reconnectDelayOption } from '../../src/client/session/reconnect-delay.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import { createClient } from '../../src/client/factories.js';
import type { HostAddress } from '../../src/client/connect-string.js';
import { prng as seeded } from '../support/recorded-session.js';

const hosts = (...ports: number[]): HostAddress[] => ports.map((port) => ({ host: '127.0.0.1', port }));

describe('host list updates', () => {
  it('grown, our server kept: moves exactly when the draw is within 1 − old/new, and then to a new server', () => {
    // 3 → 5: move with probability 0.4. A constant source: the shuffle and the decision draw the same value.
    const stay = new HostProvider(hosts(1, 2, 3), false, () => 0.41);
    expect(stay.update(hosts(1, 2, 3, 4, 5), hosts(2)[0])).toBe(false);
    const move = new HostProvider(hosts(1, 2, 3), false, () => 0.39);
    expect(move.update(hosts(1, 2, 3, 4, 5), hosts(2)[0])).toBe(true);
    expect([4, 5]).toContain(move.next(0).host.port);
  });

  it('our server removed: always moves; shrunk with our server kept: stays', () => {
    const p = new HostProvider(hosts(1, 2, 3), false);
    expect(p.update(hosts(1, 2), hosts(3)[0])).toBe(true);
    expect([1, 2]).toContain(p.next(0).host.port);
    const q = new HostProvider(hosts(1, 2, 3), false);
    expect(q.update(hosts(1, 2), hosts(1)[0])).toBe(false);
    expect(q.next(0).host.port).toBe(2); // round-robin goes on after our server
  });

  it('after trying every host of the new list, round-robin resumes with no back-off in between', () => {
    const p = new HostProvider(hosts(1, 2, 3), false, () => 0);
    p.update(hosts(1, 2, 3, 4, 5), hosts(1)[0]);
    const tried = Array.from({ length: 5 }, () => p.next(0));
    expect(tried.map((t) => t.host.port).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(tried.every((t) => t.delay === 0)).toBe(true);
    // With every draw 0: the new servers first, then the kept ones, each in the shuffled list's order.
    expect(tried.map((t) => t.host.port)).toEqual([4, 5, 2, 3, 1]);
    // Then round-robin from the last one tried, in the list's (shuffled) order, still without a back-off.
    expect(p.next(0)).toEqual({ host: hosts(2)[0], delay: 0, reason: 'cycle' });
  });

  it('10,000 simulated clients on 3 servers grown to 5 end up even, and only the needed share moves', () => {
    const random = seeded(1355);
    const load = new Map<number, number>();
    let moved = 0;
    for (let i = 0; i < 10_000; i++) {
      const p = new HostProvider(hosts(1, 2, 3), true, random);
      const current = p.next(0).host;
      p.connected();
      const move = p.update(hosts(1, 2, 3, 4, 5), current);
      if (move) moved++;
      const now = move ? p.next(0).host : current;
      load.set(now.port, (load.get(now.port) ?? 0) + 1);
    }
    // Expected share that moves: 1 − 3/5 = 40 %; each server ends near 2,000.
    expect(moved).toBeGreaterThan(3800);
    expect(moved).toBeLessThan(4200);
    for (const port of [1, 2, 3, 4, 5]) {
      expect(load.get(port)).toBeGreaterThan(1850);
      expect(load.get(port)).toBeLessThan(2150);
    }
  });

  it('5 shrunk to 3 (two removed): clients of removed servers spread over the rest, the others stay', () => {
    const random = seeded(7);
    const load = new Map<number, number>();
    for (let i = 0; i < 10_000; i++) {
      const p = new HostProvider(hosts(1, 2, 3, 4, 5), true, random);
      const current = p.next(0).host;
      p.connected();
      const now = p.update(hosts(1, 2, 3), current) ? p.next(0).host : current;
      load.set(now.port, (load.get(now.port) ?? 0) + 1);
    }
    expect([...load.keys()].sort()).toEqual([1, 2, 3]);
    for (const port of [1, 2, 3]) {
      expect(load.get(port)).toBeGreaterThan(3150);
      expect(load.get(port)).toBeLessThan(3500);
    }
  });
});

describe('ensemble config parsing', () => {
  it('takes each server’s client address, the server host for a wildcard or missing client host, in id order', async () => {
    const { clientAddresses } = await import('../../src/client/ensemble-tracker.js');
    const text = [
      'server.3=10.0.0.3:2888:3888:participant;0.0.0.0:2181',
      'server.1=10.0.0.1:2888:3888:participant;10.0.0.11:2182',
      'server.2=10.0.0.2:2888:3888:observer;2183',
      'server.4=10.0.0.4:2888:3888:participant',
      'server.5=[fe80::1]:2888:3888:participant;[fe80::2]:2184',
      'version=100000003',
    ].join('\n');
    expect(clientAddresses(text)).toEqual([
      { host: '10.0.0.11', port: 2182 },
      { host: '10.0.0.2', port: 2183 },
      { host: '10.0.0.3', port: 2181 },
      { host: 'fe80::2', port: 2184 },
    ]);
  });
});

describe('the wait after a dropped connection', () => {
  const range = { min: 50, max: 600 };

  it('a lost connection: the next dial waits min + (max − min)·random, once; a failed cycle then backs off as before', () => {
    let r = 0;
    const p = new HostProvider(hosts(1, 2, 3), false, () => r, range);
    p.next(0);
    p.connected();
    expect(p.dropped('closed', 30_000, 0)).toBe(50);
    expect(p.next(0)).toEqual({ host: hosts(2)[0], delay: 50, reason: 'lost' });
    // The other hosts of the cycle follow at once; after the whole cycle failed, the ~1 s back-off.
    expect(p.next(0)).toMatchObject({ delay: 0, reason: 'cycle' });
    expect(p.next(0).delay).toBe(0);
    r = 0.5;
    expect(p.next(0)).toMatchObject({ delay: 1000, reason: 'cycle' });
    p.connected();
    r = 0.999;
    expect(p.dropped('closed', 30_000, 0)).toBe(599);
    expect(p.next(0).delay).toBe(599);
  });

  it('contested: 1–2 s, doubling while it goes on, capped at a third of the session timeout, never below max', () => {
    let r = 0;
    const p = new HostProvider(hosts(1), false, () => r, range);
    expect(p.dropped('contested', 30_000, 0)).toBe(1000);
    r = 0.5;
    expect(p.dropped('contested', 30_000, 0)).toBe(3000);
    expect(p.dropped('contested', 30_000, 0)).toBe(6000);
    expect(p.dropped('contested', 30_000, 0)).toBe(10_000);
    // A lost connection ends the streak.
    p.dropped('closed', 30_000, 0);
    r = 0;
    expect(p.dropped('contested', 30_000, 0)).toBe(1000);
    // A short session: a third of it; a tiny one: still at least max.
    expect(p.dropped('contested', 2400, 0)).toBe(800);
    expect(new HostProvider(hosts(1), false, () => 0, { min: 0, max: 900 }).dropped('contested', 600, 0)).toBe(900);
  });

  it('no wait after a deliberate move: a rebalance, or a read-write server found', () => {
    const p = new HostProvider(hosts(1, 2, 3), false, () => 0, range);
    p.next(0);
    p.connected();
    expect(p.update(hosts(4, 5), hosts(1)[0])).toBe(true);
    expect(p.dropped('closed', 30_000, 0)).toBe(0);
    expect(p.next(0)).toMatchObject({ delay: 0, reason: 'move' });
    const q = new HostProvider(hosts(1, 2, 3), false, () => 0, range);
    q.next(0);
    q.connected();
    q.prefer(hosts(3)[0] as HostAddress);
    expect(q.dropped('closed', 30_000, 0)).toBe(0);
    expect(q.next(0)).toEqual({ host: hosts(3)[0], delay: 0, reason: 'move' });
  });

  it('says why each dial happens: the first connect, a drop of each kind, an expiry, a move, the next step of a cycle', () => {
    const p = new HostProvider(hosts(1, 2), false, () => 0, range);
    expect(p.nextReason).toBe('first');
    expect(p.next(0).reason).toBe('first');
    expect(p.next(0).reason).toBe('cycle');
    p.connected();
    p.dropped('contested', 30_000, 0);
    expect(p.nextReason).toBe('contested');
    expect(p.next(0).reason).toBe('contested');
    p.connected();
    expect(p.dropped('expired', 0, 0)).toBe(50);
    expect(p.next(0)).toMatchObject({ delay: 50, reason: 'expired' });
    // A broken connection is lost too: redialled at once, then the next host is a step of the cycle.
    p.connected();
    expect(p.dropped('broken', 30_000, 10_000)).toBe(0);
    expect(p.next(10_000)).toMatchObject({ delay: 0, reason: 'lost' });
    expect(p.next(10_001).reason).toBe('cycle');
    p.connected();
    expect(p.update(hosts(3, 4, 5), hosts(1)[0])).toBe(true);
    expect(p.nextReason).toBe('move');
    expect(p.next(0).reason).toBe('move');
    expect(p.next(0).reason).toBe('cycle');
  });

  it('what a drop says: SESSION_MOVED or an orderly server close soon after re-attaching is a contest; a socket error or our own close is broken; an orderly close is closed', () => {
    const conn = (sessionMoved: boolean, closedByPeer: boolean, reattachedAt: number, brokenByNetwork = false) => ({ sessionMoved, reattachedAt, transport: { closedByPeer, brokenByNetwork } });
    expect(dropKind(conn(true, false, -1), 10_000)).toBe('contested');
    expect(dropKind(conn(false, true, 9000), 10_000)).toBe('contested');
    expect(dropKind(conn(false, true, 10_000 - CONTEST_WINDOW_MS), 10_000)).toBe('closed');
    expect(dropKind(conn(false, true, -1), 10_000)).toBe('closed');
    expect(dropKind(conn(false, true, 9000, true), 10_000)).toBe('broken');
    expect(dropKind(conn(false, true, -1, true), 10_000)).toBe('broken');
    expect(dropKind(conn(false, false, 9000), 10_000)).toBe('broken');
  });

  it('broken: the same server again at once, bounded by the drawn wait; then the next host with what is left of it', () => {
    let r = 0.5;
    const p = new HostProvider(hosts(1, 2, 3), false, () => r, range);
    expect(p.next(0).host).toEqual(hosts(1)[0]);
    p.connected();
    // 50 + 550·0.5 = 325 ms drawn: the redial gets those 325 ms.
    expect(p.dropped('broken', 30_000, 10_000)).toBe(0);
    expect(p.next(10_000)).toEqual({ host: hosts(1)[0], delay: 0, within: 325, reason: 'lost' });
    // Refused 5 ms later: the next host waits the other 320 ms.
    expect(p.next(10_005)).toEqual({ host: hosts(2)[0], delay: 320, reason: 'cycle' });
    // Failed after the whole window (a dead machine): no further wait.
    p.connected();
    expect(p.dropped('broken', 30_000, 20_000)).toBe(0);
    expect(p.next(20_000).within).toBe(325);
    expect(p.next(20_400)).toEqual({ host: hosts(3)[0], delay: 0, reason: 'cycle' });
    // A drawn wait shorter than the floor still gives the redial the floor.
    r = 0;
    p.connected();
    expect(p.dropped('broken', 30_000, 30_000)).toBe(0);
    expect(p.next(30_000).within).toBe(MIN_REDIAL_WINDOW_MS);
  });

  it('broken again soon after a redial: the plain wait, so a server that keeps breaking connections is not redialled in a loop', () => {
    const p = new HostProvider(hosts(1, 2), false, () => 0, range);
    p.next(0);
    p.connected();
    expect(p.dropped('broken', 30_000, 1000)).toBe(0);
    expect(p.next(1000)).toEqual({ host: hosts(1)[0], delay: 0, within: MIN_REDIAL_WINDOW_MS, reason: 'lost' });
    p.connected();
    expect(p.dropped('broken', 30_000, 1000 + REDIAL_SPACING_MS - 1)).toBe(50);
    expect(p.next(1000 + REDIAL_SPACING_MS - 1)).toEqual({ host: hosts(2)[0], delay: 50, reason: 'lost' });
    p.connected();
    expect(p.dropped('broken', 30_000, 1000 + 2 * REDIAL_SPACING_MS)).toBe(0);
    expect(p.next(1000 + 2 * REDIAL_SPACING_MS)).toEqual({ host: hosts(2)[0], delay: 0, within: MIN_REDIAL_WINDOW_MS, reason: 'lost' });
  });

  it('closed and expired: the drawn wait before the next host, never the same one at once', () => {
    const p = new HostProvider(hosts(1, 2), false, () => 1, range);
    p.next(0);
    p.connected();
    expect(p.dropped('closed', 30_000, 0)).toBe(600);
    expect(p.next(0)).toEqual({ host: hosts(2)[0], delay: 600, reason: 'lost' });
    p.connected();
    expect(p.dropped('expired', 0, 0)).toBe(600);
    expect(p.next(0)).toEqual({ host: hosts(1)[0], delay: 600, reason: 'expired' });
  });

  it('the option is checked: 0 ≤ min ≤ max ≤ 60 s, finite numbers', () => {
    expect(reconnectDelayOption(undefined)).toEqual(DEFAULT_RECONNECT_DELAY);
    expect(reconnectDelayOption({ min: 0, max: 0 })).toEqual({ min: 0, max: 0 });
    for (const bad of [{ min: -1, max: 5 }, { min: 10, max: 5 }, { min: 0, max: Number.NaN }, { min: 0, max: 60_001 }, null]) {
      expect(() => reconnectDelayOption(bad as never)).toThrow(InvalidArgumentError);
    }
    expect(() => createClient('127.0.0.1:1', { reconnectDelay: { min: 5, max: 1 } })).toThrow(/reconnectDelay needs 0 ≤ min ≤ max/);
  });
});
