// Processes for the interop and kill tests: Curator in a JVM (java/, compiled once per test file against Debian's
// jars), kazoo in Debian's python3 (python/), and zkts scripts (node/) in their own Node process. Missing tools
// fail the test with the package to install: these tests must not silently skip.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, afterEach, beforeAll } from 'vitest';

import { sharedServer, sleep } from './helpers.js';

const JARS = [
  'curator-recipes', 'curator-framework', 'curator-client', 'zookeeper', 'zookeeper-jute', 'guava', 'slf4j-api', 'slf4j-nop',
  'netty-handler', 'netty-transport', 'netty-common', 'netty-buffer', 'netty-codec', 'netty-resolver',
  'netty-transport-native-epoll', 'netty-transport-native-unix-common', 'commons-io', 'commons-lang3', 'metrics-core',
].map((j) => `/usr/share/java/${j}.jar`);

/** Debian's python3: python3-kazoo installs for it, whatever `python3` is first on PATH. */
const PYTHON = '/usr/bin/python3';

export interface ForeignProcess {
  readonly proc: ChildProcess;
  /** Everything it printed on stdout so far. */
  output(): string;
  /** Resolves with the first match of `re` in stdout; rejects if the process exits or `timeout` passes first. */
  line(re: RegExp, timeout?: number): Promise<RegExpExecArray>;
  readonly exited: Promise<number | null>;
}

/** Processes started here; `killAll()` (in afterEach) ends any still running. */
const running: ChildProcess[] = [];

