import { existsSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { listTaggedProcesses, startEnsemble, startZooKeeper } from '../../src/index.js';
import { testRunId } from '../support/helpers.js';
import { runOwner } from '../support/owner.js';

import type { LocalZooKeeperServer } from '../../src/index.js';

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
    expect(existsSync(started.root ?? '')).toBe(false);
  });

  it('an ensemble disposes all of its members', async () => {
    const ensemble = await startEnsemble({ size: 1 });
    const tags = (ensemble.members as LocalZooKeeperServer[]).map((m) => m.tag);
    expect(listTaggedProcesses().filter((p) => tags.includes(p.tag))).toHaveLength(1);
    await ensemble[Symbol.asyncDispose]();
    for (const tag of tags) expect(await gone(tag)).toBe(true);
  });
});
