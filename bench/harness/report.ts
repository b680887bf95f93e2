// Turns the raw results of one run into the printed table of ratios (zkts / peer) and the target checks.
import type { INTERLEAVED, Metrics, WorkloadName } from './workloads.js';

/** A row of the table: a workload, or the interleaved sequential run of every Node client in one process. */
export type RowWorkload = WorkloadName | typeof INTERLEAVED;

export type ClientId = 'zkts' | 'nzk' | 'native' | 'java' | 'curator' | 'raw';
/** `raw` is not a peer but the server's ceiling for one connection (bench/clients/raw.ts). */
export const PEERS: readonly ClientId[] = ['nzk', 'native', 'java', 'curator', 'raw'];

/** A client's result for one workload: the kept run's metrics (and every run's, when there were several). */
export type Outcome = { metrics: Metrics; runs?: Metrics[] } | { error: string };
export type ResultGrid = Partial<Record<RowWorkload, Partial<Record<ClientId, Outcome>>>>;

export interface Row {
  workload: RowWorkload;
  metric: string;
  label: string;
  unit: string;
  better: 'higher' | 'lower';
}

/** The headline figures, in table order. */
export const ROWS: readonly Row[] = [
  { workload: 'getPipelined', metric: 'opsPerSec', label: 'getData pipelined (window 1000)', unit: 'ops/s', better: 'higher' },
  { workload: 'getPipelined', metric: 'cpuUsPerOp', label: 'getData pipelined: client CPU', unit: 'µs/op', better: 'lower' },
  { workload: 'getPipelinedTracing', metric: 'cpuUsPerOp', label: 'pipelined get CPU, no channel subscriber', unit: 'µs/op', better: 'lower' },
  { workload: 'getPipelinedTracing', metric: 'cpuUsPerOpObserved', label: 'pipelined get CPU, no-op on every channel', unit: 'µs/op', better: 'lower' },
  { workload: 'getPipelinedTracing', metric: 'cpuUsPerOpOtel', label: 'pipelined get CPU, @zkts/opentelemetry + SDK', unit: 'µs/op', better: 'lower' },
  { workload: 'getSequential', metric: 'opsPerSec', label: 'getData sequential', unit: 'ops/s', better: 'higher' },
  { workload: 'getSequential', metric: 'p50Us', label: 'getData sequential p50', unit: 'µs', better: 'lower' },
  { workload: 'getSequential', metric: 'p99Us', label: 'getData sequential p99', unit: 'µs', better: 'lower' },
  { workload: 'getSequentialInterleaved', metric: 'p50Us', label: 'getData sequential p50, all in 1 process', unit: 'µs', better: 'lower' },
  { workload: 'getSequentialInterleaved', metric: 'p10Us', label: 'getData sequential p10, all in 1 process', unit: 'µs', better: 'lower' },
  { workload: 'createDelete', metric: 'pairsPerSec', label: 'create+delete pipelined', unit: 'pairs/s', better: 'higher' },
  { workload: 'createDelete', metric: 'cpuUsPerPair', label: 'create+delete: client CPU', unit: 'µs/pair', better: 'lower' },
  { workload: 'watches', metric: 'totalMs', label: '10k watches set+fired+delivered', unit: 'ms', better: 'lower' },
  { workload: 'watches', metric: 'heapBytes', label: '10k watches: client heap (JS/JVM)', unit: 'bytes', better: 'lower' },
  { workload: 'mutexUncontended', metric: 'cyclesPerSec', label: 'mutex uncontended acquire+release', unit: 'cycles/s', better: 'higher' },
  { workload: 'handoffs8', metric: 'handoffsPerSec', label: 'mutex handoffs, 8 contenders', unit: 'handoffs/s', better: 'higher' },
  { workload: 'handoffs32', metric: 'handoffsPerSec', label: 'mutex handoffs, 32 contenders', unit: 'handoffs/s', better: 'higher' },
  { workload: 'waiters', metric: 'eventsPerHandoff', label: '1000 waiters: watch events per handoff', unit: 'events', better: 'lower' },
  { workload: 'waiters', metric: 'heapPerWaiter', label: '1000 waiters: heap per waiter', unit: 'bytes', better: 'lower' },
  { workload: 'sessions1k', metric: 'connectMs', label: '1000 sessions: connect all', unit: 'ms', better: 'lower' },
  { workload: 'sessions1k', metric: 'heapPerSession', label: '1000 sessions: heap per idle session', unit: 'bytes', better: 'lower' },
  { workload: 'sessions1k', metric: 'rssPerSession', label: '1000 sessions: RSS per idle session', unit: 'bytes', better: 'lower' },
  { workload: 'sessions1k', metric: 'rssPerSessionSettled', label: '1000 sessions: RSS after GC, young excl.', unit: 'bytes', better: 'lower' },
  { workload: 'sessions1k', metric: 'rssPerSessionConnected', label: '1000 sessions: RSS 1 s after connecting', unit: 'bytes', better: 'lower' },
  { workload: 'sessions1k', metric: 'idleCpuMsPerSec', label: '1000 idle sessions: client CPU', unit: 'ms/s', better: 'lower' },
  { workload: 'watchReplay', metric: 'replayMs', label: '100k watches: reconnect → all fired', unit: 'ms', better: 'lower' },
  { workload: 'getLarge', metric: 'mbPerSec', label: 'getData 1 MiB, sequential', unit: 'MB/s', better: 'higher' },
  { workload: 'getLarge', metric: 'cpuMsPerGet', label: 'getData 1 MiB: client CPU', unit: 'ms/get', better: 'lower' },
  { workload: 'children100k', metric: 'msPerCall', label: 'getChildren, 100k children (p50)', unit: 'ms/call', better: 'lower' },
  { workload: 'children100k', metric: 'resultHeapBytes', label: '100k children: heap of one result', unit: 'bytes', better: 'lower' },
];

