/**
 * Runs the real `zkts` executable. When the build (dist/ of cli, protocol and recipes, made by scripts/setup.sh)
 * is newer than every source file, through bin/zkts.js: a third of the CPU of compiling on the fly, which
 * matters when a test starts 20 of them on two cores. Otherwise from the sources: `node
 * --conditions=zkts-source --import tsx packages/cli/src/main.ts`, the resolution tsc and vitest use.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { inject } from 'vitest';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/zkts.js', import.meta.url));

/** mtimes of the files under `dir` with one of the extensions: [oldest, newest]; undefined if there are none. */
function mtimes(dir: string, extension: string): [number, number] | undefined {
  if (!existsSync(dir)) return undefined;
  let range: [number, number] | undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(extension)) continue;
    const time = statSync(join(entry.parentPath, entry.name)).mtimeMs;
    range = range === undefined ? [time, time] : [Math.min(range[0], time), Math.max(range[1], time)];
  }
  return range;
}

export function buildIsFresh(): boolean {
  return ['cli', 'protocol', 'recipes', 'sasl-kerberos', 'server'].every((pkg) => {
    const built = mtimes(join(REPO_ROOT, 'packages', pkg, 'dist'), '.js');
    const sources = mtimes(join(REPO_ROOT, 'packages', pkg, 'src'), '.ts');
    return built !== undefined && sources !== undefined && built[0] >= sources[1];
  });
}

export const NODE_ARGS = buildIsFresh() ? [BIN] : ['--conditions=zkts-source', '--import', 'tsx', MAIN];

export interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface SpawnOptions {
  input?: string | Uint8Array;
  env?: NodeJS.ProcessEnv;
  /** Leave stdin open for the test to write to (otherwise it is closed after `input`). */
  keepStdin?: boolean;
}

export function spawnZkts(args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(process.execPath, [...NODE_ARGS, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ZKTS_SERVER: '', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (options.keepStdin === true) {
    if (options.input !== undefined) child.stdin?.write(options.input);
  } else if (options.input !== undefined) child.stdin?.end(options.input);
  else child.stdin?.end();
  return child;
}

export function collect(child: ChildProcess): { stdout: () => string; stderr: () => string; done: Promise<Result> } {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout?.on('data', (c: Buffer) => out.push(c));
  child.stderr?.on('data', (c: Buffer) => err.push(c));
  const stdout = (): string => Buffer.concat(out).toString('utf8');
  const stderr = (): string => Buffer.concat(err).toString('utf8');
  const done = new Promise<Result>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout: stdout(), stderr: stderr() }));
  });
  return { stdout, stderr, done };
}

export function zkts(args: readonly string[], options: SpawnOptions = {}): Promise<Result> {
  return collect(spawnZkts(args, options)).done;
}

/** Polls `output()` until it matches; rejects after `timeout` ms with what was seen. */
export async function waitForOutput(output: () => string, pattern: RegExp, timeout = 20_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const match = output().match(pattern);
    if (match !== null) return match;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(pattern)}; saw:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function sharedServer(): string {
  return inject('zkConnectString');
}

export function uniqueRoot(prefix = 'cli'): string {
  return `/${prefix}-${randomBytes(6).toString('hex')}`;
}

export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
