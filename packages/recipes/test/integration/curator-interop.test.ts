// Interop with Apache Curator (Debian's jars, run in a JVM): Curator's InterProcessMutex and zkts Mutex
// contend on one path with exclusion held, and the read-write lock node names are understood both ways.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { Mutex, ReadWriteLock } from '@zkts/recipes';

import { Clients, childrenOf, sharedServer, sleep, text, uniqueRoot } from './helpers.js';

const JARS = [
  'curator-recipes', 'curator-framework', 'curator-client', 'zookeeper', 'zookeeper-jute', 'guava', 'slf4j-api', 'slf4j-nop',
  'netty-handler', 'netty-transport', 'netty-common', 'netty-buffer', 'netty-codec', 'netty-resolver',
  'netty-transport-native-epoll', 'netty-transport-native-unix-common', 'commons-io', 'commons-lang3', 'metrics-core',
].map((j) => `/usr/share/java/${j}.jar`);

const clients = new Clients();
const jvms: ChildProcess[] = [];
let classDir = '';
let classpath = '';

beforeAll(() => {
  const missing = JARS.filter((j) => !existsSync(j));
  if (missing.length > 0) throw new Error(`Curator interop needs Debian's jars; missing: ${missing.join(', ')}`);
  classDir = mkdtempSync(join(tmpdir(), 'zkts-curator-'));
  const source = fileURLToPath(new URL('./java/CuratorLocks.java', import.meta.url));
  const r = spawnSync('javac', ['-d', classDir, '-cp', JARS.join(':'), source], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`javac failed: ${r.stderr}`);
  classpath = [classDir, ...JARS].join(':');
}, 120_000);

afterEach(async () => {
  for (const j of jvms.splice(0)) if (j.exitCode === null) j.kill('SIGKILL');
  await clients.closeAll();
});

afterAll(() => {
  if (classDir !== '') rmSync(classDir, { recursive: true, force: true });
});

function java(...args: string[]): { proc: ChildProcess; line: (re: RegExp, timeout?: number) => Promise<RegExpExecArray>; exited: Promise<number | null> } {
  const proc = spawn('java', ['-Xss512k', '-XX:TieredStopAtLevel=1', '-cp', classpath, 'CuratorLocks', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  jvms.push(proc);
  let out = '';
  let err = '';
  proc.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  proc.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const line = async (re: RegExp, timeout = 30_000): Promise<RegExpExecArray> => {
    const deadline = Date.now() + timeout;
    for (;;) {
      const m = re.exec(out);
      if (m) return m;
      if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`Curator process: no ${re} (exit ${proc.exitCode}); stdout: ${out} stderr: ${err.slice(-2000)}`);
      await sleep(20);
    }
  };
  return { proc, line, exited };
}

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
