// The workloads, written once against BenchSession so every Node client runs exactly the same code.
// Each one prepares its nodes under its own `base` path (untimed), warms up, then measures.
import { measure, pipeline, quantile, settledHeap, until } from './measure.js';
import { children100k, getLarge, sessions1k, watchReplay } from './scale.js';
import { getPipelinedTracing } from './tracing.js';
import type { BenchClient, BenchLock, BenchSession } from './session.js';
import { call } from './session.js';

export type Metrics = Record<string, number>;

export interface WorkloadContext {
  client: BenchClient;
  connectString: string;
  /** A top-level path no other run uses; the workload creates it. */
  base: string;
  params: WorkloadParams;
  /** A node with `params.fixtureChildren` children, made once per run by the harness (scale.ts). */
  fixture?: string | undefined;
  /** The harness's reconnect proxy for this run (watchReplay only): its port and its control port. */
  proxy?: { port: number; controlPort: number } | undefined;
}

export interface WorkloadParams {
  window: number;
  getOps: number;
  getWarmup: number;
  seqOps: number;
  seqWarmup: number;
  createDeletePairs: number;
  createDeleteWarmup: number;
  watches: number;
  lockCycles: number;
  lockWarmup: number;
  handoffs: number;
  waiters: number;
  waiterSessions: number;
  /** The rows at scale (scale.ts); absent where only the original workloads run. */
  scale?: ScaleParams;
}

export interface ScaleParams {
  /** sessions1k: sessions in the one process, handshakes in flight at once, ms of idle measured. */
  sessions: number;
  connectWindow: number;
  idleMs: number;
  /** sessions1k: how long after the idle window to wait for V8 to give back the young generation. */
  settleCapMs: number;
  /** Children of the run's fixture node: watches replayed, and the listing's size. */
  fixtureChildren: number;
  /** getLarge: the node's size, measured and warm-up gets. */
  largeBytes: number;
  largeOps: number;
  largeWarmup: number;
  /** children100k: measured and warm-up calls. */
  childrenCalls: number;
  childrenWarmup: number;
}

const PAYLOAD = new Uint8Array(100).fill(0x61);
const EMPTY = new Uint8Array(0);

async function prepare(s: BenchSession, path: string, data: Uint8Array = PAYLOAD): Promise<void> {
  await call((d) => s.create(path, data, d));
}

async function withSession<T>(ctx: WorkloadContext, body: (s: BenchSession) => Promise<T>): Promise<T> {
  const s = await ctx.client.connect(ctx.connectString);
  try {
    await prepare(s, ctx.base, EMPTY);
    return await body(s);
  } finally {
    await s.close();
  }
}

export function getPipelined(ctx: WorkloadContext): Promise<Metrics> {
  return withSession(ctx, async (s) => {
    const path = `${ctx.base}/get`;
    await prepare(s, path);
    const { window, getOps, getWarmup } = ctx.params;
    const issue = (_i: number, done: (e: Error | null) => void): void => s.getData(path, done);
    await pipeline(getWarmup, window, issue);
    const span = await measure(() => pipeline(getOps, window, issue));
    return {
      ops: getOps,
      opsPerSec: getOps / (span.ms / 1000),
      cpuUsPerOp: span.cpuUs / getOps,
      // The split shows how much is the kernel (socket reads and writes) and how much is JavaScript.
      userUsPerOp: span.userUs / getOps,
      systemUsPerOp: span.systemUs / getOps,
    };
  });
}

export function getSequential(ctx: WorkloadContext): Promise<Metrics> {
  return withSession(ctx, async (s) => {
    const path = `${ctx.base}/seq`;
    await prepare(s, path);
    const { seqOps, seqWarmup } = ctx.params;
    for (let i = 0; i < seqWarmup; i++) await call((d) => s.getData(path, d));
    const lat = new Float64Array(seqOps);
    const span = await measure(async () => {
      for (let i = 0; i < seqOps; i++) {
        const t0 = process.hrtime.bigint();
        await call((d) => s.getData(path, d));
        lat[i] = Number(process.hrtime.bigint() - t0) / 1000;
      }
    });
    lat.sort();
    return {
      ops: seqOps,
      opsPerSec: seqOps / (span.ms / 1000),
      p50Us: quantile(lat, 0.5),
      p99Us: quantile(lat, 0.99),
      cpuUsPerOp: span.cpuUs / seqOps,
    };
  });
}

