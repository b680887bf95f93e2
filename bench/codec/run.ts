/**
 * Codec micro-benchmark: zkts vs node-zookeeper-client's Jute classes on the same inputs (cases.ts).
 * Run: `pnpm --filter @zkts/bench bench:codec` or `npx tsx bench/codec/run.ts [--quick]`. Writes
 * bench/results/codec.json with the date and the machine.
 */
import { writeFileSync } from 'node:fs';
import { arch, cpus, platform, release } from 'node:os';
import { performance } from 'node:perf_hooks';

import { cases, type Case } from './cases.js';

const quick = process.argv.includes('--quick');
const TARGET_MS = quick ? 100 : 400;
const ROUNDS = quick ? 3 : 7;

let sink: unknown;

/** ops/s: calibrate a batch to ~TARGET_MS/ROUNDS, run ROUNDS batches, keep the median (noisy shared machine). */
function measure(fn: () => unknown): number {
  for (let i = 0; i < 200; i++) sink = fn();
  let batch = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) sink = fn();
    const dt = performance.now() - t0;
    if (dt > TARGET_MS / ROUNDS / 4) {
      batch = Math.max(1, Math.round((batch * (TARGET_MS / ROUNDS)) / dt));
      break;
    }
    batch *= 2;
  }
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) sink = fn();
    rates.push((batch * 1000) / (performance.now() - t0));
  }
  rates.sort((a, b) => a - b);
  return rates[Math.floor(rates.length / 2)]!;
}

function same(c: Case): void {
  const [z, n] = c.check();
  const eq = typeof z === 'string' ? z === n : Buffer.from(z).equals(Buffer.from(n as Uint8Array));
  if (!eq) throw new Error(`${c.name}: zkts and node-zookeeper-client disagree on the same input`);
}

const rows = cases.map((c) => {
  same(c);
  const zkts = measure(c.zkts);
  const nzc = measure(c.nzc);
  return { case: c.name, zktsOpsPerSec: Math.round(zkts), nzcOpsPerSec: Math.round(nzc), ratio: Number((zkts / nzc).toFixed(2)) };
});

const fmt = (n: number): string => n.toLocaleString('en-US').padStart(12);
console.log(`${'case'.padEnd(36)}${'zkts ops/s'.padStart(12)}${'nzc ops/s'.padStart(12)}  zkts/nzc`);
for (const r of rows) console.log(`${r.case.padEnd(36)}${fmt(r.zktsOpsPerSec)}${fmt(r.nzcOpsPerSec)}  ${r.ratio.toFixed(2)}x`);

const result = {
  date: new Date().toISOString(),
  machine: { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, platform: `${platform()} ${release()} ${arch()}`, node: process.version },
  note: 'median of rounds; nzc = node-zookeeper-client 1.1.3 lib/jute; zkts encodes copy the frame out of the reused writer',
  quick,
  rows,
};
if (!quick) writeFileSync(new URL('../results/codec.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
void sink;