export function killAll(): void {
  for (const p of running.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
}

/**
 * Starts `command` as a ForeignProcess that `killAll()` ends. `mergeStderr`: stderr counts as output too (for a
 * program that prints some of its answers there).
 */
export function startForeign(what: string, command: string, args: readonly string[], mergeStderr = false): ForeignProcess {
  const proc = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  running.push(proc);
  let out = '';
  let err = '';
  proc.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  proc.stderr!.on('data', (b: Buffer) => {
    if (mergeStderr) out += b.toString();
    else err += b.toString();
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const line = async (re: RegExp, timeout = 30_000): Promise<RegExpExecArray> => {
    const deadline = Date.now() + timeout;
    for (;;) {
      const m = re.exec(out);
      if (m) return m;
      if (proc.exitCode !== null || Date.now() > deadline) {
        throw new Error(`${what}: no ${re} (exit ${proc.exitCode}); stdout: ${out.slice(-2000)} stderr: ${err.slice(-2000)}`);
      }
      await sleep(20);
    }
  };
  return { proc, output: () => out, line, exited };
}

/** What service discovery adds to the classpath: curator-x-discovery and the Jackson it serializes with. */
export const DISCOVERY_JARS = ['curator-x-discovery', 'jackson-core', 'jackson-databind', 'jackson-annotations'].map((j) => `/usr/share/java/${j}.jar`);

/**
 * Compiles a Java file of java/ (default CuratorLocks.java) against Debian's Curator jars plus `extraJars`;
 * returns the classpath to run it and a cleanup for the class directory.
 */
export function compileCurator(source = 'CuratorLocks.java', extraJars: readonly string[] = []): { classpath: string; dispose: () => void } {
  const jars = [...JARS, ...extraJars];
  const missing = jars.filter((j) => !existsSync(j));
  if (missing.length > 0) throw new Error(`Curator interop needs Debian's jars (scripts/setup.sh); missing: ${missing.join(', ')}`);
  const classDir = mkdtempSync(join(tmpdir(), 'zkts-curator-'));
  const file = fileURLToPath(new URL(`./java/${source}`, import.meta.url));
  const r = spawnSync('javac', ['-d', classDir, '-cp', jars.join(':'), file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`javac failed: ${r.stderr}`);
  return { classpath: [classDir, ...jars].join(':'), dispose: () => rmSync(classDir, { recursive: true, force: true }) };
}

/** Runs CuratorLocks (java/CuratorLocks.java) with these arguments. */
export function curator(classpath: string, ...args: string[]): ForeignProcess {
  return javaMain(classpath, 'CuratorLocks', ...args);
}

/** Runs the main class `main` of a file compiled by compileCurator. */
export function javaMain(classpath: string, main: string, ...args: string[]): ForeignProcess {
  return startForeign('Curator process', 'java', ['-Xss512k', '-XX:TieredStopAtLevel=1', '-cp', classpath, main, ...args]);
}

/** A zkts script of node/ in its own Node process, on the sources (as the CLI tests run it): killable for real. */
export function zktsProcess(script: string, ...args: string[]): ForeignProcess {
  const file = fileURLToPath(new URL(`./node/${script}`, import.meta.url));
  return startForeign('zkts process', process.execPath, ['--conditions=zkts-source', '--import', 'tsx', file, ...args]);
}

/** Fails with the package to install unless Debian's python3 can import kazoo. */
export function checkKazoo(): void {
  const r = spawnSync(PYTHON, ['-c', 'import kazoo'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`kazoo interop needs ${PYTHON} with kazoo: apt-get install python3-kazoo (scripts/setup.sh)`);
}

/** A kazoo WriteLock loop (python/kazoo_locks.py). */
export function kazooWriter(hosts: string, path: string, who: string, grants: number, holdMs: number): ForeignProcess {
  const script = fileURLToPath(new URL('./python/kazoo_locks.py', import.meta.url));
  return startForeign('kazoo process', PYTHON, [script, hosts, path, who, String(grants), String(holdMs)]);
}

/** kazoo's Counter incremented n times (python/kazoo_counter.py); `curator` for support_curator=True. */
export function kazooCounter(hosts: string, path: string, n: number, curator = false): ForeignProcess {
  const script = fileURLToPath(new URL('./python/kazoo_counter.py', import.meta.url));
  return startForeign('kazoo process', PYTHON, [script, hosts, path, String(n), ...(curator ? ['curator'] : [])]);
}

/** kazoo's Party or ShallowParty that joins and waits to see `expect` (python/kazoo_party.py). */
export function kazooParty(hosts: string, path: string, kind: 'party' | 'shallow', identifier: string, expect: string): ForeignProcess {
  const script = fileURLToPath(new URL('./python/kazoo_party.py', import.meta.url));
  return startForeign('kazoo process', PYTHON, [script, hosts, path, kind, identifier, expect]);
}

/** kazoo's SetPartitioner in its documented loop (python/kazoo_partitioner.py); "finish" on stdin ends it. */
export function kazooPartitioner(hosts: string, path: string, identifier: string, timeBoundarySeconds: number, items: readonly string[]): ForeignProcess {
  const script = fileURLToPath(new URL('./python/kazoo_partitioner.py', import.meta.url));
  return startForeign('kazoo process', PYTHON, [script, hosts, path, identifier, String(timeBoundarySeconds), items.join(',')]);
}

/** A kazoo recipe script from python/ (e.g. kazoo_queue.py) run with `args`; it prints what it did. */
export function kazooScript(script: string, ...args: string[]): ForeignProcess {
  const file = fileURLToPath(new URL(`./python/${script}`, import.meta.url));
  return startForeign('kazoo process', PYTHON, [file, ...args]);
}

export type CoordinationLibrary = 'curator' | 'kazoo';

/**
 * For a file whose tests run CuratorCoordination.java or kazoo_coordination.py beside zkts: registers the hooks
 * (kazoo checked and the Java side compiled once, processes killed and `clients` closed after each test) and
 * returns the function that starts one library's side in a mode, on the shared server and `path`.
 */
export function coordinationPeers(clients: { closeAll(): Promise<void> }): (library: CoordinationLibrary, mode: string, path: string, ...args: string[]) => ForeignProcess {
  let compiled: ReturnType<typeof compileCurator> | undefined;
  beforeAll(() => {
    checkKazoo();
    compiled = compileCurator('CuratorCoordination.java');
  }, 120_000);
  afterEach(async () => {
    killAll();
    await clients.closeAll();
  });
  afterAll(() => compiled?.dispose());
  return (library, mode, path, ...args) => {
    if (library === 'kazoo') return kazooScript('kazoo_coordination.py', mode, sharedServer(), path, ...args);
    if (compiled === undefined) throw new Error('the Curator side is compiled in beforeAll: start it inside a test');
    return javaMain(compiled.classpath, 'CuratorCoordination', mode, sharedServer(), path, ...args);
  };
}
