// The reconnect-storm row of `pnpm bench` (workload `reconnectStorm`): 1,000 sessions on one follower of a
// 3-member ensemble (testkit, local JVMs), the follower SIGKILLed; measured: the time from the kill until each
// session is connected again (p50, p99, max) and the peak of connection attempts per 10 ms at the two survivors,
// counted by a proxy in front of each (proxy.ts). The same for zkts (default reconnectDelay, and { 0, 0 }: a
// dial at once, what zkts did before the option) and for ZooKeeper's Java client 3.8 (ZkStorm.java, Debian's
// jars). A follower, not the leader: killing the leader would measure the election instead of the clients.
// One run per client (heavy: 3 JVMs plus 1,000 sessions); `ZKTS_STORM_VARIANTS=min-max,…` adds zkts variants.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePorts, startEnsemble } from '@zkts/testkit';
import type { Ensemble, ZooKeeperServer } from '@zkts/testkit';

import { JARS, JAVA_JARS } from '../harness/java.js';
import { countingProxy } from './proxy.js';

export const STORM_WORKLOAD = 'reconnectStorm';

export interface StormRun {
  client: string;
  /** zkts's reconnectDelay ('default' or 'min-max'); the Java client's is its own (0–1,000 ms). */
  delay: string;
  sessions: number;
  backP50Ms?: number;
  backP99Ms?: number;
  backMaxMs?: number;
  notBack?: number;
  expired?: number;
  peakAttemptsPer10ms?: number;
  attemptsAtSurvivors?: number;
  /** When the survivors' proxies accepted the connections, ms after the kill (p50, p99, last). */
  attemptP50Ms?: number;
  attemptP99Ms?: number;
  attemptMaxMs?: number;
  /** When the sessions noticed the drop, ms after the kill (p50, last). */
  lostP50Ms?: number;
  lostMaxMs?: number;
  error?: string;
}

