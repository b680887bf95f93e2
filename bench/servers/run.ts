// The server rows of `pnpm bench` (workload `servers`): @zkts/server beside ZooKeeper 3.8 (the bench's JVM
// options), each started fresh per pass, with the zkts client on both. Start to first request; server heap per
// 10,000 nodes and per idle session; pipelined getData and create+delete on one connection and on 32; mutex
// handoffs with 32 contenders. The throughput rows run in the harness's child (harness/child.ts) like every
// other row, after throw-away rounds that warm the server's JIT; the start and heap rows from here. Passes alternate the order; each figure is the best pass, with
// the range of all passes. Called by harness/run.ts; returns its table for stdout and its figures for the JSON.
import { performance } from 'node:perf_hooks';

import { connect } from '@zkts/protocol';
import type { ZkClient } from '@zkts/protocol';

import { FULL, QUICK } from '../harness/plan.js';
import type { Metrics, WorkloadParams } from '../harness/workloads.js';
import { startZktsServer, startZooKeeperServer, type RunningServer, type ServerId } from './targets.js';

export const SERVER_WORKLOAD = 'servers';

export interface ServerBenchParams {
  passes: number;
  nodes: number;
  sessions: number;
  workloads: WorkloadParams;
}

export const FULL_SERVERS: ServerBenchParams = { passes: 3, nodes: 10_000, sessions: 1_000, workloads: FULL };
export const QUICK_SERVERS: ServerBenchParams = { passes: 1, nodes: 10_000, sessions: 200, workloads: QUICK };

export const SERVER_ROWS = [
  { metric: 'startMs', label: 'server process start → first reply', unit: 'ms', better: 'lower' },
  { metric: 'startInProcessMs', label: 'startServer() in-process → first reply', unit: 'ms', better: 'lower' },
  { metric: 'heapPer10kNodes', label: 'server heap per 10,000 nodes (100 B)', unit: 'bytes', better: 'lower' },
  { metric: 'heapPerSession', label: 'server heap per idle session', unit: 'bytes', better: 'lower' },
  { metric: 'get1', label: 'getData pipelined, 1 connection', unit: 'ops/s', better: 'higher' },
  { metric: 'get32', label: 'getData pipelined, 32 connections', unit: 'ops/s', better: 'higher' },
  { metric: 'createDelete1', label: 'create+delete pipelined, 1 connection', unit: 'pairs/s', better: 'higher' },
  { metric: 'createDelete32', label: 'create+delete pipelined, 32 connections', unit: 'pairs/s', better: 'higher' },
  { metric: 'handoffs32', label: 'mutex handoffs, 32 contenders', unit: 'handoffs/s', better: 'higher' },
] as const;

/** Runs one harness workload in the harness's child with the zkts client (run.ts passes its runner in). */
export type RunZkts = (workload: string, connectString: string, base: string, params: WorkloadParams) => Promise<{ metrics: Metrics } | { error: string }>;

export interface ServerBenchResult {
  params: ServerBenchParams;
  /** Every pass's figures per server. */
  runs: Record<ServerId, Metrics[]>;
  errors: string[];
  text: string;
}

async function inBatches<T>(n: number, size: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += size) out.push(...(await Promise.all(Array.from({ length: Math.min(size, n - i) }, (_, k) => make(i + k)))));
  return out;
}

async function measureServer(id: ServerId, p: ServerBenchParams, base: string, fromSource: boolean, runZkts: RunZkts, errors: string[]): Promise<Metrics> {
  const t0 = performance.now();
  const server: RunningServer = id === 'zkts' ? await startZktsServer(fromSource) : await startZooKeeperServer();
  const m: Metrics = {};
  try {
    const zk: ZkClient = await connect(server.connectString, { sessionTimeout: 30_000 });
    try {
      await zk.getData('/');
      m['startMs'] = performance.now() - t0;
      if (server.inProcessStartMs !== undefined) m['startInProcessMs'] = server.inProcessStartMs;
      // Nodes: 100-byte data under one parent, created 1,000 at a time.
      const h0 = await server.heap();
      await zk.create(`${base}-nodes`);
      const data = new Uint8Array(100).fill(0x61);
      await inBatches(p.nodes, 1000, (i) => zk.create(`${base}-nodes/n${i}`, data));
      m['heapPer10kNodes'] = ((await server.heap()) - h0) * (10_000 / p.nodes);
      // Idle sessions: opened 50 at a time, measured after a second of idling.
      const h1 = await server.heap();
      const sessions = await inBatches(p.sessions, 50, () => connect(server.connectString, { sessionTimeout: 30_000 }));
      await new Promise((r) => setTimeout(r, 1000));
      m['heapPerSession'] = ((await server.heap()) - h1) / p.sessions;
      await inBatches(sessions.length, 100, (i) => (sessions[i] as ZkClient).close());
    } finally {
      await zk.close();
    }
    // Each server's JIT warms up on throw-away rounds first, as harness/run.ts does for the main server.
    const warm = { ...QUICK, getOps: 40_000, createDeletePairs: 5_000 };
    for (const w of ['getPipelined', 'createDelete']) await runZkts(w, server.connectString, `${base}-warm-${w}`, warm);
    const rows: [string, string, string][] = [
      ['get1', 'getPipelined', 'opsPerSec'],
      ['get32', 'getPipelined32', 'opsPerSec'],
      ['createDelete1', 'createDelete', 'pairsPerSec'],
      ['createDelete32', 'createDelete32', 'pairsPerSec'],
      ['handoffs32', 'handoffs32', 'handoffsPerSec'],
    ];
    for (const [metric, workload, field] of rows) {
      const r = await runZkts(workload, server.connectString, `${base}-${workload}`, p.workloads);
      if ('metrics' in r && r.metrics[field] !== undefined) m[metric] = r.metrics[field];
      else errors.push(`${id} ${workload}: ${'error' in r ? r.error : `no ${field}`}`);
    }
  } finally {
    await server.stop();
  }
  return m;
}

