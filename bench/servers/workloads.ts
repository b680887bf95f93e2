// The server rows' workloads that the harness's list lacks: pipelined getData and create+delete spread over 32
// connections (one session each) at the same total window as the one-connection rows. Run by the harness's
// child (child.ts) with the zkts client, like every other workload.
import { measure, pipeline } from '../harness/measure.js';
import { call } from '../harness/session.js';
import type { BenchSession } from '../harness/session.js';
import type { Metrics, WorkloadContext } from '../harness/workloads.js';

const PAYLOAD = new Uint8Array(100).fill(0x61);
export const CONNECTIONS = 32;

async function withSessions<T>(ctx: WorkloadContext, body: (sessions: BenchSession[]) => Promise<T>): Promise<T> {
  const sessions = await Promise.all(Array.from({ length: CONNECTIONS }, () => ctx.client.connect(ctx.connectString)));
  try {
    await call((d) => (sessions[0] as BenchSession).create(ctx.base, new Uint8Array(0), d));
    return await body(sessions);
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
}

/** `total` operations over every session at once, each with its share of the window. */
function spread(sessions: readonly BenchSession[], total: number, window: number, issue: (s: BenchSession, n: number, i: number, done: (e: Error | null) => void) => void): Promise<void> {
  const share = Math.ceil(total / sessions.length);
  const perWindow = Math.max(1, Math.ceil(window / sessions.length));
  return Promise.all(sessions.map((s, n) => pipeline(share, perWindow, (i, done) => issue(s, n, i, done)))).then(() => undefined);
}

export function getPipelined32(ctx: WorkloadContext): Promise<Metrics> {
  return withSessions(ctx, async (sessions) => {
    const path = `${ctx.base}/get`;
    await call((d) => (sessions[0] as BenchSession).create(path, PAYLOAD, d));
    const { window, getOps, getWarmup } = ctx.params;
    const issue = (s: BenchSession, _n: number, _i: number, done: (e: Error | null) => void): void => s.getData(path, done);
    await spread(sessions, getWarmup, window, issue);
    const ops = Math.ceil(getOps / CONNECTIONS) * CONNECTIONS;
    const span = await measure(() => spread(sessions, ops, window, issue));
    return { ops, opsPerSec: ops / (span.ms / 1000), cpuUsPerOp: span.cpuUs / ops };
  });
}

export function createDelete32(ctx: WorkloadContext): Promise<Metrics> {
  return withSessions(ctx, async (sessions) => {
    const dir = `${ctx.base}/cd`;
    await call((d) => (sessions[0] as BenchSession).create(dir, new Uint8Array(0), d));
    const { window, createDeletePairs, createDeleteWarmup } = ctx.params;
    const unit =
      (prefix: string) =>
      (s: BenchSession, n: number, i: number, done: (e: Error | null) => void): void => {
        const path = `${dir}/${prefix}${n}-${i}`;
        s.create(path, PAYLOAD, (e) => (e ? done(e) : s.delete(path, done)));
      };
    await spread(sessions, createDeleteWarmup, window, unit('w'));
    const pairs = Math.ceil(createDeletePairs / CONNECTIONS) * CONNECTIONS;
    const span = await measure(() => spread(sessions, pairs, window, unit('n')));
    return { pairs, pairsPerSec: pairs / (span.ms / 1000), cpuUsPerPair: span.cpuUs / pairs };
  });
}

export const SERVER_WORKLOADS = { getPipelined32, createDelete32 } as const satisfies Record<string, (ctx: WorkloadContext) => Promise<Metrics>>;
export type ServerWorkloadName = keyof typeof SERVER_WORKLOADS;
