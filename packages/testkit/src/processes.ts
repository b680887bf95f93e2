import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';

import type { ChildProcess } from 'node:child_process';

/** The JVM system property that marks every process the testkit starts. */
export const TAG_PROPERTY = 'zkts.testkit';
/** Groups the processes of one test run (set by the vitest global setup, inherited by the workers). */
export const RUN_PROPERTY = 'zkts.testkit.run';
/** The environment variable naming the test run whose JVMs a reaper may kill. */
export const RUN_ENV = 'ZKTS_TESTKIT_RUN';

/** A fresh tag `<node pid>-<random>`; the pid lets an orphan reaper tell whether the owner is gone. */
export function newTag(): string {
  return `${process.pid}-${randomBytes(6).toString('hex')}`;
}

export function tagArgs(tag: string): string[] {
  const args = [`-D${TAG_PROPERTY}=${tag}`];
  const run = process.env[RUN_ENV];
  if (run) args.push(`-D${RUN_PROPERTY}=${run}`);
  return args;
}

/** A JVM started by the testkit, as found in the process table. */
export interface TaggedProcess {
  pid: number;
  tag: string;
  run: string | undefined;
}

function parseArgs(pid: number, args: string[]): TaggedProcess | undefined {
  const tagArg = args.find((a) => a.startsWith(`-D${TAG_PROPERTY}=`));
  if (!tagArg) return undefined;
  const runArg = args.find((a) => a.startsWith(`-D${RUN_PROPERTY}=`));
  return { pid, tag: tagArg.slice(TAG_PROPERTY.length + 3), run: runArg?.slice(RUN_PROPERTY.length + 3) };
}

/** Every live process carrying a testkit tag (from /proc on Linux, `ps` elsewhere). Zombies are left out. */
export function listTaggedProcesses(): TaggedProcess[] {
  const found: TaggedProcess[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
    for (const line of out.split('\n')) {
      const m = /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line);
      if (!m || m[2]?.startsWith('Z')) continue;
      const p = parseArgs(Number(m[1]), (m[3] ?? '').split(/\s+/));
      if (p) found.push(p);
    }
    return found;
  }
  for (const entry of entries) {
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.includes(TAG_PROPERTY)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 3 (after the parenthesised command) is the state; a zombie has already exited.
      if (/\)\s+Z/.test(stat)) continue;
      const p = parseArgs(Number(entry), cmdline.split('\0'));
      if (p) found.push(p);
    } catch {
      // The process ended while we looked: it is not a leak.
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * SIGKILLs tagged JVMs whose owning Node process (the pid in the tag) is gone: leftovers of a test run that
 * was itself SIGKILLed before its exit hook could run. Servers owned by live processes are never touched.
 */
export function reapOrphans(): number[] {
  const reaped: number[] = [];
  for (const p of listTaggedProcesses()) {
    const owner = Number(p.tag.split('-')[0]);
    if (!Number.isInteger(owner) || owner <= 0 || alive(owner)) continue;
    try {
      process.kill(p.pid, 'SIGKILL');
      reaped.push(p.pid);
    } catch {
      // Already gone.
    }
  }
  return reaped;
}

// Everything started by this Node process, so an exit (even after a failed test) kills it synchronously.
const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();
// Other synchronous last-resort cleanups (the container backend's `docker rm -f`), run by the same hooks.
const exitCleanups = new Set<() => void>();
let hooksInstalled = false;

function killAllSync(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
  for (const cleanup of exitCleanups) {
    try {
      cleanup();
    } catch {
      // A last resort must not stop the others.
    }
  }
  exitCleanups.clear();
}

// The signals that end a test run from outside: Ctrl-C, a CI runner's terminate, a closed terminal.
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function onSignal(signal: NodeJS.Signals): void {
  killAllSync();
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  // Re-raise so the default action (exit) still happens: at once when nobody else handles the signal; else
  // once the other listeners had their turn (they run in this same emit). A listener that only acts when it
  // is the last one — signal-exit, which testcontainers' dependencies register — is the last one then, and
  // ends the process; without this it would wait for us and we for it, and a SIGTERMed owner would hang.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  else setImmediate(() => process.kill(process.pid, signal));
}

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', killAllSync);
  for (const s of SIGNALS) process.on(s, onSignal);
}

export function trackChild(child: ChildProcess): void {
  installHooks();
  children.add(child);
  child.once('exit', () => children.delete(child));
}

export function trackTempDir(dir: string): void {
  installHooks();
  tempDirs.add(dir);
}

export function untrackTempDir(dir: string): void {
  tempDirs.delete(dir);
}

/** Runs `cleanup` (synchronously) when this process exits or is signalled, like the JVM and temp-dir hooks. */
export function onExitSync(cleanup: () => void): () => void {
  installHooks();
  exitCleanups.add(cleanup);
  return () => exitCleanups.delete(cleanup);
}