function format(v: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  return a >= 100_000 ? `${(v / 1000).toFixed(0)}k` : a >= 10_000 ? `${(v / 1000).toFixed(1)}k` : a >= 100 ? v.toFixed(0) : v.toFixed(1);
}

/** Best of the passes (by the row's direction) and the range of every pass. */
export function summarize(values: readonly number[], better: 'higher' | 'lower'): { best: number; min: number; max: number } | undefined {
  if (values.length === 0) return undefined;
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { best: better === 'higher' ? max : min, min, max };
}

export function serverTable(runs: Record<ServerId, Metrics[]>): string {
  const pad = (s: string, n: number): string => s.padEnd(n);
  const lines = [`${pad('server row', 42)}${pad('unit', 12)}${pad('@zkts/server best (range)', 28)}${pad('ZooKeeper best (range)', 28)}zkts / ZooKeeper (range)`];
  for (const row of SERVER_ROWS) {
    const of = (id: ServerId): number[] => runs[id].map((m) => m[row.metric]).filter((v): v is number => v !== undefined);
    const z = summarize(of('zkts'), row.better);
    const j = summarize(of('zookeeper'), row.better);
    const cell = (s: ReturnType<typeof summarize>): string => (s ? `${format(s.best)} (${format(s.min)}–${format(s.max)})` : '—');
    const ratio = z && j ? `×${(z.best / j.best).toFixed(2)} (${(z.min / j.max).toFixed(2)}–${(z.max / j.min).toFixed(2)})` : '—';
    lines.push(`${pad(row.label, 42)}${pad(row.unit, 12)}${pad(cell(z), 28)}${pad(cell(j), 28)}${ratio}`);
  }
  lines.push('Both servers fresh per pass, the zkts client on both; for ms and bytes lower is better. bench/README.md, "Server rows".');
  return lines.join('\n');
}

export async function runServerBench(options: { quick: boolean; fromSource: boolean; base: string; log: (line: string) => void; runZkts: RunZkts }): Promise<ServerBenchResult> {
  const p = options.quick ? QUICK_SERVERS : FULL_SERVERS;
  const runs: Record<ServerId, Metrics[]> = { zkts: [], zookeeper: [] };
  const errors: string[] = [];
  for (let pass = 0; pass < p.passes; pass++) {
    const order: ServerId[] = pass % 2 === 0 ? ['zkts', 'zookeeper'] : ['zookeeper', 'zkts'];
    for (const id of order) {
      const t0 = Date.now();
      try {
        const m = await measureServer(id, p, `${options.base}-srv-${id}-${pass}`, options.fromSource, options.runZkts, errors);
        runs[id].push(m);
        const text = Object.entries(m).map(([k, v]) => `${k}=${format(v)}`).join(' ');
        options.log(`  servers          ${id.padEnd(22)} ${((Date.now() - t0) / 1000).toFixed(1).padStart(5)}s ${text}`);
      } catch (e) {
        errors.push(`${id} pass ${pass}: ${e instanceof Error ? e.message : String(e)}`);
        options.log(`  servers          ${id.padEnd(22)} ERROR ${errors[errors.length - 1] ?? ''}`);
      }
    }
  }
  const failed = errors.length > 0 ? `\nServer rows, failed runs:\n${errors.map((e) => `  ${e}`).join('\n')}` : '';
  return { params: p, runs, errors, text: `${serverTable(runs)}${failed}` };
}
