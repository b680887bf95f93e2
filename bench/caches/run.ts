// The cache rows of `pnpm bench` (workload `treeCache`): zkts's TreeCache beside Curator's CuratorCache (JVM) and
// kazoo's TreeCache (Debian's python3), on one tree of 10,000 leaves with 100-byte data, in the same run and
// against the same server as the other rows. Each implementation runs in its own process per pass (so heap figures
// are its own), passes interleaved with the order reversed each time; each time's best pass and the heap's median are kept, with the range.
//
// Called by bench/harness/run.ts; prints its own table and target checks and returns them for the JSON report.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { connect } from '@zkts/protocol';

import { FULL_CACHE, keptOfPasses, PAYLOAD, QUICK_CACHE, type CacheParams } from './params.js';

export const CACHE_WORKLOAD = 'treeCache';
export type CacheClientId = 'zkts' | 'curator' | 'kazoo';
export type CacheOutcome = { metrics: Record<string, number>; runs: Record<string, number>[] } | { error: string };

const here = dirname(fileURLToPath(import.meta.url));
const benchDir = join(here, '..');
const repoRoot = join(benchDir, '..');
const PYTHON = '/usr/bin/python3';
const JARS = [
  'curator-recipes', 'curator-framework', 'curator-client', 'zookeeper', 'zookeeper-jute', 'guava', 'slf4j-api', 'slf4j-nop',
  'netty-handler', 'netty-buffer', 'netty-codec', 'netty-common', 'netty-resolver', 'netty-transport',
  'netty-transport-native-epoll', 'netty-transport-native-unix-common', 'metrics-core', 'snappy-java', 'commons-io',
].map((j) => `/usr/share/java/${j}.jar`);
const PASSES = 3;

export const CACHE_ROWS = [
  { metric: 'loadMs', label: 'TreeCache 10k nodes: initial load', unit: 'ms' },
  { metric: 'heapPerNode', label: 'TreeCache: heap per cached node', unit: 'bytes' },
  { metric: 'eventP50Us', label: 'TreeCache: remote setData → event p50', unit: 'µs' },
  { metric: 'eventP99Us', label: 'TreeCache: remote setData → event p99', unit: 'µs' },
] as const;

export const CACHE_TARGETS = [
  { name: 'TreeCache load ≤ 0.5× CuratorCache', metric: 'loadMs', factor: 0.5 },
  { name: 'TreeCache heap per node ≤ 0.5× CuratorCache', metric: 'heapPerNode', factor: 0.5 },
] as const;

export interface CacheBenchResult {
  params: CacheParams;
  results: Partial<Record<CacheClientId, CacheOutcome>>;
  targets: { name: string; zkts: number | undefined; curator: number | undefined; ratio: number | undefined; pass: boolean | undefined }[];
  text: string;
}

/** Creates the measured tree (dirs × leaves under <tree>/main) and the warm-up tree (<tree>/warm), pipelined. */
async function prepareTree(connectString: string, tree: string, p: CacheParams): Promise<void> {
  const zk = await connect(connectString, { sessionTimeout: 30_000 });
  try {
    const paths = [tree, `${tree}/main`, `${tree}/warm`];
    const level = (root: string, dirs: number, leaves: number): [string[], string[]] => {
      const ds = Array.from({ length: dirs }, (_, i) => `${root}/d${i}`);
      return [ds, ds.flatMap((d) => Array.from({ length: leaves }, (_, j) => `${d}/n${j}`))];
    };
    const [mainDirs, mainLeaves] = level(`${tree}/main`, p.dirs, p.leaves);
    const [warmDirs, warmLeaves] = level(`${tree}/warm`, p.warmDirs, p.warmLeaves);
    for (const batch of [paths, [...mainDirs, ...warmDirs], [...mainLeaves, ...warmLeaves]]) {
      for (let i = 0; i < batch.length; i += 2000) await Promise.all(batch.slice(i, i + 2000).map((path) => zk.create(path, PAYLOAD)));
    }
  } finally {
    await zk.close();
  }
}

function lastJson(stdout: string): { ok: boolean; metrics?: Record<string, number>; error?: string } {
  const line = stdout.trim().split('\n').reverse().find((l) => l.startsWith('{')) ?? '';
  return JSON.parse(line) as { ok: boolean; metrics?: Record<string, number>; error?: string };
}

