// Timing helpers shared by the workloads: a windowed pipeline driver, CPU/heap snapshots and percentiles.
import { performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';

import type { Done } from './session.js';

/**
 * Runs `total` operations keeping up to `window` outstanding: every completion issues the next one.
 * One shared `done` closure serves every operation, so the driver allocates nothing per op.
 */
export function pipeline(total: number, window: number, issue: (i: number, done: Done) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let issued = 0;
    let completed = 0;
    let failed = false;
    const done: Done = (error) => {
      if (failed) return;
      if (error) {
        failed = true;
        reject(error);
        return;
      }
      completed++;
      if (completed === total) resolve();
      else if (issued < total) issue(issued++, done);
    };
    if (total === 0) {
      resolve();
      return;
    }
    const first = Math.min(window, total);
    while (issued < first) issue(issued++, done);
  });
}

export interface Span {
  ms: number;
  /** user + system */
  cpuUs: number;
  userUs: number;
  systemUs: number;
}

/** Wall time and this process's CPU time (user + system, all threads) spent in `body`. */
export async function measure(body: () => Promise<void>): Promise<Span> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await body();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpuUs: cpu.user + cpu.system, userUs: cpu.user, systemUs: cpu.system };
}

/**
 * Resident bytes of V8's young generation (its new space). V8 grows it while many objects survive scavenges (the
 * connects) and gives it back once the process allocates little, at a time its heuristics pick: in the end an
 * idle process keeps about 1 MiB of it, whatever its sessions (bench/README.md, "RSS and the young generation").
 */
export function youngGeneration(): number {
  for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space') return space.physical_space_size;
  return 0;
}

/** Heap in use after a full collection (needs `node --expose-gc`; without it the figure is noisier). */
export function settledHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
  return process.memoryUsage().heapUsed;
}

/** The q-quantile (0..1) of already sorted samples, nearest-rank. */
export function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it is true or `timeoutMs` passes. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(5);
  }
}
