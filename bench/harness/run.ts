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

import { startZooKeeper } from '@zkts/testkit';
import type { ZooKeeperServer } from '@zkts/testkit';

import { createFixture } from './fixture.js';
import type { Fixture } from './fixture.js';
import { prepareJava } from './java.js';
import type { JavaRunner } from './java.js';
import { checkTargets, failuresText, ROWS, table, targetsText } from './report.js';
import type { ClientId, Outcome, ResultGrid } from './report.js';
import { startReplayProxy } from './replay-proxy.js';
import { chart } from './svg.js';
import { DATA_WORKLOADS, FIXTURE_WORKLOADS, LOCK_WORKLOADS, SCALE_WORKLOADS } from './workloads.js';
import type { Metrics, WorkloadContext, WorkloadName, WorkloadParams } from './workloads.js';

const here = dirname(fileURLToPath(import.meta.url));
const benchDir = join(here, '..');
const repoRoot = join(benchDir, '..');

const FULL: WorkloadParams = {
  window: 1000,
  getOps: 50_000,
  getWarmup: 15_000,
  seqOps: 5_000,
  seqWarmup: 1_000,
  createDeletePairs: 8_000,
  createDeleteWarmup: 2_000,
  watches: 10_000,
  lockCycles: 800,
  lockWarmup: 200,
  handoffs: 800,
  waiters: 1_000,
  waiterSessions: 10,
  scale: {
    sessions: 1_000,
    connectWindow: 100,
    idleMs: 10_000,
    fixtureChildren: 100_000,
    largeBytes: 1024 * 1024,
    largeOps: 100,
    largeWarmup: 10,
    childrenCalls: 7,
    childrenWarmup: 2,
  },
};
// Smoke runs only (`--quick`): every code path, small counts. Its figures are not the benchmark.
const QUICK: WorkloadParams = {
  ...FULL,
  getOps: 5_000,
  getWarmup: 1_000,
  seqOps: 500,
  seqWarmup: 100,
  createDeletePairs: 1_000,
  createDeleteWarmup: 200,
  watches: 1_000,
  lockCycles: 100,
  lockWarmup: 20,
  handoffs: 200,
  waiters: 100,
  scale: {
    sessions: 100,
    connectWindow: 50,
    idleMs: 2_000,
    fixtureChildren: 10_000,
    largeBytes: 1024 * 1024,
    largeOps: 10,
    largeWarmup: 2,
    childrenCalls: 3,
    childrenWarmup: 1,
  },
};

// The testkit's defaults suit tests (C1 only, for a fast start); a benchmark server gets the full JIT so the
// server is not the bottleneck that flattens every ratio. forceSync=no is the testkit's default: writes then
// measure the clients and ZooKeeper, not this (shared) machine's disk.
// The rows at scale need frames above ZooKeeper's 1 MiB default (a 1 MiB node, a 100,000-child listing, a
// client replaying 100,000 watches in one SetWatches) and a session that survives the watch-replay row's time
// away (maxSessionTimeout 60 s, so the 30 s every client asks for is granted; the default is 20 ticks = 10 s).
const SERVER_OPTIONS = {
  heap: '1g',
  logLevel: 'ERROR',
  maxSessionTimeout: 60_000,
  jvmArgs: ['-XX:TieredStopAtLevel=4', '-Dzookeeper.globalOutstandingLimit=100000', '-Djute.maxbuffer=4194304'],
} as const;

const LABELS: Record<ClientId, string> = {
  zkts: 'zkts',
  nzk: 'node-zookeeper-client',
  native: 'zookeeper (native)',
  java: 'ZooKeeper Java',
  curator: 'Curator',
  raw: 'raw socket (ceiling)',
};

// Node runners: which workloads each has (the native package gets no lock: the comparison is zkts's Mutex
// against Curator and the seeds' lock on node-zookeeper-client).
const NODE_CLIENTS: { id: ClientId; workloads: readonly WorkloadName[] }[] = [
  { id: 'zkts', workloads: [...DATA_WORKLOADS, ...LOCK_WORKLOADS, ...SCALE_WORKLOADS] },
  { id: 'nzk', workloads: [...DATA_WORKLOADS, ...LOCK_WORKLOADS, ...SCALE_WORKLOADS] },
  { id: 'native', workloads: [...DATA_WORKLOADS, ...SCALE_WORKLOADS] },
  // Not a client: the most a single connection can get from this server (getData only).
  { id: 'raw', workloads: ['getPipelined', 'getSequential'] },
];

/** The first host of a connect string (the proxy's upstream). */
function parseHost(connectString: string): { host: string; port: number } {
  const [host = '127.0.0.1', port = '2181'] = (connectString.split(',')[0] ?? '').split(':');
  return { host, port: Number(port) };
}

/**
 * A row a client is left out of although it has the operations, and why (printed under the table, kept in the
 * JSON): here, only where running it would cost the run minutes and say no more than the reason does.
 */