export interface Target {
  name: string;
  workload: RowWorkload;
  metric: string;
  /** Compared with the peer's figure times `factor`, or with `factor` itself when there is no peer. */
  peer?: ClientId;
  factor: number;
  op: '>=' | '<=' | '==';
}

export const TARGETS: readonly Target[] = [
  { name: 'pipelined get ≥ Java client', workload: 'getPipelined', metric: 'opsPerSec', peer: 'java', factor: 1, op: '>=' },
  { name: 'pipelined get ≥ 1.5× node-zookeeper-client', workload: 'getPipelined', metric: 'opsPerSec', peer: 'nzk', factor: 1.5, op: '>=' },
  { name: 'CPU per pipelined get ≤ 0.25× node-zookeeper-client', workload: 'getPipelined', metric: 'cpuUsPerOp', peer: 'nzk', factor: 0.25, op: '<=' },
  { name: 'sequential get ≥ Java client', workload: 'getSequential', metric: 'opsPerSec', peer: 'java', factor: 1, op: '>=' },
  { name: 'sequential get p50 ≤ 1.05× raw socket (interleaved)', workload: 'getSequentialInterleaved', metric: 'p50Us', peer: 'raw', factor: 1.05, op: '<=' },
  { name: 'uncontended lock cycle ≥ 1.5× Curator', workload: 'mutexUncontended', metric: 'cyclesPerSec', peer: 'curator', factor: 1.5, op: '>=' },
  { name: 'handoffs (8 contenders) ≥ 1.3× Curator', workload: 'handoffs8', metric: 'handoffsPerSec', peer: 'curator', factor: 1.3, op: '>=' },
  { name: 'handoffs (32 contenders) ≥ 1.3× Curator', workload: 'handoffs32', metric: 'handoffsPerSec', peer: 'curator', factor: 1.3, op: '>=' },
  { name: 'exactly one watch event per handoff', workload: 'waiters', metric: 'eventsPerHandoff', factor: 1, op: '==' },
];

