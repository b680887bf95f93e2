// The cost of zkts's diagnostics channels on the hot path, measured A/B in ONE process so the machine's noise
// falls on both sides alike: pipelined getData (as getPipelined) with nobody subscribed (A: the client only
// tests `hasSubscribers`) and with a no-op subscriber on every channel the client publishes (B: a trace context
// per request, its five tracing events). Rounds alternate A B B A A B, each the full measured count after a
// warm-up of both paths; each side keeps its best round, and the JSON keeps every round.
import { measure, pipeline } from './measure.js';
import type { BenchSession } from './session.js';
import type { Metrics, WorkloadContext } from './workloads.js';

const PAYLOAD = new Uint8Array(100).fill(0x61);
const ORDER = ['bare', 'observed', 'observed', 'bare', 'bare', 'observed'] as const;

async function rounds(s: BenchSession, path: string, ctx: WorkloadContext, observe: () => () => void): Promise<Metrics> {
  const { window, getOps, getWarmup } = ctx.params;
  const issue = (_i: number, done: (e: Error | null) => void): void => s.getData(path, done);
  const run = async (side: 'bare' | 'observed', ops: number): Promise<{ cpuUsPerOp: number; opsPerSec: number }> => {
    const stop = side === 'observed' ? observe() : undefined;
    try {
      const span = await measure(() => pipeline(ops, window, issue));
      return { cpuUsPerOp: span.cpuUs / ops, opsPerSec: ops / (span.ms / 1000) };
    } finally {
      stop?.();
    }
  };
  await run('bare', getWarmup);
  await run('observed', getWarmup);
  const seen = { bare: [] as { cpuUsPerOp: number; opsPerSec: number }[], observed: [] as { cpuUsPerOp: number; opsPerSec: number }[] };
  for (const side of ORDER) seen[side].push(await run(side, getOps));
  const best = (side: 'bare' | 'observed'): { cpuUsPerOp: number; opsPerSec: number } =>
    seen[side].reduce((a, b) => (b.cpuUsPerOp < a.cpuUsPerOp ? b : a));
  const worst = (side: 'bare' | 'observed'): number => Math.max(...seen[side].map((r) => r.cpuUsPerOp));
  const bare = best('bare');
  const observed = best('observed');
  const metrics: Metrics = {
    ops: getOps,
    cpuUsPerOp: bare.cpuUsPerOp,
    cpuUsPerOpObserved: observed.cpuUsPerOp,
    overheadPct: (observed.cpuUsPerOp / bare.cpuUsPerOp - 1) * 100,
    opsPerSec: bare.opsPerSec,
    opsPerSecObserved: observed.opsPerSec,
    cpuUsPerOpWorst: worst('bare'),
    cpuUsPerOpObservedWorst: worst('observed'),
  };
  ORDER.forEach((side, i) => {
    const r = seen[side][ORDER.slice(0, i).filter((s2) => s2 === side).length];
    if (r) metrics[`round${i + 1}${side === 'bare' ? 'Bare' : 'Observed'}CpuUsPerOp`] = r.cpuUsPerOp;
  });
  return metrics;
}

/** getPipelinedTracing: only for a client that publishes diagnostics channels (zkts). */
export async function getPipelinedTracing(ctx: WorkloadContext): Promise<Metrics> {
  const observe = ctx.client.observe;
  if (observe === undefined) throw new Error(`${ctx.client.label} publishes no diagnostics channels`);
  const s = await ctx.client.connect(ctx.connectString);
  try {
    const create = (path: string, data: Uint8Array): Promise<void> =>
      new Promise((resolve, reject) => s.create(path, data, (e) => (e ? reject(e) : resolve())));
    await create(ctx.base, new Uint8Array(0));
    const path = `${ctx.base}/get`;
    await create(path, PAYLOAD);
    return await rounds(s, path, ctx, observe);
  } finally {
    await s.close();
  }
}
