// `pnpm bench`: one ZooKeeper (testkit, or ZKTS_SERVER), then every workload on every client against it, one
// child process per client and workload, clients interleaved workload by workload. Prints the table of ratios
// and the target checks; writes bench/results/bench-<date>.json and .svg (plus latest.json / latest.svg).
//
//   node --conditions=zkts-source --import tsx bench/harness/run.ts [--quick] [--source]
//        [--clients zkts,nzk,native,java] [--workloads getPipelined,…]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { CACHE_WORKLOAD, runCacheBench } from '../caches/run.js';
import type { CacheBenchResult } from '../caches/run.js';
import { runServerBench, SERVER_WORKLOAD } from '../servers/run.js';
import type { ServerBenchResult } from '../servers/run.js';
import { runStormBench, STORM_WORKLOAD } from '../storm/run.js';
import type { StormResult } from '../storm/run.js';
import { createFixture } from './fixture.js';
import type { Fixture } from './fixture.js';
import { prepareJava } from './java.js';
import type { JavaRunner } from './java.js';
import { best, FULL, interleavedPick, LABELS, NODE_CLIENTS, notRun, parseHost, PASSES, QUICK } from './plan.js';
import { checkTargets, failuresText, table, targetsText } from './report.js';
import type { ClientId, Outcome, ResultGrid, RowWorkload } from './report.js';
import { startReplayProxy } from './replay-proxy.js';
import { benchServer, BENCH_SERVER_OPTIONS } from './server.js';
import { chart } from './svg.js';
import { DATA_WORKLOADS, FIXTURE_WORKLOADS, INTERLEAVED, LOCK_WORKLOADS, SCALE_WORKLOADS, TRACING_WORKLOADS } from './workloads.js';
import type { Metrics, WorkloadContext, WorkloadName, WorkloadParams } from './workloads.js';

const here = dirname(fileURLToPath(import.meta.url));
const benchDir = join(here, '..');
const repoRoot = join(benchDir, '..');

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

// zkts is measured as shipped: the packages' dist/ (tsc output, built by scripts/setup.sh), loaded by children
// that tsc compiled to bench/.build (compileChild) and that run on plain node. Under tsx, every module outside
// node_modules, zkts's dist/ included, is re-transformed with esbuild's __name() around each function, a cost
// the peers (in node_modules) never pay. `--source` runs zkts from src/ through tsx anyway (slower).
let fromSource = false;
const childScript = join(benchDir, '.build', 'harness', 'child.js');

function compileChild(): void {
  const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(benchDir, 'tsconfig.child.json')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cannot compile the benchmark's child (tsc -p bench/tsconfig.child.json):\n${r.stdout}${r.stderr}`);
}

type Extras = Pick<WorkloadContext, 'fixture' | 'proxy'>;

interface ChildLine {
  ok: boolean;
  metrics?: Metrics;
  perClient?: Record<string, Metrics>;
  error?: string;
}

/** One child process; resolves with its last stdout line (parsed), or why there is none. */
function spawnChild(client: string, workload: string, connectString: string, base: string, params: WorkloadParams, extras: Extras): Promise<ChildLine> {
  return new Promise((resolve) => {
    const entry = fromSource ? ['--conditions=zkts-source', '--import', 'tsx', join(here, 'child.ts')] : [childScript];
    const args = ['--expose-gc', ...entry, client, workload, connectString, base, JSON.stringify(params), JSON.stringify(extras)];
    const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 4 * 60_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const last = stdout.trim().split('\n').pop() ?? '';
      try {
        const parsed = JSON.parse(last) as ChildLine;
        resolve(parsed.ok ? parsed : { ok: false, error: (parsed.error ?? 'failed').split('\n').slice(0, 3).join(' | ') });
      } catch {
        resolve({ ok: false, error: `exit ${String(code ?? signal)}: ${stderr.trim().split('\n').slice(-3).join(' | ')}` });
      }
    });
  });
}

async function runChild(client: ClientId, workload: WorkloadName, connectString: string, base: string, params: WorkloadParams, extras: Extras = {}): Promise<Outcome> {
  const line = await spawnChild(client, workload, connectString, base, params, extras);
  return line.ok && line.metrics ? { metrics: line.metrics } : { error: line.error ?? 'no metrics' };
}

