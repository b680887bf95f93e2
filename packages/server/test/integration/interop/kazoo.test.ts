// kazoo in its own Python processes against one startServer: its WriteLock contending with a zkts Mutex process,
// its Election, and a DataWatch following a zkts client's writes.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@zkts/protocol';
import { startServer } from '@zkts/server';

import { checkKazoo, kazooWriter, killAll } from '../../../../recipes/test/support/foreign.js';
import { checkOverlaps, interleaved, parseHeld } from '../../../../recipes/test/support/overlaps.js';
import { expectHandOff, kazooRecipe, zktsScript } from './processes.js';

beforeAll(() => checkKazoo());

afterEach(() => {
  killAll();
});

describe('kazoo on @zkts/server', () => {
  it('kazoo WriteLock in 2 processes and a zkts Mutex process on one path: no overlap', async () => {
    await using server = await startServer();
    const cs = server.connectString;
    // A gate: first in line for both libraries (kazoo is told `-lock-` names through extra_lock_patterns).
    const gate = await connect(cs);
    await gate.create('/k');
    const { path: gateNode } = await gate.create('/k/_c_gate-lock-', null, { mode: 'ephemeral-sequential' });
    const kazoo = [0, 1].map((i) => kazooWriter(cs, '/k', `kazoo-${i}`, 12, 3));
    const zkts = zktsScript('mutex-loop.ts', cs, '/k', 'zkts-0', '20', '3');
    while ((await gate.getChildren('/k')).children.length < 4) await new Promise((r) => setTimeout(r, 50));
    await gate.delete(gateNode);
    await gate.close();
    for (const p of [...kazoo, zkts]) await p.line(/^DONE$/m, 90_000);
    expect(await Promise.all([...kazoo, zkts].map((p) => p.exited))).toEqual([0, 0, 0]);
    const kazooHeld = kazoo.flatMap((p) => parseHeld(p.output()));
    const zktsHeld = parseHeld(zkts.output());
    expect(interleaved(kazooHeld, zktsHeld)).toBe(true);
    const report = checkOverlaps([...kazooHeld, ...zktsHeld]);
    console.info(`kazoo + zkts locks on @zkts/server: ${report.grants} grants, ${report.overlaps} overlaps`);
    expect(report.overlaps, report.examples.join('\n')).toBe(0);
    expect(report.grants).toBe(24 + 20);
  }, 120_000);

  it('Election: one leader; when it returns, the other runs', async () => {
    await using server = await startServer();
    const a = kazooRecipe('election', server.connectString, '/election', 'a');
    await a.line(/^LEADER a$/m);
    const b = kazooRecipe('election', server.connectString, '/election', 'b');
    await expectHandOff(server.connectString, '/election', a, b);
  }, 90_000);

  it('DataWatch sees a node created, changed, deleted and created again', async () => {
    await using server = await startServer();
    const zk = await connect(server.connectString);
    try {
      const watch = kazooRecipe('datawatch', server.connectString, '/dw', 'last');
      await watch.line(/^DATA None$/m);
      await zk.create('/dw', 'a');
      await watch.line(/^DATA a$/m);
      await zk.setData('/dw', 'b');
      await watch.line(/^DATA b$/m);
      await zk.delete('/dw');
      await watch.line(/^DATA b\nDATA None$/m);
      await zk.create('/dw', 'last');
      expect(await watch.exited).toBe(0);
      expect(watch.output().split('\n').filter((l) => l.startsWith('DATA'))).toEqual(['DATA None', 'DATA a', 'DATA b', 'DATA None', 'DATA last']);
    } finally {
      await zk.close();
    }
  }, 90_000);
});
