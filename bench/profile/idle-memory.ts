// What an idle session costs in memory, build against build: N sessions against one server, measured the way
// the bench's sessions1k row does (heap after two GCs, RSS, from before the first connect to 1 s after the last).
//
//   node --expose-gc bench/.build/profile/idle-memory.js heap [host:port] [n=1000] [rounds=5]
//       heap per session, every build in ONE process, alternating rounds (open N, measure, close them all)
//   node bench/.build/profile/idle-memory.js rss [host:port] [n=1000] [rounds=5]
//       heap and RSS per session, one fresh process per build and round, alternating (SPACES=1: and the
//       committed size of each V8 heap space, per session)
//   node --expose-gc bench/.build/profile/idle-memory.js snapshot <build> [host:port] [n=1000] [dir=.]
//       heap snapshots of one process with 0 and with N idle sessions (bench/profile/heap-diff.ts reads them);
//       COLD=1: no session opened before the first snapshot
//
// Builds: ZKTS_A / ZKTS_B name two builds' @zkts/protocol dist/index.js (A must be given, B defaults to
// this checkout's); `nzk` is node-zookeeper-client, as the bench's runner opens it. The server: the argument,
// else ZKTS_SERVER, else 127.0.0.1:2181 (bench/profile/server.ts starts the bench's server and prints it).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';

import { readFileSync } from 'node:fs';

import { client as nzk } from '../clients/nzk.js';
import type { BenchSession } from '../harness/session.js';
import { otherBuild } from './other-build.js';

type Open = (connectString: string) => Promise<{ close: () => Promise<unknown> }>;

interface Sample {
  heap: number;
  rss: number;
  external: number;
  arrayBuffers: number;
}

const SELF = fileURLToPath(import.meta.url);
const HERE = join(SELF, '..');

function buildPath(name: string): string {
  if (name === 'A') return otherBuild('ZKTS_A', "@zkts/protocol's dist/index.js");
  if (name === 'B') return process.env['ZKTS_B'] ?? join(HERE, '../../../packages/protocol/dist/index.js');
  return name;
}

async function opener(name: string): Promise<Open> {
  if (name === 'nzk') return async (cs) => nzk.connect(cs) as Promise<BenchSession>;
  // The bench's own zkts runner (this checkout's build), as sessions1k opens it: its module imports included.
  if (name === 'zkts') {
    const runner = (await import('../clients/zkts.js')).client;
    return async (cs) => runner.connect(cs) as Promise<BenchSession>;
  }
  const mod = (await import(pathToFileURL(buildPath(name)).href)) as { connect: (cs: string, o: object) => Promise<{ close: () => Promise<unknown> }> };
  return (cs) => mod.connect(cs, { sessionTimeout: 30_000 });
}

function sample(): Sample {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss, external: m.external, arrayBuffers: m.arrayBuffers };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Opens n sessions, 100 handshakes in flight at once (the bench's connectWindow). */
async function openAll(open: Open, cs: string, n: number, midway?: () => void): Promise<{ close: () => Promise<unknown> }[]> {
  const sessions: { close: () => Promise<unknown> }[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) {
      next++;
      sessions.push(await open(cs));
      if (sessions.length === n / 2) midway?.();
    }
  };
  await Promise.all(Array.from({ length: Math.min(100, n) }, worker));
  return sessions;
}

async function closeAll(sessions: { close: () => Promise<unknown> }[]): Promise<void> {
  for (let i = 0; i < sessions.length; i += 100) await Promise.all(sessions.slice(i, i + 100).map((s) => s.close()));
}

/** Per session: the difference over n sessions, measured like sessions1k. */
async function measureOnce(open: Open, cs: string, n: number): Promise<{ per: Sample; sessions: { close: () => Promise<unknown> }[] }> {
  const before = sample();
  const sessions = await openAll(open, cs, n);
  await sleep(1000);
  const after = sample();
  const per: Sample = {
    heap: (after.heap - before.heap) / n,
    rss: (after.rss - before.rss) / n,
    external: (after.external - before.external) / n,
    arrayBuffers: (after.arrayBuffers - before.arrayBuffers) / n,
  };
  return { per, sessions };
}

function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const med = s.length % 2 === 1 ? (s[(s.length - 1) / 2] ?? NaN) : ((s[s.length / 2 - 1] ?? NaN) + (s[s.length / 2] ?? NaN)) / 2;
  return `median ${med.toFixed(0)} B (range ${(s[0] ?? NaN).toFixed(0)}..${(s[s.length - 1] ?? NaN).toFixed(0)}, n=${s.length})`;
}

function builds(): string[] {
  return (process.env['BUILDS'] ?? 'A,B').split(',');
}

async function heapAB(cs: string, n: number, rounds: number): Promise<void> {
  const names = builds();
  const opens = await Promise.all(names.map(opener));
  const results = new Map<string, Sample[]>(names.map((k) => [k, []]));
  // A warm-up round of each, so module loading and first-use caches are not billed to the first build measured.
  for (const open of opens) await closeAll((await measureOnce(open, cs, Math.min(n, 100))).sessions);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < names.length; i++) {
      const k = r % 2 === 0 ? i : names.length - 1 - i;
      const name = names[k] ?? '';
      const { per, sessions } = await measureOnce(opens[k] as Open, cs, n);
      results.get(name)?.push(per);
      console.log(`round ${r} ${name}: heap ${per.heap.toFixed(0)} B/session, arrayBuffers ${per.arrayBuffers.toFixed(0)}, external ${per.external.toFixed(0)}`);
      await closeAll(sessions);
      // zkts drops a closed session's socket after a grace period (1 s): before that it is still live, and
      // would be subtracted from the next build's figure.
      await sleep(2500);
    }
  }
  for (const [name, xs] of results) console.log(`${name} heap/session: ${stats(xs.map((x) => x.heap))}; arrayBuffers ${stats(xs.map((x) => x.arrayBuffers))}`);
}