export interface StormResult {
  params: { sessions: number; sessionTimeoutMs: number };
  runs: StormRun[];
  text: string;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

function lineReader(child: ChildProcess): (predicate: (line: string) => boolean, timeoutMs: number) => Promise<string> {
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let i: number;
    while ((i = buffer.indexOf('\n')) >= 0) {
      lines.push(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
      for (const w of waiters.splice(0)) w();
    }
  });
  child.on('exit', () => {
    for (const w of waiters.splice(0)) w();
  });
  return async (predicate, timeoutMs) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = lines.find(predicate);
      if (found !== undefined) return found;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no expected line from the ${String(child.spawnfile)} child (exit ${String(child.exitCode)})`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 500).unref();
      });
    }
  };
}

async function oneRun(ensemble: Ensemble, run: StormRun, spawnClient: (connectString: string) => ChildProcess, log: (s: string) => void): Promise<StormRun> {
  const leader = await ensemble.leader();
  const target = ensemble.members.find((m) => m !== leader) as ZooKeeperServer;
  const survivors = ensemble.members.filter((m) => m !== target);
  const ports = await freePorts(survivors.length);
  const proxies = survivors.map((s, i) => {
    const [host = '127.0.0.1', port = '0'] = s.connectString.split(':');
    return countingProxy(ports[i] as number, { host, port: Number(port) });
  });
  const connectString = [target.connectString, ...proxies.map((p) => `127.0.0.1:${p.port}`)].join(',');
  const child = spawnClient(connectString);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-2000)));
  const next = lineReader(child);
  try {
    await next((l) => l === 'ready' || l.startsWith('{'), 240_000);
    await Promise.all(proxies.map((p) => p.open()));
    await new Promise((r) => setTimeout(r, 500));
    const killedAt = Date.now();
    await target.kill();
    const line = await next((l) => l.startsWith('{'), 90_000);
    const out = JSON.parse(line) as { back?: number[]; lost?: number[]; expired?: number; error?: string };
    const lost = (out.lost ?? []).map((t) => t - killedAt).sort((a, b) => a - b);
    if (out.error !== undefined) return { ...run, error: out.error };
    const back = (out.back ?? []).map((t) => t - killedAt).sort((a, b) => a - b);
    const buckets = new Map<number, number>();
    const accepts = proxies.flatMap((p) => p.accepts).sort((a, b) => a - b);
    const acceptMs = accepts.map((t) => t - killedAt);
    for (const t of accepts) {
      const b = Math.floor((t - killedAt) / 10);
      buckets.set(b, (buckets.get(b) ?? 0) + 1);
    }
    return {
      ...run,
      backP50Ms: percentile(back, 50),
      backP99Ms: percentile(back, 99),
      backMaxMs: back[back.length - 1] ?? NaN,
      notBack: run.sessions - back.length,
      expired: out.expired ?? 0,
      peakAttemptsPer10ms: Math.max(0, ...buckets.values()),
      attemptsAtSurvivors: accepts.length,
      attemptP50Ms: percentile(acceptMs, 50),
      attemptP99Ms: percentile(acceptMs, 99),
      attemptMaxMs: acceptMs[acceptMs.length - 1] ?? NaN,
      lostP50Ms: percentile(lost, 50),
      lostMaxMs: lost[lost.length - 1] ?? NaN,
    };
  } catch (e) {
    return { ...run, error: `${e instanceof Error ? e.message : String(e)} ${stderr}`.trim() };
  } finally {
    await new Promise<void>((r) => {
      if (child.exitCode !== null) return r();
      const t = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('exit', () => (clearTimeout(t), r()));
    });
    await Promise.all(proxies.map((p) => p.close()));
    log(`  ${STORM_WORKLOAD} restarting the killed member`);
    await target.start();
  }
}

function compileJava(): { classpath: string; dir: string } | string {
  if (spawnSync('javac', ['-version']).status !== 0) return 'javac not found';
  const classpath = JAVA_JARS.map((j) => join(JARS, j)).join(':');
  const dir = mkdtempSync(join(tmpdir(), 'zkts-storm-java-'));
  const r = spawnSync('javac', ['-nowarn', '-d', dir, '-cp', classpath, join(import.meta.dirname, 'ZkStorm.java')], { encoding: 'utf8' });
  if (r.status !== 0) return `javac failed: ${r.stderr.slice(0, 1000)}`;
  return { classpath: `${classpath}:${dir}`, dir };
}

export function stormTable(runs: StormRun[]): string {
  const head = `${'reconnect storm (1 follower of 3 killed)'.padEnd(44)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'max ms'.padStart(8)}${'not back'.padStart(10)}${'peak/10ms'.padStart(11)}${'attempts'.padStart(10)}`;
  const rows = runs.map((r) => {
    const label = `${r.client} (${r.client === 'zkts' ? `reconnectDelay ${r.delay}` : r.delay}), ${r.sessions} sessions`;
    if (r.error !== undefined) return `${label.padEnd(44)}  failed: ${r.error.slice(0, 200)}`;
    const f = (n: number | undefined): string => (n === undefined || Number.isNaN(n) ? '—' : String(Math.round(n)));
    return `${label.padEnd(44)}${f(r.backP50Ms).padStart(8)}${f(r.backP99Ms).padStart(8)}${f(r.backMaxMs).padStart(8)}${f(r.notBack).padStart(10)}${f(r.peakAttemptsPer10ms).padStart(11)}${f(r.attemptsAtSurvivors).padStart(10)}`;
  });
  return [head, ...rows].join('\n');
}

export async function runStormBench(options: { quick: boolean; clients: string[] | undefined; zktsChild: string; log: (s: string) => void }): Promise<StormResult> {
  const { log } = options;
  const sessions = options.quick ? 100 : 1000;
  const wanted = (id: string): boolean => options.clients === undefined || options.clients.includes(id);
  const variants = ['default', '0-0', ...(process.env['ZKTS_STORM_VARIANTS']?.split(',').filter((v) => v !== '') ?? [])];
  const runs: StormRun[] = [];
  log(`  ${STORM_WORKLOAD} starting a 3-member ensemble`);
  const ensemble = await startEnsemble({ size: 3, heap: '384m', logLevel: 'ERROR', maxSessionTimeout: 60_000, jvmArgs: ['-XX:TieredStopAtLevel=4'] });
  const java = wanted('java') ? compileJava() : 'not requested';
  try {
    const plan: { run: StormRun; spawn: (cs: string) => ChildProcess }[] = [];
    if (wanted('zkts')) {
      for (const v of variants) {
        const args = v === 'default' ? [] : v.split('-');
        plan.push({ run: { client: 'zkts', delay: v, sessions }, spawn: (cs) => spawn(process.execPath, [options.zktsChild, cs, String(sessions), ...args], { stdio: ['ignore', 'pipe', 'pipe'] }) });
      }
    }
    if (typeof java !== 'string') {
      plan.push({
        run: { client: 'java', delay: 'its own 0–1,000 ms', sessions },
        spawn: (cs) => spawn('java', ['-Xss256k', '-Xms256m', '-Xmx512m', '-cp', java.classpath, 'ZkStorm', cs, String(sessions)], { stdio: ['ignore', 'pipe', 'pipe'] }),
      });
    } else log(`  ${STORM_WORKLOAD} Java client skipped: ${java}`);
    for (const step of plan) {
      const t0 = Date.now();
      const r = await oneRun(ensemble, step.run, step.spawn, log);
      runs.push(r);
      log(`  ${STORM_WORKLOAD} ${step.run.client} ${step.run.delay}: ${((Date.now() - t0) / 1000).toFixed(1)}s ${r.error ?? `p50 ${r.backP50Ms} p99 ${r.backP99Ms} max ${r.backMaxMs} notBack ${r.notBack} peak ${r.peakAttemptsPer10ms}/10ms attempts p50 ${r.attemptP50Ms} p99 ${r.attemptP99Ms} max ${r.attemptMaxMs} lost p50 ${r.lostP50Ms} max ${r.lostMaxMs}`}`);
    }
  } finally {
    if (typeof java !== 'string') rmSync(java.dir, { recursive: true, force: true });
    await ensemble.stop();
  }
  return { params: { sessions, sessionTimeoutMs: 30_000 }, runs, text: stormTable(runs) };
}
