// The benchmark's own arithmetic: the pipeline driver keeps its window, quantiles, target checks, the table
// and the SVG (well-formed, one bar per measured client, no chart library), the bench server's options.
import { describe, expect, it } from 'vitest';

import { javaArgs } from '../harness/java.js';
import { pipeline, quantile } from '../harness/measure.js';
import { best, FULL, interleavedPick, notRun, QUICK } from '../harness/plan.js';
import { FrameScanner } from '../harness/replay-proxy.js';
import { checkTargets, failuresText, table } from '../harness/report.js';
import { childName } from '../harness/scale.js';
import { benchServer, BENCH_SERVER_OPTIONS } from '../harness/server.js';
import type { ClientId, Outcome, ResultGrid } from '../harness/report.js';
import { chart } from '../harness/svg.js';

const LABELS: Record<ClientId, string> = { zkts: 'zkts', nzk: 'nzk', native: 'native', java: 'java', curator: 'curator', raw: 'raw' };

describe('pipeline', () => {
  it('runs every op once and never has more than `window` outstanding', async () => {
    let outstanding = 0;
    let peak = 0;
    const seen: number[] = [];
    await pipeline(1000, 16, (i, done) => {
      seen.push(i);
      outstanding++;
      peak = Math.max(peak, outstanding);
      setImmediate(() => {
        outstanding--;
        done(null);
      });
    });
    expect(seen).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(peak).toBe(16);
  });

  it('rejects on the first failure', async () => {
    await expect(pipeline(10, 2, (i, done) => setImmediate(() => done(i === 3 ? new Error('boom') : null)))).rejects.toThrow('boom');
  });
});

describe('quantile', () => {
  it('is nearest-rank', () => {
    const s = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantile(s, 0.5)).toBe(50);
    expect(quantile(s, 0.99)).toBe(99);
    expect(quantile(new Float64Array(0), 0.5)).toBeNaN();
  });
});

const grid: ResultGrid = {
  getPipelined: {
    zkts: { metrics: { opsPerSec: 30_000, cpuUsPerOp: 5 } },
    nzk: { metrics: { opsPerSec: 10_000, cpuUsPerOp: 40 } },
    java: { metrics: { opsPerSec: 35_000, cpuUsPerOp: 8 } },
    native: { error: 'not built' },
  },
  waiters: { zkts: { metrics: { eventsPerHandoff: 1, heapPerWaiter: 900 } }, curator: { metrics: { eventsPerHandoff: 1 } } },
};

describe('targets', () => {
  it('compares zkts with each peer times the factor', () => {
    const checks = Object.fromEntries(checkTargets(grid).map((c) => [c.name, c]));
    expect(checks['pipelined get ≥ Java client']).toMatchObject({ pass: false, ratio: 30_000 / 35_000 });
    expect(checks['pipelined get ≥ 1.5× node-zookeeper-client']).toMatchObject({ pass: true, ratio: 3 });
    expect(checks['CPU per pipelined get ≤ 0.25× node-zookeeper-client']).toMatchObject({ pass: true });
    expect(checks['exactly one watch event per handoff']).toMatchObject({ pass: true });
    expect(checks['sequential get ≥ Java client']?.pass).toBeUndefined();
  });
});

describe('output', () => {
  it('prints ratios zkts / peer', () => {
    const text = table(grid, LABELS);
    expect(text).toContain('10.0k (×3.00)');
    expect(text).toContain('(×0.86)');
  });

  it('draws a well-formed SVG with a bar per measured figure', () => {
    const svg = chart(grid, LABELS, 'title & <test>', 'machine');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg).toContain('title &amp; &lt;test&gt;');
    // getPipelined opsPerSec: zkts, nzk, java; cpuUsPerOp: the same three; waiters: 2 + 1.
    expect(svg.match(/<rect x="[\d.]+" y="[\d.]+" width="[\d.]+" height="16"/g)).toHaveLength(9);
    expect(svg).toContain('(zkts ×3.00)');
  });
});

