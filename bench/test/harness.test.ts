// The benchmark's own arithmetic: the pipeline driver keeps its window, quantiles, target checks, the table
// and the SVG (well-formed, one bar per measured client, no chart library).
import { describe, expect, it } from 'vitest';

import { pipeline, quantile } from '../harness/measure.js';
import { checkTargets, table } from '../harness/report.js';
import type { ClientId, ResultGrid } from '../harness/report.js';
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