function child(args: string[]): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--expose-gc', SELF, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}') as Sample) : reject(new Error(`child exit ${code}`))));
  });
}

async function rssAB(cs: string, n: number, rounds: number): Promise<void> {
  const names = builds();
  const results = new Map<string, Sample[]>(names.map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[r % 2 === 0 ? i : names.length - 1 - i] ?? '';
      const per = await child(['one', name, cs, String(n)]);
      results.get(name)?.push(per);
      console.log(`round ${r} ${name}: rss ${per.rss.toFixed(0)} B/session, heap ${per.heap.toFixed(0)}, arrayBuffers ${per.arrayBuffers.toFixed(0)}`);
    }
  }
  for (const [name, xs] of results) console.log(`${name} rss/session: ${stats(xs.map((x) => x.rss))}; heap ${stats(xs.map((x) => x.heap))}`);
}

/**
 * Resident bytes per kind of mapping (/proc/self/smaps): the [heap] (glibc's main arena), other anonymous
 * mappings by size class (V8's 256 KiB pages and larger spaces, malloc's per-thread arenas of 64 MiB
 * reservations), and files (code and data of node and its libraries).
 */
function smaps(): Map<string, number> {
  const out = new Map<string, number>();
  let key = '';
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const size = parseInt(head[2] ?? '0', 16) - parseInt(head[1] ?? '0', 16);
      const file = head[4] ?? '';
      key = file !== '' ? (file.startsWith('[') ? file : `file ${file.split('/').pop() ?? ''}`) : `anon ${size >= 1 << 26 ? '>=64M' : size >= 1 << 20 ? `${Math.round(size / (1 << 20))}M` : `${Math.round(size / 1024)}K`}`;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out.set(key, (out.get(key) ?? 0) + Number(rss[1]) * 1024);
  }
  return out;
}

/** Committed bytes per V8 heap space: where RSS that is not live objects goes (a grown new space, pages). */
function spaces(): Map<string, number> {
  return new Map(getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size]));
}

async function one(name: string, cs: string, n: number): Promise<void> {
  const open = await opener(name);
  const spaces0 = spaces();
  const maps0 = process.env['SMAPS'] === '1' ? smaps() : new Map<string, number>();
  const { per, sessions } = await measureOnce(open, cs, n);
  if (process.env['SMAPS'] === '1') {
    const maps1 = smaps();
    const keys = [...new Set([...maps0.keys(), ...maps1.keys()])];
    const rows = keys.map((k) => [k, ((maps1.get(k) ?? 0) - (maps0.get(k) ?? 0)) / n] as const).filter(([, d]) => Math.abs(d) >= 16);
    for (const [k, d] of rows.sort((a, b) => b[1] - a[1])) console.error(`${name} ${k}: ${d.toFixed(0)} B/session resident`);
  }
  if (process.env['SPACES'] === '1') {
    for (const [space, size] of spaces()) console.error(`${name} ${space}: ${((size - (spaces0.get(space) ?? 0)) / n).toFixed(0)} B/session committed`);
  }
  await closeAll(sessions);
  console.log(JSON.stringify(per));
}

async function snapshot(name: string, cs: string, n: number, dir: string): Promise<void> {
  const open = await opener(name);
  // Loaded and warmed (one session opened and closed) before the empty snapshot, unless COLD=1: then the
  // difference also holds what the first sessions compile (bytecode, feedback), as the bench's row measures.
  if (process.env['COLD'] !== '1') await closeAll(await openAll(open, cs, 1));
  await sleep(200);
  sample();
  const empty = writeHeapSnapshot(join(dir, `${name.replace(/\W/g, '_')}-0.heapsnapshot`));
  // MID=1: also a snapshot halfway, with the window's handshakes in flight: what a connect holds until it is
  // done (it survives the scavenges that run meanwhile, and grows the young generation).
  const midway = process.env['MID'] === '1' ? () => console.log(writeHeapSnapshot(join(dir, `${name.replace(/\W/g, '_')}-mid.heapsnapshot`))) : undefined;
  const sessions = await openAll(open, cs, n, midway);
  await sleep(1000);
  sample();
  const full = writeHeapSnapshot(join(dir, `${name.replace(/\W/g, '_')}-${n}.heapsnapshot`));
  console.log(empty);
  console.log(full);
  await closeAll(sessions);
}

const [mode = 'heap', ...rest] = process.argv.slice(2);
const server = (arg: string | undefined): string => arg ?? process.env['ZKTS_SERVER'] ?? '127.0.0.1:2181';
if (mode === 'heap') await heapAB(server(rest[0]), Number(rest[1] ?? 1000), Number(rest[2] ?? 5));
else if (mode === 'rss') await rssAB(server(rest[0]), Number(rest[1] ?? 1000), Number(rest[2] ?? 5));
else if (mode === 'one') await one(rest[0] ?? 'B', server(rest[1]), Number(rest[2] ?? 1000));
else if (mode === 'snapshot') await snapshot(rest[0] ?? 'B', server(rest[1]), Number(rest[2] ?? 1000), rest[3] ?? '.');
else throw new Error(`unknown mode ${mode}`);
process.exit(0);
