// Event delivery, build against build in ONE process (the machine's noise lands on both alike): rounds of the
// harness's two event rows, alternating the builds (the order reversed every round), medians and ranges.
//
// - watches: 10,000 data watches set pipelined (window 1,000), fired by setData (pipelined), every event
//   delivered: wall ms of the whole (the settled-heap reading between set and fire not counted), the heap the
//   set watches hold per watch and the process's CPU per watch, like `pnpm bench --workloads watches` (its
//   callback pipeline and zkts runner; node-zookeeper-client through the harness's own runner);
// - treeCache: a TreeCache of a 100 × 100 tree, another session of the same process sets a leaf, the time until
//   the cache's `changed` event; p50/p99 of `events` samples per round, like `pnpm bench --workloads treeCache`.
//   With `--trace`, every sample over 1 ms is printed with the setData reply's share of it and the GCs (start,
//   kind, duration) that overlapped it, to tell what the slow samples are.
//
//   ZKTS_A=<root of build A> ZKTS_B=<root of build B> node --expose-gc bench/.build/profile/events.js \
//     <host:port> [rounds=6] [events=300] [--trace] [--only=watches|treeCache] [--no-peer]
//
// The watches rounds also run node-zookeeper-client (the row's peer) after each build, unless --no-peer.
//
// A root is a worktree whose packages/protocol and packages/recipes are built (dist/); without ZKTS_A/ZKTS_B
// both are this worktree's. Compiled with the bench's child (bench/tsconfig.child.json), run on plain node.
import { PerformanceObserver, performance, type PerformanceEntry } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import type * as Protocol from '@zkts/protocol';
import type * as Recipes from '@zkts/recipes';

import { client as nzc } from '../clients/nzk.js';
import { pipeline, until } from '../harness/measure.js';
import type { BenchClient, Done } from '../harness/session.js';
import { successOf, unused } from './other-build.js';

interface Build {
  id: string;
  protocol: typeof Protocol;
  recipes: typeof Recipes;
}

const PAYLOAD = new Uint8Array(100).fill(0x61);
const here = resolve(new URL('.', import.meta.url).pathname, '..', '..', '..');

async function load(id: string, root: string): Promise<Build> {
  const url = (pkg: string): string => pathToFileURL(join(root, 'packages', pkg, 'dist', 'index.js')).href;
  return { id, protocol: (await import(url('protocol'))) as typeof Protocol, recipes: (await import(url('recipes'))) as typeof Recipes };
}

const gcs: { start: number; end: number; kind: number }[] = [];
const observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[]) {
    gcs.push({ start: e.startTime, end: e.startTime + e.duration, kind: e.detail?.kind ?? 0 });
  }
});
const GC_KIND: Record<number, string> = { 1: 'scavenge', 2: 'mark-sweep', 4: 'incremental', 8: 'weakcb' };

/** Heap after full collections (the harness's settledHeap; `--expose-gc`). */
function settledHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Heap the set phase of the last watches rounds kept per watch (bytes), in round order. */
const heapPerWatch: number[] = [];

/**
 * The harness's zkts runner over any build (bench/clients/zkts.ts: one `.then` per call, the pipeline's shared
 * `done` adapted once), for the calls a watches round makes.
 */
function zktsOver(b: Build): BenchClient {
  const ok = successOf();
  return {
    id: `zkts-${b.id}`,
    label: `zkts ${b.id}`,
    watchEventsDelivered: () => 0,
    connect: async (cs) => {
      const zk = await b.protocol.connect(cs, { sessionTimeout: 30_000 });
      return {
        getDataWatch: (path, onEvent, done) => void zk.getData(path, { watch: () => onEvent() }).then(ok(done), done),
        setData: (path, data, done) => void zk.setData(path, data).then(ok(done), done),
        close: async () => {
          await zk.close();
        },
        getData: unused,
        create: unused,
        delete: unused,
        getDataBytes: unused,
        getChildrenList: unused,
        countChildren: unused,
      };
    },
  };
}

/** One round of the harness's `watches` workload (workloads.ts), wall ms of set and fire (the heap reading between them not counted). */
async function watchesRound(c: BenchClient, cs: string, dir: string, n: number): Promise<{ setMs: number; fireMs: number; cpuUs: number }> {
  const s = await c.connect(cs);
  try {
    let delivered = 0;
    const onEvent = (): void => {
      delivered++;
    };
    const changed = new Uint8Array([0x62]);
    const heap0 = settledHeap();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await pipeline(n, 1000, (i, done) => s.getDataWatch(`${dir}/n${i}`, onEvent, done));
    const setMs = performance.now() - t0;
    const cpu1 = process.cpuUsage(cpu0);
    heapPerWatch.push((settledHeap() - heap0) / n);
    const cpu2 = process.cpuUsage();
    const t1 = performance.now();
    await pipeline(n, 1000, (i, done) => s.setData(`${dir}/n${i}`, changed, done));
    await until(() => delivered >= n, 60_000, `${n} watch events`);
    const fireMs = performance.now() - t1;
    const cpu3 = process.cpuUsage(cpu2);
    return { setMs, fireMs, cpuUs: (cpu1.user + cpu1.system + cpu3.user + cpu3.system) / n };
  } finally {
    await s.close();
  }
}