function notRun(client: ClientId, workload: WorkloadName, params: WorkloadParams): string | undefined {
  if (client === 'native' && workload === 'watchReplay' && (params.scale?.fixtureChildren ?? 0) > 20_000) {
    return (
      'its C client hands every session event (disconnected, connected again) to every watcher, collecting them ' +
      'into a list it de-duplicates by linear search (zk_hashtable.c: collect_session_watchers → add_to_list → ' +
      'search_watcher): O(n²) per session event with one watcher per aw_get. Replays measured by hand on this ' +
      'machine (reconnect → all fired): 10k watches 0.5-0.7 s, 20k 3.1 s, 50k 14 s, 100k 36 s once and more than ' +
      'the row\'s 3 minutes in two other runs (perf: 77% of its CPU in search_watcher).'
    );
  }
  return undefined;
}

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

function runChild(client: ClientId, workload: WorkloadName, connectString: string, base: string, params: WorkloadParams, extras: Extras = {}): Promise<Outcome> {
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
        const parsed = JSON.parse(last) as { ok: boolean; metrics?: Metrics; error?: string };
        if (parsed.ok && parsed.metrics) resolve({ metrics: parsed.metrics });
        else resolve({ error: (parsed.error ?? 'failed').split('\n').slice(0, 3).join(' | ') });
      } catch {
        resolve({ error: `exit ${String(code ?? signal)}: ${stderr.trim().split('\n').slice(-3).join(' | ')}` });
      }
    });
  });
}

/** How many passes each workload gets (its best is kept); the waiters' figures are counts, not rates. */
const PASSES: Partial<Record<WorkloadName, number>> = {
  getPipelined: 3,
  // One connection's round trip is bimodal on a shared 2-core machine (client and server on one core, or
  // on two with a wake-up between): five short passes let each client show its better mode.
  getSequential: 5,
  createDelete: 2,
  watches: 2,
  mutexUncontended: 3,
  handoffs8: 3,
  handoffs32: 3,
  waiters: 1,
  sessions1k: 2,
  watchReplay: 2,
  getLarge: 3,
  children100k: 3,
};

/** The run whose headline figure (the workload's first row in the table) is best; every run is kept in `runs`. */
function best(workload: WorkloadName, outcomes: Outcome[]): Outcome {
  const row = ROWS.find((r) => r.workload === workload);
  const ok = outcomes.filter((o): o is { metrics: Metrics } => 'metrics' in o);
  if (!row || ok.length === 0) return outcomes[0] ?? { error: 'not run' };
  const score = (o: { metrics: Metrics }): number => {
    const v = o.metrics[row.metric] ?? Number.NaN;
    return row.better === 'higher' ? v : -v;
  };
  const top = ok.reduce((a, b) => (score(b) > score(a) ? b : a));
  return { metrics: top.metrics, runs: ok.map((o) => o.metrics) };
}

/** HEAD's short hash, `+dirty` when the working tree has changes (others may be mid-edit). */
function gitDescribe(): string {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).stdout.trim();
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: repoRoot, encoding: 'utf8' }).stdout.trim();
  return head ? `${head}${dirty ? '+dirty' : ''}` : 'unknown commit';
}

function summary(m: Metrics): string {
  return Object.entries(m)
    .map(([k, v]) => `${k}=${Number.isInteger(v) ? v : v.toFixed(2)}`)
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
  const workloads = [...DATA_WORKLOADS, ...LOCK_WORKLOADS, ...SCALE_WORKLOADS].filter((w) => !onlyWorkloads || onlyWorkloads.includes(w));

  const started = new Date();
  const loadBefore = os.loadavg();
  let server: ZooKeeperServer | undefined;
  let connectString = process.env['ZKTS_SERVER'];
  if (!connectString) {
    log('bench: starting ZooKeeper (testkit)…');
    server = await startZooKeeper(SERVER_OPTIONS);
    connectString = server.connectString;
  }
  log(`bench: server ${connectString}${values.quick ? ' (QUICK smoke run: small counts, not the benchmark)' : ''}`);

  let java: JavaRunner | string = 'not requested';
  if (wanted('java')) java = prepareJava(join(benchDir, 'java'));
  if (typeof java === 'string') log(`bench: Java client and Curator skipped: ${java}`);

  const grid: ResultGrid = {};
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
    if (workloads.some((w) => FIXTURE_WORKLOADS.includes(w)) && params.scale) {
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
      if (typeof java !== 'string') {
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

  const resultsDir = join(benchDir, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const report = {
    date: started.toISOString(),
    quick: values.quick,
    machine,
    server: { version: serverVersion, external: !server, options: server ? SERVER_OPTIONS : undefined },
    zktsFrom: fromSource ? 'src (tsx)' : 'dist (tsc output)',
    params,
    clients: LABELS,
    results: grid,
    notRun: notes.map((n) => n.trim()),
    targets: checks,
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
