// Micro-benchmark of the subscriber alone: synthetic zkts:request traces published the way the client publishes
// them (start through runStores, end, asyncStart, asyncEnd), no socket and no server, so the per-request cost of
// @zkts/opentelemetry (with the API's no-op providers, and with the real SDK) is measured without the network's
// noise. CPU µs per request from process.cpuUsage. Run: node --conditions=zkts-source --import tsx bench/profile/otel-micro.ts [rounds]
import { tracingChannel } from 'node:diagnostics_channel';

import { withOpenTelemetry } from '../clients/otel.js';

const channel = tracingChannel('zkts:request');
const N = Number(process.env.N ?? 200_000);

function publishOne(i: number): void {
  // What the client allocates and publishes per request when somebody listens.
  const ctx: Record<string, unknown> = {
    op: 'getData', path: '/bench-node', sessionId: 0x1000abcdn, xid: -1, server: undefined, bytesOut: 0, bytesIn: 0,
    attempt: 1, retried: false, ops: undefined, errorCode: undefined,
  };
  channel.start.runStores(ctx, () => {
    ctx.xid = i;
    ctx.server = '127.0.0.1:2181';
    ctx.bytesOut = 30;
  });
  channel.end.publish(ctx);
  ctx.bytesIn = 189;
  ctx.result = ctx;
  channel.asyncStart.publish(ctx);
  channel.asyncEnd.publish(ctx);
}

async function measure(): Promise<number> {
  for (let i = 0; i < 20_000; i++) publishOne(i);
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    publishOne(i);
    // Let the batch processor's timers and the GC run as they would between replies.
    if (i % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
  }
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / N;
}

const rounds = Number(process.argv[2] ?? 5);
const results: Record<string, number[]> = { none: [], otelapi: [], otel: [] };
for (let r = 0; r < rounds; r++) {
  for (const variant of ['none', 'otelapi', 'otel'] as const) {
    const stop = variant === 'none' ? async () => undefined : withOpenTelemetry({ sdk: variant === 'otel' });
    results[variant]?.push(await measure());
    await stop();
  }
}
for (const [variant, us] of Object.entries(results)) {
  const sorted = [...us].sort((a, b) => a - b);
  console.log(`${variant.padEnd(8)} median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(2)} µs/request (${sorted.map((u) => u.toFixed(2)).join(' ')})`);
}