interface Sample { us: number; replyUs: number; at: number }
/** CPU µs per sample of the last cache rounds (both sessions and the measuring loop: the process's whole cost). */
const cpuPerEvent: number[] = [];

/**
 * One cache round: `events` cache samples, each followed by a floor sample: the same wire exchange with no cache
 * (setData by the other session, the data watch's notification, a getData), by the same two sessions. A tail the
 * floor shares is the machine's (scheduling, the server), not the cache's.
 */
async function cacheRound(b: Build, cs: string, tree: string, bare: string, events: number): Promise<{ cache: Sample[]; floor: number[] }> {
  const client = await b.protocol.connect(cs, { sessionTimeout: 30_000 });
  const remote = await b.protocol.connect(cs, { sessionTimeout: 30_000 });
  try {
    const cache = new b.recipes.TreeCache(client, tree);
    await cache.start();
    let waiting: { path: string; resolve: () => void } | undefined;
    cache.on((e) => {
      if (e.type === 'changed' && waiting !== undefined && e.path === waiting.path) waiting.resolve();
    });
    const out: Sample[] = [];
    const floor: number[] = [];
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < events; i++) {
      const path = `${tree}/d${i % 100}/n${(i * 7) % 100}`;
      const seen = new Promise<void>((r) => (waiting = { path, resolve: r }));
      const t = performance.now();
      await remote.setData(path, PAYLOAD);
      const replied = performance.now();
      await seen;
      const end = performance.now();
      out.push({ us: (end - t) * 1000, replyUs: (replied - t) * 1000, at: t });
      let fired!: () => void;
      const notified = new Promise<void>((r) => (fired = r));
      await client.getData(bare, { watch: () => fired() });
      const f = performance.now();
      await remote.setData(bare, PAYLOAD);
      await notified;
      await client.getData(bare);
      floor.push((performance.now() - f) * 1000);
    }
    const cpu = process.cpuUsage(cpu0);
    cpuPerEvent.push((cpu.user + cpu.system) / events);
    await cache.close();
    return { cache: out, floor };
  } finally {
    await remote.close();
    await client.close();
  }
}

