// Compiles bench/java/ZkBench.java (with ZkScale.java, the rows at scale, and ZkCurator.java, the lock rows)
// against Debian's jars (/usr/share/java) and runs it, one workload per JVM. Skipped, with the reason, when javac
// or a jar is missing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Metrics, WorkloadContext, WorkloadParams } from './workloads.js';

export const JARS = '/usr/share/java';
// zookeeper + jute + netty + metrics/snappy/commons-io are what the 3.8 client loads; Curator needs guava
// (Debian's guava 31 runs Curator 5.4's recipes without failureaccess); slf4j-nop keeps the output JSON only.
export const JAVA_JARS = [
  'zookeeper.jar',
  'zookeeper-jute.jar',
  'curator-client.jar',
  'curator-framework.jar',
  'curator-recipes.jar',
  'guava.jar',
  'slf4j-api.jar',
  'slf4j-nop.jar',
  'netty-handler.jar',
  'netty-buffer.jar',
  'netty-codec.jar',
  'netty-common.jar',
  'netty-resolver.jar',
  'netty-transport.jar',
  'netty-transport-native-epoll.jar',
  'netty-transport-native-unix-common.jar',
  'metrics-core.jar',
  'snappy-java.jar',
  'commons-io.jar',
];

export interface JavaResult {
  client: 'java' | 'curator';
  workload: string;
  ok: boolean;
  metrics?: Metrics;
  error?: string;
}

export interface JavaRunner {
  version: string;
  run(workload: string, connectString: string, base: string, params: WorkloadParams, extras?: Pick<WorkloadContext, 'fixture' | 'proxy'>): Promise<JavaResult>;
  dispose(): void;
}

function javaVersion(): string {
  const r = spawnSync('java', ['-version'], { encoding: 'utf8' });
  return (r.stderr || r.stdout).split('\n')[0]?.trim() ?? 'unknown';
}

/** Compiles the program once; returns a runner, or why Java is skipped. */
export function prepareJava(sourceDir: string): JavaRunner | string {
  const missing = JAVA_JARS.filter((j) => !existsSync(join(JARS, j)));
  if (missing.length > 0) return `jars missing in ${JARS}: ${missing.join(', ')}`;
  if (spawnSync('javac', ['-version']).status !== 0) return 'javac not found';
  const classpath = JAVA_JARS.map((j) => join(JARS, j)).join(':');
  const out = mkdtempSync(join(tmpdir(), 'zkts-bench-java-'));
  const sources = ['ZkBench.java', 'ZkScale.java', 'ZkCurator.java'].map((f) => join(sourceDir, f));
  const compiled = spawnSync('javac', ['-nowarn', '-d', out, '-cp', classpath, ...sources], { encoding: 'utf8' });
  if (compiled.status !== 0) {
    rmSync(out, { recursive: true, force: true });
    return `javac failed: ${compiled.stderr.slice(0, 2000)}`;
  }
  return {
    version: javaVersion(),
    // One JVM per workload, like the one Node process per client and workload: interleaving the clients
    // workload by workload keeps server-side drift (and the neighbours' load) from favouring anyone.
    run: (workload, connectString, base, params, extras = {}) => runOne(`${classpath}:${out}`, workload, connectString, base, params, extras),
    dispose: () => rmSync(out, { recursive: true, force: true }),
  };
}

/** ZkBench's arguments: every number as `key=value` (the scale parameters flattened), then the extras. */
export function javaArgs(workload: string, params: WorkloadParams, extras: Pick<WorkloadContext, 'fixture' | 'proxy'>): string[] {
  const { scale, ...plain } = params;
  const numbers = { ...plain, ...scale, ...(extras.proxy ? { proxyPort: extras.proxy.port, controlPort: extras.proxy.controlPort } : {}) };
  const args = [...Object.entries(numbers).map(([k, v]) => `${k}=${String(v)}`), `only=${workload}`];
  if (extras.fixture) args.push(`fixture=${extras.fixture}`);
  return args;
}

function runOne(
  classpath: string,
  workload: string,
  connectString: string,
  base: string,
  params: WorkloadParams,
  extras: Pick<WorkloadContext, 'fixture' | 'proxy'>,
): Promise<JavaResult> {
  const args = javaArgs(workload, params, extras);
  return new Promise((resolve, reject) => {
    // A fixed heap keeps GC behaviour comparable run to run.
    // jute.maxbuffer: the Java client refuses frames above it (1 MiB by default); the rows at scale need 4 MiB.
    const child = spawn('java', ['-Xms512m', '-Xmx1g', '-Djute.maxbuffer=4194304', '-cp', classpath, 'ZkBench', connectString, base, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 5 * 60_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as JavaResult);
      else reject(new Error(`java exited with ${String(code)} and no result: ${stderr}`));
    });
  });
}