export function createDelete(ctx: WorkloadContext): Promise<Metrics> {
  return withSession(ctx, async (s) => {
    const dir = `${ctx.base}/cd`;
    await prepare(s, dir);
    const { window, createDeletePairs, createDeleteWarmup } = ctx.params;
    // One unit = create a node, then delete it; up to `window` units in flight.
    const unit =
      (prefix: string) =>
      (i: number, done: (e: Error | null) => void): void => {
        const path = `${dir}/${prefix}${i}`;
        s.create(path, PAYLOAD, (e) => (e ? done(e) : s.delete(path, done)));
      };
    await pipeline(createDeleteWarmup, window, unit('w'));
    const span = await measure(() => pipeline(createDeletePairs, window, unit('n')));
    return {
      pairs: createDeletePairs,
      pairsPerSec: createDeletePairs / (span.ms / 1000),
      cpuUsPerPair: span.cpuUs / createDeletePairs,
    };
  });
}

export function watches(ctx: WorkloadContext): Promise<Metrics> {
  return withSession(ctx, async (s) => {
    const dir = `${ctx.base}/w`;
    const n = ctx.params.watches;
    await prepare(s, dir);
    await pipeline(n, ctx.params.window, (i, done) => s.create(`${dir}/n${i}`, PAYLOAD, done));
    let delivered = 0;
    const onEvent = (): void => {
      delivered++;
    };
    const heap0 = settledHeap();
    const rss0 = process.memoryUsage().rss;
    const set = await measure(() => pipeline(n, ctx.params.window, (i, done) => s.getDataWatch(`${dir}/n${i}`, onEvent, done)));
    const heap1 = settledHeap();
    // RSS also sees memory outside the JS heap (the native client keeps its watches in C); it is noisier.
    const rss1 = process.memoryUsage().rss;
    const changed = new Uint8Array([0x62]);
    const trigger = await measure(async () => {
      await pipeline(n, ctx.params.window, (i, done) => s.setData(`${dir}/n${i}`, changed, done));
      await until(() => delivered >= n, 60_000, `${n} watch events`);
    });
    return {
      watches: n,
      delivered,
      totalMs: set.ms + trigger.ms,
      setMs: set.ms,
      triggerMs: trigger.ms,
      heapBytes: heap1 - heap0,
      heapPerWatch: (heap1 - heap0) / n,
      rssBytes: rss1 - rss0,
      cpuUsPerWatch: (set.cpuUs + trigger.cpuUs) / n,
    };
  });
}

function lockOf(s: BenchSession, dir: string): BenchLock {
  if (!s.lock) throw new Error('this client has no lock implementation');
  return s.lock(dir);
}

export function mutexUncontended(ctx: WorkloadContext): Promise<Metrics> {
  return withSession(ctx, async (s) => {
    const dir = `${ctx.base}/lock`;
    await prepare(s, dir, EMPTY);
    const lock = lockOf(s, dir);
    const cycle = async (count: number): Promise<void> => {
      for (let i = 0; i < count; i++) {
        await lock.acquire();
        await lock.release();
      }
    };
    await cycle(ctx.params.lockWarmup);
    const span = await measure(() => cycle(ctx.params.lockCycles));
    return { cycles: ctx.params.lockCycles, cyclesPerSec: ctx.params.lockCycles / (span.ms / 1000), cpuUsPerCycle: span.cpuUs / ctx.params.lockCycles };
  });
}

interface Round {
  target: number;
  count: number;
  inside: boolean;
  overlaps: number;
  reachedAt: number;
  /** Warm-up rounds hold the lock across one event-loop turn to check exclusion; timed rounds don't. */
  check: boolean;
}

async function contender(lock: BenchLock, round: Round): Promise<void> {
  for (;;) {
    await lock.acquire();
    if (round.inside) round.overlaps++;
    round.inside = true;
    if (round.check) await new Promise<void>((r) => setImmediate(r));
    const n = ++round.count;
    if (n === round.target) round.reachedAt = performance.now();
    round.inside = false;
    await lock.release();
    if (n >= round.target) return;
  }
}

