// Interop with Apache Curator (Debian's jars, run in a JVM): Curator's InterProcessMutex and zkts Mutex
// contend on one path with exclusion held, and the read-write lock node names are understood both ways.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { Mutex, ReadWriteLock } from '@zkts/recipes';

import { compileCurator, curator, killAll, type ForeignProcess } from '../../support/foreign.js';
import { Clients, childrenOf, sharedServer, sleep, text, uniqueRoot } from '../../support/helpers.js';

const clients = new Clients();
let compiled: ReturnType<typeof compileCurator> | undefined;

beforeAll(() => {
  compiled = compileCurator();
}, 120_000);

afterEach(async () => {
  killAll();
  await clients.closeAll();
});

afterAll(() => compiled?.dispose());

const java = (...args: string[]): ForeignProcess => curator(compiled!.classpath, ...args);

describe('interop with Curator', () => {
  it('Curator InterProcessMutex and zkts Mutex exclude each other (shared read-modify-write counter)', async () => {
    const root = uniqueRoot();
    const cs = await clients.many(2);
    await cs[0]!.create(root, null);
    await cs[0]!.create(`${root}/counter`, '0');
    const perJvm = 40;
    const jvm = java('mutex', sharedServer(), `${root}/lock`, String(perJvm), `${root}/counter`);
    const zktsRounds = 40;
    let sawCurator = false;
    const zkts = cs.map(async (c) => {
      const m = new Mutex(c, `${root}/lock`);
      for (let i = 0; i < zktsRounds; i++) {
        await using _l = await m.acquire({ timeout: 60_000 });
        const kids = await c.getChildren(`${root}/lock`);
        if (kids.children.length > 1) sawCurator ||= true;
        const v = Number(text((await c.getData(`${root}/counter`)).data));
        await sleep(2); // widen the window a second holder would fall into
        await c.setData(`${root}/counter`, String(v + 1));
      }
    });
    await Promise.all([...zkts, jvm.line(/DONE/, 90_000)]);
    expect(await jvm.exited).toBe(0);
    expect(text((await cs[0]!.getData(`${root}/counter`)).data)).toBe(String(perJvm + 2 * zktsRounds));
    expect(sawCurator).toBe(true); // they really did queue together
    expect(await childrenOf(cs[0]!, `${root}/lock`)).toEqual([]);
  });

  it('RW lock: a Curator writer blocks zkts readers; zkts sees its __WRIT__ node as a writer', async () => {
    const dir = `${uniqueRoot()}/rw`;
    const c = await clients.connect();
    const jvm = java('hold-write', sharedServer(), dir);
    const node = (await jvm.line(/HELD (\S+)/))[1]!;
    expect(node).toMatch(/\/_c_[0-9a-f-]{36}-__WRIT__\d{10}$/);
    const rw = new ReadWriteLock(c, dir);
    expect((await rw.participants()).map((p) => [p.node, p.kind])).toEqual([[node, 'write']]);
    expect(await rw.readLock.tryAcquire()).toBeNull();
    const r = rw.readLock.acquire({ timeout: 20_000 });
    await sleep(200);
    jvm.proc.stdin!.write('\n');
    await jvm.line(/RELEASED/);
    await (await r).release();
  });

  it('RW lock: a zkts writer blocks a Curator reader; a zkts reader shares with a Curator reader', async () => {
    const dir = `${uniqueRoot()}/rw`;
    const c = await clients.connect();
    const w = await new ReadWriteLock(c, dir).writeLock.acquire();
    const jvm = java('hold-read', sharedServer(), dir);
    // Curator's reader must queue behind our __WRIT__ node: it stays blocked until we release.
    await expect(jvm.line(/HELD/, 3000)).rejects.toThrow(/no/);
    expect((await childrenOf(c, dir)).some((n) => n.includes('__READ__'))).toBe(true);
    await w.release();
    await jvm.line(/HELD/);
    const r = await new ReadWriteLock(c, dir).readLock.acquire({ timeout: 2000 }); // shared with Curator's reader
    jvm.proc.stdin!.write('\n');
    await jvm.line(/RELEASED/);
    await r.release();
  });
});