/** Every client in `ids` in one child (interleaved.ts): one outcome per client. */
async function runInterleaved(ids: ClientId[], connectString: string, base: string, params: WorkloadParams): Promise<Map<ClientId, Outcome>> {
  const line = await spawnChild(ids.join(','), INTERLEAVED, connectString, base, params, {});
  return new Map(ids.map((id): [ClientId, Outcome] => {
    const m = line.perClient?.[id];
    return [id, m ? { metrics: m } : { error: line.error ?? 'no metrics' }];
  }));
}

/** HEAD's short hash, `+dirty` when the working tree has changes (others may be mid-edit). */
function gitDescribe(): string {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).stdout.trim();
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: repoRoot, encoding: 'utf8' }).stdout.trim();
  return head ? `${head}${dirty ? '+dirty' : ''}` : 'unknown commit';
}

function summary(m: Metrics): string {
  return Object.entries(m)
    // A NaN (a figure the pass could not take) arrives through JSON as null.
    .map(([k, v]) => `${k}=${typeof v !== 'number' || !Number.isFinite(v) ? 'n/a' : Number.isInteger(v) ? v : v.toFixed(2)}`)
    .join(' ');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      source: { type: 'boolean', default: false },
      clients: { type: 'string' },
      workloads: { type: 'string' },
    },
  });
  const params = values.quick ? QUICK : FULL;
  fromSource = values.source;
  if (!fromSource) compileChild();
  const onlyClients = values.clients?.split(',');
  const onlyWorkloads = values.workloads?.split(',');
  const wanted = (c: ClientId): boolean => !onlyClients || onlyClients.includes(c) || (c === 'curator' && onlyClients.includes('java'));
  const all: RowWorkload[] = [...DATA_WORKLOADS, ...TRACING_WORKLOADS, ...LOCK_WORKLOADS, ...SCALE_WORKLOADS];
  all.splice(all.indexOf('getSequential') + 1, 0, INTERLEAVED);
  const workloads = all.filter((w) => !onlyWorkloads || onlyWorkloads.includes(w));

  const started = new Date();
  const loadBefore = os.loadavg();
  if (!process.env['ZKTS_SERVER']) log('bench: starting ZooKeeper (testkit)…');
  const { server, connectString } = await benchServer();
  log(`bench: server ${connectString}${values.quick ? ' (QUICK smoke run: small counts, not the benchmark)' : ''}`);

  let java: JavaRunner | string = 'not requested';
  if (wanted('java')) java = prepareJava(join(benchDir, 'java'));
  if (typeof java === 'string') log(`bench: Java client and Curator skipped: ${java}`);

  const grid: ResultGrid = {};
  let caches: CacheBenchResult | undefined;
  let servers: ServerBenchResult | undefined;
  let storm: StormResult | undefined;
  const run = `b${started.getTime().toString(36)}`;
  let fixture: Fixture | undefined;
  const notes: string[] = [];
  let serverVersion = 'unknown';
  try {
    if (server) serverVersion = (await server.fourLetter('srvr')).split('\n')[0] ?? serverVersion;
    // The server's JIT warms up on the first traffic: throw-away rounds so the first client isn't charged.
    log('bench: warming the server up (not measured)');
    const warm = { ...QUICK, getOps: 40_000, createDeletePairs: 5_000 };
    for (const w of ['getPipelined', 'createDelete', 'getSequential'] as const) await runChild('nzk', w, connectString, `/${run}-warm-${w}`, warm);
    if (workloads.some((w) => (FIXTURE_WORKLOADS as readonly string[]).includes(w)) && params.scale) {
      const n = params.scale.fixtureChildren;
      log(`bench: creating the fixture (${n} children, not measured)`);
      fixture = await createFixture(connectString, `/${run}-fixture`, n, params.window);
    }
    const upstream = parseHost(connectString);
    const change = fixture ? fixture.changeAll : () => Promise.reject(new Error('no fixture'));
    // Every run gets the fixture's path; watchReplay gets its own proxy (replay-proxy.ts) for the one run.
    const withExtras = async (workload: WorkloadName, go: (extras: Extras) => Promise<Outcome>): Promise<Outcome> => {
      if (workload !== 'watchReplay') return go({ fixture: fixture?.path });
      const proxy = await startReplayProxy(upstream, change);
      try {
        return await go({ fixture: fixture?.path, proxy: { port: proxy.port, controlPort: proxy.controlPort } });
      } finally {
        await proxy.close();
      }
    };

    for (const workload of workloads) {
      const row: Partial<Record<ClientId, Outcome>> = {};
      grid[workload] = row;
      if (workload === INTERLEAVED) {
        // One child for every Node client that runs getSequential; the batch order flips every pass too.
        const ids = NODE_CLIENTS.filter((c) => wanted(c.id) && c.workloads.includes('getSequential')).map((c) => c.id);
        const passes: Map<ClientId, Outcome>[] = [];
        for (let pass = 0; pass < (PASSES[workload] ?? 1) && ids.length > 0; pass++) {
          const t0 = Date.now();
          const outcomes = await runInterleaved(pass % 2 === 0 ? ids : [...ids].reverse(), connectString, `/${run}-interleaved-${pass}`, params);
          passes.push(outcomes);
          const took = ((Date.now() - t0) / 1000).toFixed(1);
          for (const [id, outcome] of outcomes) {
            log(`  ${workload.padEnd(17)} ${LABELS[id].padEnd(22)} ${took.padStart(5)}s ${'metrics' in outcome ? summary(outcome.metrics) : `ERROR ${outcome.error}`}`);
          }
        }
        Object.assign(row, interleavedPick(passes, ids));
        continue;
      }
      const steps: { id: ClientId; go: (pass: number) => Promise<Outcome> }[] = [];
      for (const c of NODE_CLIENTS) {
        if (!wanted(c.id) || !c.workloads.includes(workload)) continue;
        const reason = notRun(c.id, workload, params);
        if (reason) {
          notes.push(`  ${workload}, ${LABELS[c.id]}: ${reason}`);
          continue;
        }
        const base = (pass: number): string => `/${run}-${c.id}-${workload}-${pass}`;
        steps.push({ id: c.id, go: (pass) => withExtras(workload, (extras) => runChild(c.id, workload, connectString, base(pass), params, extras)) });
      }
      // The tracing rows measure zkts's own diagnostics channels: the JVM has nothing to run there.
      if (typeof java !== 'string' && !TRACING_WORKLOADS.includes(workload)) {
        const jvm = java;
        const id: ClientId = LOCK_WORKLOADS.includes(workload) ? 'curator' : 'java';
        steps.push({
          id,
          go: (pass) =>
            withExtras(workload, async (extras) => {
              try {
                const r = await jvm.run(workload, connectString, `/${run}-${id}-${pass}`, params, extras);
                return r.ok && r.metrics ? { metrics: r.metrics } : { error: r.error ?? 'failed' };
              } catch (e) {
                return { error: e instanceof Error ? e.message : String(e) };
              }
            }),
        });
      }
      // Neighbours on a shared machine make single runs noisy: each client runs the workload `passes` times,
      // the order reversed on every other pass so no client always goes first, and keeps its best run.
      const passes = PASSES[workload] ?? 1;
      const runs = new Map<ClientId, Outcome[]>();
      for (let pass = 0; pass < passes; pass++) {
        for (const step of pass % 2 === 0 ? steps : [...steps].reverse()) {
          const t0 = Date.now();
          const outcome = await step.go(pass);
          runs.set(step.id, [...(runs.get(step.id) ?? []), outcome]);
          const took = ((Date.now() - t0) / 1000).toFixed(1);
          log(`  ${workload.padEnd(17)} ${LABELS[step.id].padEnd(22)} ${took.padStart(5)}s ${'metrics' in outcome ? summary(outcome.metrics) : `ERROR ${outcome.error}`}`);
        }
      }
      for (const [id, outcomes] of runs) row[id] = best(workload, outcomes);
    }
    // The cache rows (bench/caches/run.ts): their own peers (Curator's CuratorCache, kazoo's TreeCache) and table.
    if (!onlyWorkloads || onlyWorkloads.includes(CACHE_WORKLOAD)) caches = await runCacheBench({ connectString, quick: values.quick, clients: onlyClients, base: `/${run}`, log });
    // The server rows (bench/servers/): @zkts/server beside ZooKeeper, each started fresh, the zkts client on both.
    if (!onlyWorkloads || onlyWorkloads.includes(SERVER_WORKLOAD)) {
      const runZkts = async (workload: string, cs: string, base: string, p: WorkloadParams): Promise<Outcome> => {
        const line = await spawnChild('zkts', workload, cs, base, p, {});
        return line.ok && line.metrics ? { metrics: line.metrics } : { error: line.error ?? 'no metrics' };
      };
      servers = await runServerBench({ quick: values.quick, fromSource, base: `/${run}`, log, runZkts });
    }
    // The reconnect-storm row (bench/storm/): a member with 1,000 sessions killed, zkts beside the Java client,
    // on a 3-member ensemble of its own. zkts from dist/ in a compiled child, like the other rows.
    if (!onlyWorkloads || onlyWorkloads.includes(STORM_WORKLOAD)) {
      if (fromSource) compileChild();
      const zktsChild = join(benchDir, '.build', 'storm', 'zkts-child.js');
      storm = await runStormBench({ quick: values.quick, clients: onlyClients, zktsChild, log });
    }
  } finally {
    if (typeof java !== 'string') java.dispose();
    await fixture?.close().catch(() => undefined);
    await server?.stop();
  }

  // A partial run (--workloads) checks only what it ran.
  const checks = checkTargets(grid).filter((c) => grid[c.workload] !== undefined);
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const machine = {
    cpu,
    cores: os.cpus().length,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    java: typeof java === 'string' ? `skipped: ${java}` : java.version,
    // The machine is shared: the 1-minute load average before and after says how noisy the run was.
    loadAverage: { before: loadBefore.map((l) => +l.toFixed(2)), after: os.loadavg().map((l) => +l.toFixed(2)) },
    commit: gitDescribe(),
  };
  const stamp = started.toISOString().replace(/[:]/g, '-').replace(/\.\d+Z$/, 'Z');
  const title = `zkts benchmark ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC${values.quick ? ' (QUICK smoke run)' : ''}`;
  const zk = serverVersion.replace(/^Zookeeper version: /, '').replace(/-\$\{mvngit\.commit\.id\}/, '').replace(/, built on .*$/, '');
  const load = `load ${machine.loadAverage.before[0] ?? '?'} → ${machine.loadAverage.after[0] ?? '?'}`;
  const subtitle = `${cpu}, ${machine.cores} cores, Node ${machine.node}, ${machine.java}; ZooKeeper ${zk}; ${load}; ${machine.commit}`;

  const failures = failuresText(grid, LABELS);
  const skipped = notes.length > 0 ? `\nNot run:\n${notes.join('\n')}\n` : '';
  const failed = failures ? `\nFailed runs:\n${failures}\n` : '';
  process.stdout.write(`\n${title}\n${subtitle}\n\n${table(grid, LABELS)}\n${skipped}${failed}\nTargets:\n${targetsText(checks)}\n`);
  if (caches) process.stdout.write(`\n${caches.text}\n`);
  if (servers) process.stdout.write(`\n${servers.text}\n`);
  if (storm) process.stdout.write(`\n${storm.text}\n`);

  const resultsDir = join(benchDir, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const report = {
    date: started.toISOString(),
    quick: values.quick,
    machine,
    server: { version: serverVersion, external: !server, options: server ? BENCH_SERVER_OPTIONS : undefined },
    zktsFrom: fromSource ? 'src (tsx)' : 'dist (tsc output)',
    params,
    clients: LABELS,
    results: grid,
    notRun: notes.map((n) => n.trim()),
    targets: checks,
    caches: caches && { params: caches.params, results: caches.results, targets: caches.targets },
    servers: servers && { params: { ...servers.params, workloads: undefined }, runs: servers.runs, errors: servers.errors },
    reconnectStorm: storm && { params: storm.params, runs: storm.runs },
  };
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const svg = chart(grid, LABELS, title, subtitle);
  // Partial runs (--quick, --clients, --workloads, --source) are marked in their name and never become latest.*.
  const partial = values.quick || onlyClients !== undefined || onlyWorkloads !== undefined || fromSource;
  const name = `bench-${stamp}${values.quick ? '-quick' : partial ? '-partial' : ''}`;
  writeFileSync(join(resultsDir, `${name}.json`), json);
  writeFileSync(join(resultsDir, `${name}.svg`), svg);
  if (!partial) {
    writeFileSync(join(resultsDir, 'latest.json'), json);
    writeFileSync(join(resultsDir, 'latest.svg'), svg);
  }
  process.stdout.write(`\nWrote ${relative(repoRoot, join(resultsDir, name))}.json and .svg\n`);
}

main().catch((e: unknown) => {
  log(`bench: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exitCode = 1;
});