function runProcess(command: string, args: string[]): Promise<Record<string, number> | string> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 5 * 60_000);
    child.on('error', (e) => resolve(e.message));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      try {
        const parsed = lastJson(stdout);
        resolve(parsed.ok && parsed.metrics ? parsed.metrics : (parsed.error ?? 'failed').split('\n').slice(0, 3).join(' | '));
      } catch {
        resolve(`exit ${String(code ?? signal)}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
      }
    });
  });
}

/** Compiles the zkts child (like the harness's) and CacheBench.java; says why a runner is unavailable. */
function prepareRunners(wanted: readonly CacheClientId[]): { runners: Partial<Record<CacheClientId, (cs: string, tree: string, p: CacheParams) => Promise<Record<string, number> | string>>>; skipped: string[]; dispose: () => void } {
  const runners: Partial<Record<CacheClientId, (cs: string, tree: string, p: CacheParams) => Promise<Record<string, number> | string>>> = {};
  const skipped: string[] = [];
  let classes: string | undefined;
  if (wanted.includes('zkts')) {
    const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.json')], { encoding: 'utf8' });
    if (r.status !== 0) skipped.push(`zkts: tsc -p bench/caches failed: ${r.stdout}${r.stderr}`);
    const script = join(benchDir, '.build', 'caches', 'child.js');
    runners.zkts = (cs, tree, p) => runProcess(process.execPath, ['--expose-gc', script, cs, tree, JSON.stringify(p)]);
  }
  if (wanted.includes('curator')) {
    const missing = JARS.filter((j) => !existsSync(j));
    if (missing.length > 0) skipped.push(`curator: jars missing: ${missing.join(', ')}`);
    else {
      classes = mkdtempSync(join(tmpdir(), 'zkts-bench-cache-'));
      const compiled = spawnSync('javac', ['-nowarn', '-d', classes, '-cp', JARS.join(':'), join(here, 'CacheBench.java')], { encoding: 'utf8' });
      if (compiled.status !== 0) skipped.push(`curator: javac failed: ${(compiled.stderr ?? String(compiled.error)).slice(0, 500)}`);
      else {
        const cp = `${JARS.join(':')}:${classes}`;
        // The same fixed heap as the harness's JVMs: GC behaviour comparable from run to run.
        runners.curator = (cs, tree, p) =>
          runProcess('java', ['-Xms512m', '-Xmx1g', '-cp', cp, 'CacheBench', cs, tree, `dirs=${p.dirs}`, `leaves=${p.leaves}`, `events=${p.events}`, `warmEvents=${p.warmEvents}`]);
      }
    }
  }
  if (wanted.includes('kazoo')) {
    const probe = spawnSync(PYTHON, ['-c', 'import kazoo.recipe.cache'], { encoding: 'utf8' });
    if (probe.status !== 0) skipped.push(`kazoo: ${PYTHON} cannot import kazoo (apt-get install python3-kazoo; scripts/setup.sh does)`);
    else runners.kazoo = (cs, tree, p) => runProcess(PYTHON, [join(here, 'kazoo_cache.py'), cs, tree, String(p.dirs), String(p.leaves), String(p.events), String(p.warmEvents)]);
  }
  return { runners, skipped, dispose: () => classes !== undefined && rmSync(classes, { recursive: true, force: true }) };
}

/** "min–max" of a metric over the passes ('' for one pass). */
function rangeOf(outcome: CacheOutcome | undefined, metric: string): string {
  if (outcome === undefined || !('runs' in outcome) || outcome.runs.length < 2) return '';
  const vs = outcome.runs.map((r) => r[metric]).filter((v): v is number => v !== undefined);
  return ` ${fmt(Math.min(...vs))}–${fmt(Math.max(...vs))}`;
}

const fmt = (v: number | undefined): string => (v === undefined ? '—' : v >= 100 ? v.toFixed(0) : v.toFixed(1));

function table(results: CacheBenchResult['results']): string {
  const value = (id: CacheClientId, metric: string): number | undefined => {
    const o = results[id];
    return o !== undefined && 'metrics' in o ? o.metrics[metric] : undefined;
  };
  const lines = [`${'cache rows'.padEnd(40)} ${'unit'.padEnd(6)} ${'zkts'.padStart(20)} ${'Curator CuratorCache'.padStart(32)} ${'kazoo TreeCache'.padStart(32)}`];
  for (const row of CACHE_ROWS) {
    const z = value('zkts', row.metric);
    const cell = (id: CacheClientId): string => {
      const v = value(id, row.metric);
      if (results[id] === undefined) return '';
      const ratio = id !== 'zkts' && z !== undefined && v ? ` (×${(z / v).toFixed(2)})` : '';
      return `${fmt(v)}${ratio}${rangeOf(results[id], row.metric)}`;
    };
    lines.push(`${row.label.padEnd(40)} ${row.unit.padEnd(6)} ${cell('zkts').padStart(20)} ${cell('curator').padStart(32)} ${cell('kazoo').padStart(32)}`);
  }
  for (const [id, o] of Object.entries(results)) if ('error' in o) lines.push(`  ${id}: ERROR ${o.error}`);
  lines.push('(×r) = zkts / peer, lower is better for every cache row; each figure is its best pass (the heap: the median pass), then the range over the passes (every pass in the JSON).');
  return lines.join('\n');
}

export async function runCacheBench(options: {
  connectString: string;
  quick: boolean;
  clients: readonly string[] | undefined;
  base: string;
  log: (line: string) => void;
}): Promise<CacheBenchResult> {
  const { connectString, log } = options;
  const p = options.quick ? QUICK_CACHE : FULL_CACHE;
  const wanted = (['zkts', 'curator', 'kazoo'] as const).filter(
    (c) => options.clients === undefined || options.clients.includes(c) || (c === 'curator' && options.clients.includes('java')),
  );
  const tree = `${options.base}-cachetree`;
  log(`bench: cache rows: preparing ${p.dirs * (p.leaves + 1) + 1} nodes under ${tree}/main`);
  await prepareTree(connectString, tree, p);
  const { runners, skipped, dispose } = prepareRunners(wanted);
  for (const s of skipped) log(`bench: cache rows: ${s}`);
  const runs = new Map<CacheClientId, (Record<string, number> | string)[]>();
  try {
    const order = wanted.filter((c) => runners[c] !== undefined);
    for (let pass = 0; pass < (options.quick ? 1 : PASSES); pass++) {
      for (const id of pass % 2 === 0 ? order : [...order].reverse()) {
        const t0 = Date.now();
        const outcome = await (runners[id] as (cs: string, tree: string, p: CacheParams) => Promise<Record<string, number> | string>)(connectString, tree, p);
        runs.set(id, [...(runs.get(id) ?? []), outcome]);
        const took = ((Date.now() - t0) / 1000).toFixed(1);
        const shown = typeof outcome === 'string' ? `ERROR ${outcome}` : Object.entries(outcome).map(([k, v]) => `${k}=${fmt(v)}`).join(' ');
        log(`  ${CACHE_WORKLOAD.padEnd(17)} ${id.padEnd(22)} ${took.padStart(5)}s ${shown}`);
      }
    }
  } finally {
    dispose();
  }
  const results: CacheBenchResult['results'] = {};
  for (const [id, outcomes] of runs) {
    const ok = outcomes.filter((o): o is Record<string, number> => typeof o !== 'string');
    if (ok.length === 0) results[id] = { error: String(outcomes[0]) };
    else results[id] = { metrics: keptOfPasses(ok), runs: ok };
  }
  const metric = (id: CacheClientId, m: string): number | undefined => {
    const o = results[id];
    return o !== undefined && 'metrics' in o ? o.metrics[m] : undefined;
  };
  const targets = CACHE_TARGETS.map((t) => {
    const zkts = metric('zkts', t.metric);
    const curator = metric('curator', t.metric);
    const ratio = zkts !== undefined && curator ? zkts / curator : undefined;
    return { name: t.name, zkts, curator, ratio, pass: ratio === undefined ? undefined : ratio <= t.factor };
  });
  const targetText = targets
    .map((t) => `  ${t.pass === undefined ? 'n/a ' : t.pass ? 'PASS' : 'MISS'}  ${t.name}${t.ratio === undefined ? '' : `: ratio ${t.ratio.toFixed(2)} (zkts ${fmt(t.zkts)} vs ${fmt(t.curator)})`}`)
    .join('\n');
  return { params: p, results, targets, text: `${table(results)}\n\nCache targets:\n${targetText}` };
}