describe('rows at scale', () => {
  /** A request frame: length, xid, type, then `body` bytes. */
  const frame = (xid: number, type: number, body: number): Uint8Array => {
    const b = new Uint8Array(12 + body);
    const v = new DataView(b.buffer);
    v.setInt32(0, 8 + body);
    v.setInt32(4, xid);
    v.setInt32(8, type);
    return b;
  };
  const concat = (parts: Uint8Array[]): Uint8Array => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    return out;
  };

  it('the proxy sees each request frame once, whatever the chunking, and skips the handshake', () => {
    // Handshake (headerless, 44 bytes), a SetWatches of 5000 bytes, a ping, a getData.
    const stream = concat([frame(0, 0, 36), frame(-8, 101, 4992), frame(-2, 11, 0), frame(1, 4, 20)]);
    for (const size of [1, 3, 7, 12, 64, 4096, stream.byteLength]) {
      const seen: [number, number][] = [];
      const scanner = new FrameScanner((op, length) => seen.push([op, length]));
      for (let at = 0; at < stream.byteLength; at += size) scanner.push(stream.subarray(at, at + size));
      expect(seen).toEqual([
        [101, 5000],
        [11, 8],
        [4, 28],
      ]);
    }
  });

  it('the proxy gives up on bytes that are not ZooKeeper frames', () => {
    const scanner = new FrameScanner(() => undefined);
    expect(() => scanner.push(new TextEncoder().encode('srvr\n\n\n\n\n\n\n\n'))).toThrow(/not ZooKeeper framing/);
  });

  it('fixture children have fixed-width names', () => {
    expect(childName(0)).toBe('c000000');
    expect(childName(99_999)).toBe('c099999');
  });

  it('the Java side gets every number flat, and the fixture and proxy ports', () => {
    const params = { window: 10, getOps: 1, getWarmup: 1, seqOps: 1, seqWarmup: 1, createDeletePairs: 1, createDeleteWarmup: 1 };
    const rest = { watches: 1, lockCycles: 1, lockWarmup: 1, handoffs: 1, waiters: 1, waiterSessions: 1 };
    const scale = { sessions: 5, connectWindow: 2, idleMs: 3, settleCapMs: 1, fixtureChildren: 7, largeBytes: 8, largeOps: 1, largeWarmup: 1, childrenCalls: 1, childrenWarmup: 1 };
    const args = javaArgs('watchReplay', { ...params, ...rest, scale }, { fixture: '/f', proxy: { port: 11, controlPort: 12 } });
    expect(args).toContain('sessions=5');
    expect(args).toContain('fixtureChildren=7');
    expect(args).toContain('proxyPort=11');
    expect(args).toContain('controlPort=12');
    expect(args).toContain('only=watchReplay');
    expect(args).toContain('fixture=/f');
    expect(args.some((a) => a.startsWith('scale='))).toBe(false);
  });

  it('prints only the workloads run, and why a peer failed', () => {
    const partial: ResultGrid = {
      getLarge: { zkts: { metrics: { mbPerSec: 600, cpuMsPerGet: 1 } }, nzk: { metrics: { mbPerSec: 300, cpuMsPerGet: 2 } }, native: { error: 'boom' } },
    };
    const text = table(partial, LABELS);
    expect(text).toContain('getData 1 MiB, sequential');
    expect(text).toContain('(×2.00)');
    expect(text).not.toContain('getData pipelined');
    expect(failuresText(partial, LABELS)).toBe('  getLarge, native: boom');
  });
});

describe('plan', () => {
  it('keeps the pass with the better headline figure, and every pass', () => {
    const kept = best('getSequentialInterleaved', [{ metrics: { p50Us: 70 } }, { error: 'x' }, { metrics: { p50Us: 60 } }]);
    expect(kept).toEqual({ metrics: { p50Us: 60 }, runs: [{ p50Us: 70 }, { p50Us: 60 }] });
    expect(best('getLarge', [{ metrics: { mbPerSec: 300 } }, { metrics: { mbPerSec: 500 } }])).toMatchObject({ metrics: { mbPerSec: 500 } });
  });

  it('leaves the native package out of the 100k replay only, and says why', () => {
    expect(notRun('native', 'watchReplay', FULL)).toMatch(/O\(n²\)/);
    expect(notRun('native', 'watchReplay', QUICK)).toBeUndefined();
    expect(notRun('zkts', 'watchReplay', FULL)).toBeUndefined();
  });
});

describe('interleaved row', () => {
  it('keeps one pass for every client: the quietest for all of them together', () => {
    const pass = (zkts: number, raw: number): Map<ClientId, Outcome> =>
      new Map<ClientId, Outcome>([
        ['zkts', { metrics: { p50Us: zkts } }],
        ['raw', { metrics: { p50Us: raw } }],
      ]);
    // Products 6560, 2464, 3000: the second pass, although zkts alone did better in the third.
    const kept = interleavedPick([pass(80, 82), pass(56, 44), pass(50, 60)], ['zkts', 'raw']);
    expect(kept.zkts).toEqual({ metrics: { p50Us: 56 }, runs: [{ p50Us: 80 }, { p50Us: 56 }, { p50Us: 50 }] });
    expect(kept.raw).toMatchObject({ metrics: { p50Us: 44 } });
  });
});

describe('bench server', () => {
  it('uses ZKTS_SERVER when set and starts nothing', async () => {
    const s = await benchServer({ ZKTS_SERVER: '127.0.0.1:2999' });
    expect(s.connectString).toBe('127.0.0.1:2999');
    expect(s.server).toBeUndefined();
    await s.stop();
  });

  it('starts ZooKeeper with the full JIT and frames above 1 MiB', () => {
    expect(BENCH_SERVER_OPTIONS.jvmArgs).toContain('-XX:TieredStopAtLevel=4');
    expect(BENCH_SERVER_OPTIONS.jvmArgs).toContain('-Djute.maxbuffer=4194304');
  });
});