const q = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
const median = (xs: number[]): number => q([...xs].sort((a, b) => a - b), 0.5);
const range = (xs: number[]): string => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flags = new Set(args.filter((a) => a.startsWith('--')));
  const [cs = '', roundsArg = '6', eventsArg = '300'] = args.filter((a) => !a.startsWith('--'));
  const only = [...flags].find((f) => f.startsWith('--only='))?.slice(7);
  const trace = flags.has('--trace');
  const peer = !flags.has('--no-peer');
  const rounds = Number(roundsArg);
  const events = Number(eventsArg);
  const builds = [await load('A', process.env['ZKTS_A'] ?? here), await load('B', process.env['ZKTS_B'] ?? here)];
  observer.observe({ entryTypes: ['gc'] });

  const base = `/events-ab-${process.pid}`;
  const setup = await builds[0]!.protocol.connect(cs, { sessionTimeout: 30_000 });
  const W = 10_000;
  await setup.create(base, new Uint8Array());
  await setup.create(`${base}/w`, new Uint8Array());
  const create = (path: string, done: Done): void => void setup.create(path, PAYLOAD).then(() => done(null), done);
  await pipeline(W, 1000, (i, done) => create(`${base}/w/n${i}`, done));
  const tree = `${base}/t`;
  await setup.create(tree, PAYLOAD);
  await pipeline(100, 100, (i, done) => create(`${tree}/d${i}`, done));
  await pipeline(10_000, 1000, (i, done) => create(`${tree}/d${Math.floor(i / 100)}/n${i % 100}`, done));

  const watchMs: Record<string, number[]> = { A: [], B: [], nzc: [] };
  const setMs: Record<string, number[]> = { A: [], B: [], nzc: [] };
  const watchHeap: Record<string, number[]> = { A: [], B: [], nzc: [] };
  const cpuPerWatch: Record<string, number[]> = { A: [], B: [], nzc: [] };
  const zktsClients = new Map(builds.map((b) => [b.id, zktsOver(b)]));
  const watchRow = async (id: string, c: BenchClient): Promise<string> => {
    const { setMs: set, fireMs, cpuUs } = await watchesRound(c, cs, `${base}/w`, W);
    cpuPerWatch[id]!.push(cpuUs);
    const heap = heapPerWatch[heapPerWatch.length - 1]!;
    watchMs[id]!.push(set + fireMs);
    setMs[id]!.push(set);
    watchHeap[id]!.push(heap);
    return `${id === 'nzc' ? 'nzc ' : ''}watches ${(set + fireMs).toFixed(0)} ms (set ${set.toFixed(0)}) ${heap.toFixed(0)} B/watch ${cpuUs.toFixed(1)} µs CPU/watch`;
  };
  const p50: Record<string, number[]> = { A: [], B: [] };
  const p99: Record<string, number[]> = { A: [], B: [] };
  const floor99: Record<string, number[]> = { A: [], B: [] };
  const bare = `${base}/bare`;
  await setup.create(bare, PAYLOAD);
  // One unmeasured round each: the JIT and the server's caches warm for both.
  for (const b of builds) {
    if (only !== 'treeCache') await watchRow(b.id, zktsClients.get(b.id)!);
    if (only !== 'watches') await cacheRound(b, cs, tree, bare, 50);
  }
  for (let r = 0; r < rounds; r++) {
    for (const b of r % 2 === 0 ? builds : [...builds].reverse()) {
      const line: string[] = [`round ${r} ${b.id}`];
      if (only !== 'treeCache') {
        line.push(await watchRow(b.id, zktsClients.get(b.id)!));
        // node-zookeeper-client after each build in turn: the peer's figure from the same minutes.
        if (peer) line.push(await watchRow('nzc', nzc));
      }
      if (only !== 'watches') {
        gcs.length = 0;
        const { cache: samples, floor } = await cacheRound(b, cs, tree, bare, events);
        const sorted = samples.map((s) => s.us).sort((x, y) => x - y);
        const floorSorted = floor.sort((x, y) => x - y);
        p50[b.id]!.push(q(sorted, 0.5));
        p99[b.id]!.push(q(sorted, 0.99));
        floor99[b.id]!.push(q(floorSorted, 0.99));
        line.push(`cache p50 ${q(sorted, 0.5).toFixed(0)} µs p99 ${q(sorted, 0.99).toFixed(0)} µs max ${sorted[sorted.length - 1]!.toFixed(0)}`);
        line.push(`floor p50 ${q(floorSorted, 0.5).toFixed(0)} µs p99 ${q(floorSorted, 0.99).toFixed(0)} µs`);
        if (trace) {
          for (const s of samples.filter((x) => x.us > 1000)) {
            const end = s.at + s.us / 1000;
            const hit = gcs.filter((g) => g.end > s.at && g.start < end).map((g) => `${GC_KIND[g.kind] ?? g.kind}@+${((g.start - s.at) * 1000).toFixed(0)} ${((g.end - g.start) * 1000).toFixed(0)}µs`);
            line.push(`\n    slow ${s.us.toFixed(0)} µs (setData reply ${s.replyUs.toFixed(0)} µs) gc: ${hit.join(', ') || 'none'}`);
          }
          line.push(`\n    cpu per sample ${cpuPerEvent[cpuPerEvent.length - 1]!.toFixed(0)} µs`);
          line.push(`\n    gcs in round: ${gcs.length}, total ${gcs.reduce((a, g) => a + g.end - g.start, 0).toFixed(1)} ms`);
        }
      }
      console.log(line.join('  '));
    }
  }
  for (const id of ['A', 'B', 'nzc']) {
    if (watchMs[id]!.length === 0 && id === 'nzc') continue;
    const parts = [`${id}:`];
    if (only !== 'treeCache') parts.push(`watches median ${median(watchMs[id]!).toFixed(0)} ms (${range(watchMs[id]!)}), set ${median(setMs[id]!).toFixed(0)} ms (${range(setMs[id]!)}), heap ${median(watchHeap[id]!).toFixed(0)} B/watch (${range(watchHeap[id]!)}), CPU ${median(cpuPerWatch[id]!).toFixed(1)} µs/watch (${Math.min(...cpuPerWatch[id]!).toFixed(1)}–${Math.max(...cpuPerWatch[id]!).toFixed(1)})`);
    if (only !== 'watches' && id !== 'nzc') parts.push(`cache p50 median ${median(p50[id]!).toFixed(0)} µs (${range(p50[id]!)}), p99 median ${median(p99[id]!).toFixed(0)} µs (${range(p99[id]!)}); floor p99 median ${median(floor99[id]!).toFixed(0)} µs (${range(floor99[id]!)})`);
    console.log(parts.join('  '));
  }
  await setup.removeRecursive(base);
  await setup.close();
  observer.disconnect();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
