/**
 * Codec micro-benchmark: zkts vs node-zookeeper-client's Jute classes on the same inputs (cases.ts).
 * Run: `pnpm --filter @zkts/bench bench:codec` or `npx tsx bench/codec/run.ts [--quick]`. Writes
 * bench/results/codec.json with the date and the machine (not with --quick).
 *
 * The two sides are timed in alternating batches, so a busy machine slows both alike; the ratio reported is
 * the median of the per-round ratios.
 */
import { writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, release } from 'node:os';
import { performance } from 'node:perf_hooks';

import { cases, type Case } from './cases.js';

const quick = process.argv.includes('--quick');
const BATCH_MS = quick ? 20 : 60;
const ROUNDS = quick ? 5 : 15;

let sink: unknown;

/** A batch size that takes about BATCH_MS. */
function calibrate(fn: () => unknown): number {
  for (let i = 0; i < 200; i++) sink = fn();
  let batch = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) sink = fn();
    const dt = performance.now() - t0;
    if (dt > BATCH_MS / 4) return Math.max(1, Math.round((batch * BATCH_MS) / dt));
    batch *= 2;
  }
}

function rate(fn: () => unknown, batch: number): number {
  const t0 = performance.now();
  for (let i = 0; i < batch; i++) sink = fn();
  return (batch * 1000) / (performance.now() - t0);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function same(c: Case): void {
  const [z, n] = c.check();
  const eq = typeof z === 'string' ? z === n : Buffer.from(z).equals(Buffer.from(n as Uint8Array));
  if (!eq) throw new Error(`${c.name}: zkts and node-zookeeper-client disagree on the same input`);
}

const load = loadavg()[0]!;
const rows = cases.map((c) => {
  same(c);
  const zb = calibrate(c.zkts);
  const nb = calibrate(c.nzc);
  const z: number[] = [];
  const n: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    z.push(rate(c.zkts, zb));
    n.push(rate(c.nzc, nb));
    ratios.push(z[round]! / n[round]!);
  }
  return {
    case: c.name,
    zktsOpsPerSec: Math.round(median(z)),
    nzcOpsPerSec: Math.round(median(n)),
    ratio: Number(median(ratios).toFixed(2)),
  };
});

const fmt = (x: number): string => x.toLocaleString('en-US').padStart(13);
console.log(`${'case'.padEnd(36)}${'zkts ops/s'.padStart(13)}${'nzc ops/s'.padStart(13)}  zkts/nzc`);
for (const r of rows) console.log(`${r.case.padEnd(36)}${fmt(r.zktsOpsPerSec)}${fmt(r.nzcOpsPerSec)}  ${r.ratio.toFixed(2)}x`);

const result = {
  date: new Date().toISOString(),
  machine: {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    platform: `${platform()} ${release()} ${arch()}`,
    node: process.version,
    loadAverage1m: { start: Number(load.toFixed(2)), end: Number(loadavg()[0]!.toFixed(2)) },
  },
  method: `alternating batches of ~${BATCH_MS} ms, ${ROUNDS} rounds; medians; ratio = median of per-round ratios`,
  note: 'nzc = node-zookeeper-client 1.1.3 lib/jute. zkts encodes copy the frame out of the reused writer; decodes borrow buffers.',
  rows,
};
if (!quick) writeFileSync(new URL('../results/codec.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
void sink;