export function value(grid: ResultGrid, workload: RowWorkload, client: ClientId, metric: string): number | undefined {
  const outcome = grid[workload]?.[client];
  if (!outcome || !('metrics' in outcome)) return undefined;
  const v = outcome.metrics[metric];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export interface TargetCheck {
  name: string;
  workload: RowWorkload;
  zkts: number | undefined;
  peer: number | undefined;
  /** zkts / peer, when there is a peer. */
  ratio: number | undefined;
  pass: boolean | undefined;
}

export function checkTargets(grid: ResultGrid): TargetCheck[] {
  return TARGETS.map((t) => {
    const zkts = value(grid, t.workload, 'zkts', t.metric);
    const peer = t.peer ? value(grid, t.workload, t.peer, t.metric) : undefined;
    const bound = t.peer ? (peer === undefined ? undefined : peer * t.factor) : t.factor;
    let pass: boolean | undefined;
    if (zkts !== undefined && bound !== undefined) {
      pass = t.op === '>=' ? zkts >= bound : t.op === '<=' ? zkts <= bound : Math.abs(zkts - bound) < 1e-9;
    }
    return { name: t.name, workload: t.workload, zkts, peer, ratio: zkts !== undefined && peer ? zkts / peer : undefined, pass };
  });
}

export function format(v: number | undefined): string {
  if (v === undefined) return '—';
  const a = Math.abs(v);
  if (a >= 100_000) return `${(v / 1000).toFixed(0)}k`;
  if (a >= 10_000) return `${(v / 1000).toFixed(1)}k`;
  if (a >= 100) return v.toFixed(0);
  if (a >= 10) return v.toFixed(1);
  return v.toFixed(2);
}

const pad = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const padL = (s: string, n: number): string => (s.length >= n ? s : ' '.repeat(n - s.length) + s);

/** A plain-text table: zkts's figure, then each peer's figure with the ratio zkts / peer. */
export function table(grid: ResultGrid, labels: Record<ClientId, string>): string {
  const lines: string[] = [];
  const head = [pad('workload', 40), pad('unit', 11), padL('zkts', 9)];
  for (const p of PEERS) head.push(padL(labels[p], 22));
  lines.push(head.join(' '));
  for (const row of ROWS) {
    // A partial run (--workloads) prints only what it ran.
    if (grid[row.workload] === undefined) continue;
    const z = value(grid, row.workload, 'zkts', row.metric);
    const cells = [pad(row.label, 40), pad(row.unit, 11), padL(format(z), 9)];
    for (const p of PEERS) {
      const v = value(grid, row.workload, p, row.metric);
      const has = grid[row.workload]?.[p] !== undefined;
      const ratio = z !== undefined && v ? ` (×${(z / v).toFixed(2)})` : '';
      cells.push(padL(has ? `${format(v)}${ratio}` : '', 22));
    }
    lines.push(cells.join(' '));
  }
  lines.push('(×r) = zkts / peer; for µs, ms and bytes lower is better. Lock rows: node-zookeeper-client = the seeds\' naive lock, curator = InterProcessMutex, raw socket = the fewest requests a lock can make (uncontended only).');
  lines.push('Rows at scale: see bench/README.md for each method; an empty cell is a peer that does not run that row, "—" one that failed.');
  return lines.join('\n');
}

/** Every run that failed, with its reason: a peer that cannot do a row says why here (and in the JSON). */
export function failuresText(grid: ResultGrid, labels: Record<ClientId, string>): string {
  const lines: string[] = [];
  for (const [workload, row] of Object.entries(grid)) {
    for (const [client, outcome] of Object.entries(row ?? {})) {
      if (outcome && 'error' in outcome) lines.push(`  ${workload}, ${labels[client as ClientId]}: ${outcome.error}`);
    }
  }
  return lines.join('\n');
}

export function targetsText(checks: readonly TargetCheck[]): string {
  return checks
    .map((c) => {
      const mark = c.pass === undefined ? 'n/a ' : c.pass ? 'PASS' : 'MISS';
      const detail = c.ratio !== undefined ? `ratio ${c.ratio.toFixed(2)} (zkts ${format(c.zkts)} vs ${format(c.peer)})` : `zkts ${format(c.zkts)}`;
      return `  ${mark}  ${c.name}: ${detail}`;
    })
    .join('\n');
}
