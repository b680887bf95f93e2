/**
 * FourLetterSource without a server: words answered from the captured ZooKeeper 3.8 fixtures (or refused the
 * way ZooKeeper refuses them), the mntr ring driven by a hand-moved timer.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import type { HostPort } from '../../../src/hosts.js';
import { FourLetterSource } from '../../../src/console/sources/four-letter-source.js';
import type { SamplerTimer } from '../../../src/console/sources/four-letter-source.js';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/four-letter/${name}`, import.meta.url), 'utf8');
const HOSTS: HostPort[] = [{ host: 'down', port: 1 }, { host: 'up', port: 2 }];

/** A timer moved by hand: `advance(ms)` fires every interval due meanwhile. */
class HandTimer implements SamplerTimer {
  time = 1_000_000;
  readonly intervals = new Map<number, { callback: () => void; every: number; next: number }>();
  private ids = 0;
  now(): number {
    return this.time;
  }
  setInterval(callback: () => void, ms: number): unknown {
    const id = ++this.ids;
    this.intervals.set(id, { callback, every: ms, next: this.time + ms });
    return id;
  }
  clearInterval(handle: unknown): void {
    this.intervals.delete(handle as number);
  }
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.intervals.values()].filter((i) => i.next <= end).sort((a, b) => a.next - b.next)[0];
      if (due === undefined) break;
      this.time = due.next;
      due.next += due.every;
      due.callback();
      // Let the sample's answer arrive before the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.time = end;
  }
}

const refused = (word: string): string => `${word} is not executed because it is not in the whitelist.\n`;

describe('FourLetterSource', () => {
  it('asks the first reachable host and reports each refused word with its reason', async () => {
    const asked: string[] = [];
    const source = new FourLetterSource(HOSTS, {
      ask: async (host, word) => {
        asked.push(`${host.host} ${word}`);
        if (host.host === 'down') throw new Error('connect ECONNREFUSED');
        return word === 'wchp' || word === 'dump' ? refused(word) : fixture(`zk38-${word}.txt`);
      },
    });
    const info = await source.sessions();
    expect(info.words).toEqual([
      { word: 'cons', available: true, reason: null },
      { word: 'wchc', available: true, reason: null },
      { word: 'wchp', available: false, reason: 'wchp is not executed because it is not in the whitelist.' },
      { word: 'dump', available: false, reason: 'dump is not executed because it is not in the whitelist.' },
    ]);
    expect(asked).toContain('up cons');
    // What cons and wchc gave is still there; ephemerals needed dump.
    expect(info.sessions.map((s) => [s.id, s.watches, s.ephemerals])).toEqual([
      ['0x10000ac9f020000', ['/app/config'], []],
      ['0x10000ac9f020001', ['/app/config', '/app/lock'], []],
    ]);
    expect(info.hotPaths).toEqual([{ path: '/app/config', watchers: 2 }, { path: '/app/lock', watchers: 1 }]);
  });

  it('marks every word unavailable when no host answers', async () => {
    const source = new FourLetterSource(HOSTS, { ask: () => Promise.reject(new Error('connect ECONNREFUSED')) });
    const info = await source.sessions();
    expect(info.sessions).toEqual([]);
    for (const word of info.words) expect(word.reason).toMatch(/no server answered: down:1: connect ECONNREFUSED; up:2: connect ECONNREFUSED/);
  });

  it('samples mntr into a bounded ring on its timer, and stops on close', async () => {
    const timer = new HandTimer();
    let n = 0;
    let refuse = false;
    const source = new FourLetterSource([{ host: 'up', port: 2 }], {
      timer,
      capacity: 3,
      ask: async (_host, word) => {
        expect(word).toBe('mntr');
        return refuse ? refused('mntr') : `zk_version\t3.8.0\nzk_packets_received\t${++n}\n`;
      },
    });
    expect(source.mntr()).toEqual({ available: false, reason: 'not sampled yet', samples: [] });
    source.start(2000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.mntr().samples).toEqual([{ at: 1_000_000, values: { zk_version: '3.8.0', zk_packets_received: 1 } }]);
    await timer.advance(6000);
    const history = source.mntr();
    expect(history.available).toBe(true);
    // Four samples taken (t = 0, 2, 4, 6 s), the ring keeps the last three, oldest first.
    expect(history.samples.map((s) => [s.at, s.values['zk_packets_received']])).toEqual([
      [1_002_000, 2],
      [1_004_000, 3],
      [1_006_000, 4],
    ]);
    refuse = true;
    await timer.advance(2000);
    expect(source.mntr()).toMatchObject({ available: false, reason: 'mntr is not executed because it is not in the whitelist.' });
    expect(source.mntr().samples).toHaveLength(3);
    source.close();
    expect(timer.intervals.size).toBe(0);
    refuse = false;
    await timer.advance(10_000);
    expect(n).toBe(4);
  });

  it('skips a tick while the previous sample waits for its answer', async () => {
    const timer = new HandTimer();
    let release: (text: string) => void = () => undefined;
    let asks = 0;
    const source = new FourLetterSource([{ host: 'up', port: 2 }], {
      timer,
      ask: () => {
        asks++;
        return new Promise<string>((resolve) => (release = resolve));
      },
    });
    source.start(1000);
    await timer.advance(5000);
    expect(asks).toBe(1);
    release('zk_znode_count\t5\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.mntr().samples).toEqual([{ at: 1_005_000, values: { zk_znode_count: 5 } }]);
    source.close();
  });
});
