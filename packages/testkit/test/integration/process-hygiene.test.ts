import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { listTaggedProcesses, startEnsemble, startZooKeeper } from '../../src/index.js';
import { testRunId } from '../helpers.js';

import type { LocalZooKeeperServer } from '../../src/index.js';

const fixture = fileURLToPath(new URL('../fixtures/orphan-owner.ts', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');

interface Started {
  tag: string;
  pid: number;
  root: string;
}

/** Runs the fixture in its own Node process and returns what it started plus how it ended. */
function runOwner(how: 'exit' | 'throw' | 'signal'): Promise<{ started: Started; code: number | null; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsx, fixture, how], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let started: Started | undefined;
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (!started && out.includes('\n')) {
        started = JSON.parse(out.slice(0, out.indexOf('\n'))) as Started;
        if (how === 'signal') child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (!started) reject(new Error(`fixture printed nothing (code ${code}): ${err}`));
      else resolve({ started, code, signal });
    });
  });
}

async function gone(tag: string): Promise<boolean> {
  // SIGKILL is delivered at once, but give the kernel a moment to reap (up to 5 s on a loaded machine).
  for (let i = 0; i < 100; i++) {
    if (!listTaggedProcesses().some((p) => p.tag === tag)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

describe('no JVM outlives its owner', () => {
  it('tags each JVM with its owner and this test run', async () => {
    await using server = await startZooKeeper();
    const { tag, pid } = server as LocalZooKeeperServer;
    const mine = listTaggedProcesses().filter((p) => p.tag === tag);
    expect(mine).toEqual([{ pid, tag, run: testRunId() }]);
    expect(tag.startsWith(`${process.pid}-`)).toBe(true);
  });

  it.each(['exit', 'throw', 'signal'] as const)('kills the JVM when the owner process ends by %s', async (how) => {
    const { started, code, signal } = await runOwner(how);
    if (how === 'exit') expect(code).toBe(0);
    if (how === 'throw') expect(code).not.toBe(0);
    if (how === 'signal') expect(signal).toBe('SIGTERM');
    expect(started.pid).toBeGreaterThan(0);
    expect(await gone(started.tag)).toBe(true);
    expect(existsSync(started.root)).toBe(false);
  });

  it('an ensemble disposes all of its members', async () => {
    const ensemble = await startEnsemble({ size: 1 });
    const tags = (ensemble.members as LocalZooKeeperServer[]).map((m) => m.tag);
    expect(listTaggedProcesses().filter((p) => tags.includes(p.tag))).toHaveLength(1);
    await ensemble[Symbol.asyncDispose]();
    for (const tag of tags) expect(await gone(tag)).toBe(true);
  });
});
