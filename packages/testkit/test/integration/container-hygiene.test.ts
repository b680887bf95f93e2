// No container outlives its owner: a Node process that exits, throws or is SIGTERMed with a container server
// still up takes it along (the exit hook's `docker rm -f`); one that is SIGKILLed (no hook runs) leaves it,
// and reapContainers() — which the global setup calls at every run — removes it, but never a live owner's.
import { describe, expect, it } from 'vitest';

import { listTaggedContainers, reapContainers, startZooKeeper } from '../../src/index.js';
import { containerBackend, titled } from '../contract/backends.js';
import { runOwner } from '../support/owner.js';

import type { ContainerZooKeeperServer } from '../../src/index.js';

const b = await containerBackend();

async function containersOf(tag: string): Promise<number> {
  return (await listTaggedContainers()).filter((c) => c.tag === tag).length;
}

describe.skipIf(b.unavailable !== undefined)(titled('no container outlives its owner', b), () => {
  it.each(['exit', 'throw', 'signal'] as const)('removes the container when the owner process ends by %s', async (how) => {
    const { started, code, signal } = await runOwner(how, 'container');
    if (how === 'exit') expect(code).toBe(0);
    if (how === 'throw') expect(code).not.toBe(0);
    if (how === 'signal') expect(signal).toBe('SIGTERM');
    expect(started.id).toMatch(/^[0-9a-f]{64}$/);
    expect(await containersOf(started.tag)).toBe(0);
  });

  it('reaps the container of a SIGKILLed owner, and not a live owner\'s', async () => {
    await using mine = (await startZooKeeper({ backend: 'container' })) as ContainerZooKeeperServer;
    const { started, signal } = await runOwner('sigkill', 'container');
    expect(signal).toBe('SIGKILL');
    expect(await containersOf(started.tag)).toBe(1);
    const reaped = await reapContainers();
    expect(reaped).toContain(started.id);
    expect(reaped).not.toContain(mine.containerId);
    expect(await containersOf(started.tag)).toBe(0);
    expect(await containersOf(mine.tag)).toBe(1);
  });
});
