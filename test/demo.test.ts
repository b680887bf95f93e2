// Runs the demo (examples/demo/main.ts) as `npm run demo` would, minus set-up, against the shared test server,
// and checks the summary it ends with: fair order with increasing fencing tokens, the lock passed on after
// the holder was SIGKILLed, readers shared while the writer waited, and the counter at exactly 100.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { describe, expect, inject, it } from 'vitest';

import type { DemoSummary } from '../examples/demo/messages.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

function runDemo(connectString: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--conditions=zkts-source', '--import', 'tsx', 'examples/demo/main.ts'], {
      cwd: repoRoot,
      env: { ...process.env, ZKTS_SERVER: connectString },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('demo', () => {
  it('ends with a summary that proves the locks work', async () => {
    const { code, stdout, stderr } = await runDemo(inject('zkConnectString'));
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
  }, 150_000);
});