export function handoffs(ctx: WorkloadContext, contenders: number): Promise<Metrics> {
  return (async () => {
    const dir = `${ctx.base}/h${contenders}`;
    const sessions = await Promise.all(Array.from({ length: contenders }, () => ctx.client.connect(ctx.connectString)));
    try {
      const first = sessions[0];
      if (!first) throw new Error('no session');
      await prepare(first, ctx.base, EMPTY);
      await prepare(first, dir, EMPTY);
      const locks = sessions.map((s) => lockOf(s, dir));
      const run = async (target: number, check: boolean): Promise<Round & { cpuUs: number; ms: number }> => {
        const round: Round = { target, count: 0, inside: false, overlaps: 0, reachedAt: 0, check };
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        await Promise.all(locks.map((l) => contender(l, round)));
        const cpu = process.cpuUsage(cpu0);
        return { ...round, cpuUs: cpu.user + cpu.system, ms: round.reachedAt - t0 };
      };
      const warm = await run(Math.max(contenders * 4, 100), true);
      const timed = await run(ctx.params.handoffs, false);
      // Each acquisition after the first is one handoff from the previous holder.
      const handed = timed.target - 1;
      return {
        contenders,
        handoffs: handed,
        handoffsPerSec: handed / (timed.ms / 1000),
        cpuUsPerHandoff: timed.cpuUs / timed.count,
        overlapsInWarmup: warm.overlaps,
      };
    } finally {
      await Promise.all(sessions.map((s) => s.close()));
    }
  })();
}

export function waiters(ctx: WorkloadContext): Promise<Metrics> {
  return (async () => {
    const { waiters: w, waiterSessions } = ctx.params;
    const dir = `${ctx.base}/waiters`;
    const sessions = await Promise.all(Array.from({ length: waiterSessions }, () => ctx.client.connect(ctx.connectString)));
    try {
      const first = sessions[0];
      if (!first) throw new Error('no session');
      await prepare(first, ctx.base, EMPTY);
      await prepare(first, dir, EMPTY);
      const holder = lockOf(first, dir);
      await holder.acquire();
      const heap0 = settledHeap();
      let acquired = 0;
      let lastAt = 0;
      const queued: Promise<void>[] = [];
      for (let i = 0; i < w; i++) {
        const s = sessions[i % sessions.length];
        if (!s) throw new Error('no session');
        const lock = lockOf(s, dir);
        queued.push(
          lock.acquire().then(async () => {
            acquired++;
            lastAt = performance.now();
            await lock.release();
          }),
        );
      }
      await until(async () => (await first.countChildren(dir)) >= w + 1, 60_000, `${w} queued waiters`);
      // Let every waiter reach its watch (the node exists before the watch is set).
      await new Promise((r) => setTimeout(r, 300));
      const heap1 = settledHeap();
      const events0 = ctx.client.watchEventsDelivered();
      const t0 = performance.now();
      await holder.release();
      await Promise.all(queued);
      const events = ctx.client.watchEventsDelivered() - events0;
      return {
        waiters: w,
        sessions: waiterSessions,
        eventsPerHandoff: events / w,
        watchEvents: events,
        heapPerWaiter: (heap1 - heap0) / w,
        cascadeMs: lastAt - t0,
        handoffsPerSec: acquired / ((lastAt - t0) / 1000),
      };
    } finally {
      await Promise.all(sessions.map((s) => s.close()));
    }
  })();
}

export const WORKLOADS = {
  getPipelined,
  getSequential,
  createDelete,
  watches,
  mutexUncontended,
  handoffs8: (ctx: WorkloadContext) => handoffs(ctx, 8),
  handoffs32: (ctx: WorkloadContext) => handoffs(ctx, 32),
  waiters,
  sessions1k,
  watchReplay,
  getLarge,
  children100k,
  getPipelinedTracing,
} as const satisfies Record<string, (ctx: WorkloadContext) => Promise<Metrics>>;

export type WorkloadName = keyof typeof WORKLOADS;
/**
 * Not a per-client workload: every Node client in one child process, sequential getData taking turns
 * (interleaved.ts), so the scheduler's and the neighbours' noise falls on all of them alike.
 */
export const INTERLEAVED = 'getSequentialInterleaved';
export const DATA_WORKLOADS: readonly WorkloadName[] = ['getPipelined', 'getSequential', 'createDelete', 'watches'];
export const LOCK_WORKLOADS: readonly WorkloadName[] = ['mutexUncontended', 'handoffs8', 'handoffs32', 'waiters'];
/** The rows at scale (scale.ts). */
export const SCALE_WORKLOADS: readonly WorkloadName[] = ['sessions1k', 'watchReplay', 'getLarge', 'children100k'];
/** The cost of a client's diagnostics channels, A/B in one process (tracing.ts): zkts only. */
export const TRACING_WORKLOADS: readonly WorkloadName[] = ['getPipelinedTracing'];
/** Those that need the run's fixture node. */
export const FIXTURE_WORKLOADS: readonly WorkloadName[] = ['watchReplay', 'children100k'];
