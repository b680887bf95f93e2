// Curator in its own JVMs against one startServer: InterProcessMutex contending with zkts Mutex processes,
// LeaderLatch and LeaderSelector, and a CuratorCache following a zkts client's writes (its events compared with
// the same run on ZooKeeper).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { connect } from '@zkts/protocol';
import { startServer } from '@zkts/server';

import { compileCurator, curator, javaMain, killAll } from '../../../../recipes/test/support/foreign.js';
import { checkOverlaps, interleaved, parseHeld } from '../../../../recipes/test/support/overlaps.js';
import { expectHandOff, zktsScript } from './processes.js';

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
    await expectHandOff(server.connectString, '/latch', a, b, async (zk) => {
      expect((await zk.getChildren('/latch')).children).toHaveLength(1);
    });
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

  it('CuratorCache sees a zkts client create, change and delete nodes, as on ZooKeeper', async () => {
    const onZooKeeper = await cacheEvents(inject('zkConnectString'), `/interop-cache-${randomBytes(6).toString('hex')}`);
    await using server = await startServer();
    const onServer = await cacheEvents(server.connectString, '/cache');
    expect(onServer).toEqual([
      'CREATED / root',
      'CREATED /a 1',
      'INITIALIZED',
      'CREATED /b 2',
      'CREATED /b/c 3',
      'CHANGED /a one',
      'DELETED /b/c 3',
      'DELETED /b 2',
    ]);
    expect(onServer).toEqual(onZooKeeper);
  }, 90_000);
});

/** A CuratorCache on `root` while a zkts client writes under it; its events, with `root` written as `/`. */
async function cacheEvents(connectString: string, root: string): Promise<string[]> {
  const zk = await connect(connectString);
  try {
    await zk.create(root, 'root');
    await zk.create(`${root}/a`, '1');
    const cache = javaMain(classpath, 'CuratorRecipes', 'cache', connectString, root);
    await cache.line(/^INITIALIZED$/m);
    // One write at a time: CuratorCache reads a created node after its event, so a node deleted before
    // that read is never reported at all (on ZooKeeper too).
    const step = async (write: Promise<unknown>, line: string): Promise<void> => {
      await write;
      await cache.line(new RegExp(`^${line.replace('@', root).replace(/[/]/g, '\\/')}$`, 'm'));
    };
    await step(zk.create(`${root}/b`, '2'), 'CREATED @/b 2');
    await step(zk.create(`${root}/b/c`, '3'), 'CREATED @/b/c 3');
    await step(zk.setData(`${root}/a`, 'one'), 'CHANGED @/a one');
    await step(zk.delete(`${root}/b/c`), 'DELETED @/b/c 3');
    await step(zk.delete(`${root}/b`), 'DELETED @/b 2');
    cache.proc.stdin?.end();
    expect(await cache.exited).toBe(0);
    return cache
      .output()
      .split('\n')
      .filter((l) => /^(CREATED|CHANGED|DELETED|INITIALIZED)/.test(l))
      .map((l) => l.replace(`${root}/`, '/').replace(`${root} `, '/ '));
  } finally {
    await zk.close();
  }
}
