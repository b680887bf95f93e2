// Hot-path driver: getData pipelined (window 1000) and sequential, zkts vs node-zookeeper-client, same server,
// same process, alternating. CPU µs/op from process.cpuUsage (user+system), ops/s from wall time. The `sub`,
// `otelapi` and `otel` clients are zkts with someone listening to zkts:request during their rounds: a subscriber
// that does nothing, @zkts/opentelemetry on the API's no-op providers, and on the real SDK exporting nowhere.
// Run: node --conditions=zkts-source --import tsx bench/profile/get-pipelined.ts [rounds] [only=zkts|sub|otelapi|otel|nzk]
// Starts a server with the bench's options (harness/server.ts); ZKTS_SERVER=host:port to reuse a running one.
import { tracingChannel } from 'node:diagnostics_channel';

import nzk from 'node-zookeeper-client';
import * as zktsSource from '@zkts/protocol';

import { benchServer } from '../harness/server.js';
import { withOpenTelemetry } from '../clients/otel.js';

type Done = (err: unknown) => void;
interface S { get(path: string, done: Done): void; close(): Promise<void> }

// ZKTS_A=/path/to/dist/index.js ZKTS_B=…: A/B two builds of the client (clients 'a' and 'b') instead of zkts.
type Mod = typeof zktsSource;
const builds: [string, Mod][] = [];
if (process.env.ZKTS_A) builds.push(['a', (await import(process.env.ZKTS_A)) as Mod]);
if (process.env.ZKTS_B) builds.push(['b', (await import(process.env.ZKTS_B)) as Mod]);
const connect = zktsSource.connect;

const zktsWith = (mod: Mod) => async (cs: string): Promise<S> => {
  const c = await mod.connect(cs, { sessionTimeout: 30_000 });
  const ok = (done: Done) => () => done(null);
  let lastD: Done | undefined; let lastOk: (() => void) | undefined;
  return {
    get: (p, done) => { if (done !== lastD) { lastD = done; lastOk = ok(done); } void c.getData(p).then(lastOk, done); },
    close: async () => { await c.close(); },
  };
};
const zkts = zktsWith(zktsSource);
// zkts with the OpenTelemetry package listening from before the warm-up until the client is closed: with the
// real SDK (otel), or with the API's no-op providers (otelapi: the package's subscribers alone).
// zkts with a subscriber that does nothing (sub): what the client's own publishing costs once anyone listens.
async function zktsSubscribed(cs: string): Promise<S> {
  const nothing = (): void => undefined;
  const handlers = { start: nothing, end: nothing, asyncStart: nothing, asyncEnd: nothing, error: nothing };
  const channel = tracingChannel('zkts:request');
  channel.subscribe(handlers);
  const s = await zkts(cs);
  return { get: s.get, close: async () => { await s.close(); channel.unsubscribe(handlers); } };
}
const zktsOtel = (sdk: boolean) => async (cs: string): Promise<S> => {
  const stop = withOpenTelemetry({ sdk });
  const s = await zkts(cs);
  return { get: s.get, close: async () => { await s.close(); await stop(); } };
};
async function nzc(cs: string): Promise<S> {
  const c = nzk.createClient(cs, { sessionTimeout: 30_000, retries: 0 });
  await new Promise<void>((r) => { c.once('connected', () => r()); c.connect(); });
  return { get: (p, done) => c.getData(p, done), close: async () => { c.close(); } };
}

function pipelined(s: S, n: number, window: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let sent = 0, doneN = 0;
    const done: Done = (e) => {
      if (e) return reject(e);
      doneN++;
      if (doneN === n) return resolve();
      if (sent < n) { sent++; s.get('/bench-node', done); }
    };
    for (; sent < Math.min(window, n); ) { sent++; s.get('/bench-node', done); }
  });
}
async function sequential(s: S, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((res, rej) => s.get('/bench-node', (e) => (e ? rej(e) : res())));
}
async function measure(fn: () => Promise<void>, n: number): Promise<{ us: number; ops: number }> {
  const c0 = process.cpuUsage(); const t0 = process.hrtime.bigint();
  await fn();
  const t = Number(process.hrtime.bigint() - t0) / 1e9; const c = process.cpuUsage(c0);
  return { us: (c.user + c.system) / n, ops: n / t };
}

const rounds = Number(process.argv[2] ?? 3);
const only = process.argv[3];
const server = await benchServer();
const cs = server.connectString;
console.error('server', cs);
{
  const c = await connect(cs);
  await c.create('/bench-node', new Uint8Array(100)).catch(() => undefined);
  await c.close();
}
const clients: [string, (cs: string) => Promise<S>][] =
  builds.length > 0 ? [...builds.map(([n, m]): [string, (cs: string) => Promise<S>] => [n, zktsWith(m)]), ['nzk', nzc]] : [['zkts', zkts], ['sub', zktsSubscribed], ['otelapi', zktsOtel(false)], ['otel', zktsOtel(true)], ['nzk', nzc]];
const N = Number(process.env.N ?? 50_000), SEQ = Number(process.env.SEQ ?? 2000);
for (let r = 0; r < rounds; r++) {
  for (const [name, mk] of r % 2 ? [...clients].reverse() : clients) {
    if (only && only !== name) continue;
    const s = await mk(cs);
    await pipelined(s, 15_000, 1000);
    const p = await measure(() => pipelined(s, N, 1000), N);
    await sequential(s, 300);
    const q = await measure(() => sequential(s, SEQ), SEQ);
    console.log(`${name.padEnd(7)} pipelined ${p.us.toFixed(1).padStart(6)} µs/op ${Math.round(p.ops).toString().padStart(7)} ops/s | sequential ${q.us.toFixed(1).padStart(6)} µs/op ${Math.round(q.ops).toString().padStart(6)} ops/s`);
    await s.close();
  }
}
await server.stop();
process.exit(0);
