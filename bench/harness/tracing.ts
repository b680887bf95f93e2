// The cost of zkts's diagnostics channels on the hot path, measured A/B in ONE process so the machine's noise
// falls on both sides alike: pipelined getData (as getPipelined) with nobody subscribed (A: the client only
// tests `hasSubscribers`) and with a no-op subscriber on every channel the client publishes (B: a trace context
// per request, its five tracing events); for a client that has it, a third side C with @zkts/opentelemetry and
// the OpenTelemetry SDK listening (a span and a histogram point per request). Rounds alternate A B B A A B (A B C
// C B A A B C with the third side), each the full measured count after a warm-up of every side; each side keeps
// its best round, and the JSON keeps every round.
import { measure, pipeline } from './measure.js';
import type { BenchSession } from './session.js';
import type { Metrics, WorkloadContext } from './workloads.js';

const PAYLOAD = new Uint8Array(100).fill(0x61);
type Side = 'bare' | 'observed' | 'otel';
const ORDER: readonly Side[] = ['bare', 'observed', 'observed', 'bare', 'bare', 'observed'];
const ORDER_WITH_OTEL: readonly Side[] = ['bare', 'observed', 'otel', 'otel', 'observed', 'bare', 'bare', 'observed', 'otel'];
const CAPITALIZED: Record<Side, string> = { bare: 'Bare', observed: 'Observed', otel: 'Otel' };

interface Round {
  cpuUsPerOp: number;
  opsPerSec: number;
}

async function rounds(
  s: BenchSession,
  path: string,
  ctx: WorkloadContext,
  observe: () => () => void,
  instrument: (() => Promise<() => Promise<void>>) | undefined,
): Promise<Metrics> {
  const { window, getOps, getWarmup } = ctx.params;
  const issue = (_i: number, done: (e: Error | null) => void): void => s.getData(path, done);
  const run = async (side: Side, ops: number): Promise<Round> => {
    let stop: () => void | Promise<void> = () => undefined;
    if (side === 'observed') stop = observe();
    if (side === 'otel' && instrument !== undefined) stop = await instrument();
    try {
      const span = await measure(() => pipeline(ops, window, issue));
      return { cpuUsPerOp: span.cpuUs / ops, opsPerSec: ops / (span.ms / 1000) };
    } finally {
      await stop();
    }
  };
  const order = instrument === undefined ? ORDER : ORDER_WITH_OTEL;
  const sides = [...new Set(order)];
  for (const side of sides) await run(side, getWarmup);
  const seen: Record<Side, Round[]> = { bare: [], observed: [], otel: [] };
  for (const side of order) seen[side].push(await run(side, getOps));
  const best = (side: Side): Round => seen[side].reduce((a, b) => (b.cpuUsPerOp < a.cpuUsPerOp ? b : a));
  const worst = (side: Side): number => Math.max(...seen[side].map((r) => r.cpuUsPerOp));
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
  if (instrument !== undefined) {
    const otel = best('otel');
    metrics.cpuUsPerOpOtel = otel.cpuUsPerOp;
    metrics.otelOverheadPct = (otel.cpuUsPerOp / bare.cpuUsPerOp - 1) * 100;
    metrics.opsPerSecOtel = otel.opsPerSec;
    metrics.cpuUsPerOpOtelWorst = worst('otel');
  }
  order.forEach((side, i) => {
    const r = seen[side][order.slice(0, i).filter((s2) => s2 === side).length];
    if (r) metrics[`round${i + 1}${CAPITALIZED[side]}CpuUsPerOp`] = r.cpuUsPerOp;
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
    return await rounds(s, path, ctx, observe, ctx.client.instrument);
  } finally {
    await s.close();
  }
}
