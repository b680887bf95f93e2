// Curator in its own JVMs against one startServer: InterProcessMutex contending with zkts Mutex processes,
// LeaderLatch and LeaderSelector, and a CuratorCache following a zkts client's writes.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@zkts/protocol';
import { startServer } from '@zkts/server';

import { compileCurator, curator, javaMain, killAll } from '../../../../recipes/test/support/foreign.js';
import { checkOverlaps, interleaved, parseHeld } from '../../../../recipes/test/support/overlaps.js';
import { killMine, zktsScript } from './processes.js';

let compiled: ReturnType<typeof compileCurator> | undefined;
let classpath = '';

beforeAll(() => {
  compiled = compileCurator();
  classpath = compiled.classpath;
  const classDir = classpath.split(':')[0] as string;
  const r = spawnSync('javac', ['-d', classDir, '-cp', classpath, fileURLToPath(new URL('./CuratorRecipes.java', import.meta.url))], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`javac failed: ${r.stderr}`);
}, 120_000);

afterEach(() => {
  killAll();
  killMine();
});

afterAll(() => compiled?.dispose());

describe('Curator on @zkts/server', () => {
  it('InterProcessMutex in 3 JVMs and 2 zkts Mutex processes on one path: no overlap', async () => {
    await using server = await startServer();
    const cs = server.connectString;
    // A gate: this client's `lock-` node is first in line for both libraries until every contender has queued.
    const gate = await connect(cs);
    await gate.create('/m');
    const { path: gateNode } = await gate.create('/m/lock-', null, { mode: 'ephemeral-sequential' });
    const jvms = [0, 1, 2].map(() => curator(classpath, 'loop', cs, '10', '3', 'mutex:/m'));
    const zkts = [0, 1].map((i) => zktsScript('mutex-loop.ts', cs, '/m', `zkts-${i}`, '15', '3'));
    while ((await gate.getChildren('/m')).children.length < 6) await new Promise((r) => setTimeout(r, 50));
    await gate.delete(gateNode);
    await gate.close();
    for (const p of [...jvms, ...zkts]) await p.line(/^DONE$/m, 90_000);
    expect(await Promise.all([...jvms, ...zkts].map((p) => p.exited))).toEqual([0, 0, 0, 0, 0]);
    const javaHeld = jvms.flatMap((p) => parseHeld(p.output()));
    const zktsHeld = zkts.flatMap((p) => parseHeld(p.output()));
    expect(interleaved(javaHeld, zktsHeld)).toBe(true);
    const report = checkOverlaps([...javaHeld, ...zktsHeld]);
    console.info(`Curator + zkts mutex on @zkts/server: ${report.grants} grants, ${report.overlaps} overlaps`);
    expect(report.overlaps, report.examples.join('\n')).toBe(0);
    expect(report.grants).toBe(30 + 30);
  }, 120_000);

  it('LeaderLatch: one leader; when it closes, the other leads', async () => {
    await using server = await startServer();
    const a = javaMain(classpath, 'CuratorRecipes', 'latch', server.connectString, '/latch', 'a');
    await a.line(/^LEADER a$/m);
    const b = javaMain(classpath, 'CuratorRecipes', 'latch', server.connectString, '/latch', 'b');
    const zk = await connect(server.connectString);
    try {
      while ((await zk.getChildren('/latch')).children.length < 2) await new Promise((r) => setTimeout(r, 50));
      expect(b.output()).not.toMatch(/LEADER/);
      a.proc.stdin?.write('\n');
      await a.line(/^CLOSED a$/m);
      await b.line(/^LEADER b$/m);
      expect((await zk.getChildren('/latch')).children).toHaveLength(1);
      b.proc.stdin?.write('\n');
      await b.line(/^CLOSED b$/m);
      expect(await Promise.all([a.exited, b.exited])).toEqual([0, 0]);
    } finally {
      await zk.close();
    }
  }, 90_000);

  it('LeaderSelector in 2 JVMs: terms never overlap', async () => {
    await using server = await startServer();
    const selectors = ['x', 'y'].map((id) => curator(classpath, 'selector', server.connectString, '/selector', '3', '40', id));
    for (const s of selectors) await s.line(/^DONE$/m, 60_000);
    const terms = selectors.flatMap((s) =>
      [...s.output().matchAll(/^TERM (\S+) (\d+) (\d+)$/gm)].map((m) => ({ kind: 'write' as const, who: m[1] as string, start: BigInt(m[2] as string), end: BigInt(m[3] as string) })),
    );
    expect(terms).toHaveLength(6);
    expect(checkOverlaps(terms).overlaps).toBe(0);
  }, 90_000);

  it('CuratorCache sees a zkts client create, change and delete nodes', async () => {
    await using server = await startServer();
    const zk = await connect(server.connectString);
    try {
      await zk.create('/cache', 'root');
      await zk.create('/cache/a', '1');
      const cache = javaMain(classpath, 'CuratorRecipes', 'cache', server.connectString, '/cache');
      await cache.line(/^INITIALIZED$/m);
      // One write at a time: CuratorCache reads a created node after its event, so a node deleted before
      // that read is never reported at all (on ZooKeeper too).
      await zk.create('/cache/b', '2');
      await cache.line(/^CREATED \/cache\/b 2$/m);
      await zk.create('/cache/b/c', '3');
      await cache.line(/^CREATED \/cache\/b\/c 3$/m);
      await zk.setData('/cache/a', 'one');
      await cache.line(/^CHANGED \/cache\/a one$/m);
      await zk.delete('/cache/b/c');
      await cache.line(/^DELETED \/cache\/b\/c 3$/m);
      await zk.delete('/cache/b');
      await cache.line(/^DELETED \/cache\/b 2$/m);
      const events = cache.output().split('\n').filter((l) => /^(CREATED|CHANGED|DELETED|INITIALIZED)/.test(l));
      expect(events).toEqual([
        'CREATED /cache root',
        'CREATED /cache/a 1',
        'INITIALIZED',
        'CREATED /cache/b 2',
        'CREATED /cache/b/c 3',
        'CHANGED /cache/a one',
        'DELETED /cache/b/c 3',
        'DELETED /cache/b 2',
      ]);
      cache.proc.stdin?.end();
      expect(await cache.exited).toBe(0);
    } finally {
      await zk.close();
    }
  }, 90_000);
});
