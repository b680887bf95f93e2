// Runs the demo (examples/demo/main.ts) and checks the summary it ends with: fair order with increasing
// fencing tokens, the lock passed on after the holder was SIGKILLed, readers shared while the writer waited,
// and the counter at exactly 100. Twice: against the shared ZooKeeper (`--server`), and as a newcomer runs
// `npm run demo`: scripts/demo.sh on its in-memory server, with a PATH where no `java` can be found.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, inject, it } from 'vitest';

import type { DemoSummary } from '../examples/demo/messages.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runDemo(connectString: string): Promise<Run> {
  return collect(['--conditions=zkts-source', '--import', 'tsx', 'examples/demo/main.ts', '--server', connectString], process.env, process.execPath);
}

function collect(args: readonly string[], env: NodeJS.ProcessEnv, file: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

function expectGoodSummary({ code, stdout, stderr }: Run): DemoSummary {
  const line = stdout.split('\n').find((l) => l.startsWith('DEMO_SUMMARY '));
  expect(line, `no summary; stderr:\n${stderr}\nstdout:\n${stdout}`).toBeDefined();
  const summary = JSON.parse((line ?? '').slice('DEMO_SUMMARY '.length)) as DemoSummary;

  expect(summary.problems).toEqual([]);
  expect(summary.fair.grantOrder).toEqual(summary.fair.queueOrder);
  expect(summary.fair.tokens).toHaveLength(5);
  const tokens = summary.fair.tokens.map((t) => BigInt(t));
  for (let i = 1; i < tokens.length; i++) expect(tokens[i]! > tokens[i - 1]!).toBe(true);
  expect(summary.kill.passedOn).toBe(true);
  expect(BigInt(summary.kill.heirToken) > BigInt(summary.kill.victimToken)).toBe(true);
  expect(summary.rw.maxConcurrentReaders).toBe(3);
  expect(summary.rw.writerWaitedForReaders).toBe(true);
  expect(summary.counter.value).toBe(100);
  expect(summary.ok).toBe(true);
  expect(code).toBe(0);
  // Well under two minutes, server start-up aside.
  expect(summary.durationMs).toBeLessThan(100_000);
  return summary;
}

describe('demo', () => {
  it('ends with a summary that proves the locks work (a real ZooKeeper, --server)', async () => {
    const run = await runDemo(inject('zkConnectString'));
    expectGoodSummary(run);
    expect(run.stdout).not.toMatch(/in-memory/);
  }, 150_000);

  // Only node and dirname (all scripts/demo.sh needs once the dependencies are installed) on PATH.
  const bin = mkdtempSync(join(tmpdir(), 'zkts-demo-path-'));
  afterAll(() => rmSync(bin, { recursive: true, force: true }));

  it('npm run demo needs no Java: scripts/demo.sh on the in-memory server, with no java on PATH', async () => {
    symlinkSync(process.execPath, join(bin, 'node'));
    symlinkSync('/usr/bin/dirname', join(bin, 'dirname'));
    const env: NodeJS.ProcessEnv = { HOME: process.env['HOME'], PATH: bin };
    const which = await collect(['-c', 'command -v java || echo none'], env, '/bin/bash');
    expect(which.stdout.trim()).toBe('none');
    const run = await collect(['scripts/demo.sh'], env, '/bin/bash');
    expectGoodSummary(run);
    expect(run.stdout).toMatch(/^Started an in-memory ZooKeeper 3\.8 server \(@zkts\/server\) on 127\.0\.0\.1:\d+/m);
    expect(run.stderr).not.toMatch(/setup:|apt|java/i);
  }, 150_000);
});
