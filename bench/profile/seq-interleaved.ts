// Sequential getData latency, raw socket and one or two zkts builds in ONE process taking turns request by
// request (as the bench's interleaved row does), with the CPU each spends per get measured in separate loops.
// Run: ZKTS_A=<dist/index.js> [ZKTS_B=<dist/index.js>] node --import tsx bench/profile/seq-interleaved.ts [requests]
// against ZKTS_SERVER (host:port).
import { client as raw } from '../clients/raw.js';
import type { BenchSession, Done } from '../harness/session.js';
import { seededShuffle } from '../harness/interleaved.js';
import { quantile } from '../harness/measure.js';
import { otherBuild } from './other-build.js';

interface ZktsModule {
  connect(cs: string, o: object): Promise<{ getData(path: string): Promise<unknown>; create(path: string, data: Uint8Array): Promise<unknown>; close(): Promise<unknown> }>;
}
interface Getter {
  id: string;
  get(path: string, done: Done): void;
  close(): Promise<unknown>;
}

const cs = process.env['ZKTS_SERVER'];
if (cs === undefined) throw new Error('ZKTS_SERVER=host:port names the server (bench/profile/server.ts starts one)');
const PATH = '/bench-seq-interleaved';

async function zkts(id: string, variable: string): Promise<Getter> {
  const mod = (await import(otherBuild(variable, "@zkts/protocol's dist/index.js"))) as ZktsModule;
  const c = await mod.connect(cs as string, { sessionTimeout: 30_000 });
  await c.create(PATH, new Uint8Array(100).fill(0x61)).catch(() => undefined);
  return { id, get: (p, done) => void c.getData(p).then(() => done(null), done), close: () => c.close() };
}

const getters: Getter[] = [await zkts('a', 'ZKTS_A')];
if (process.env['ZKTS_B'] !== undefined) getters.push(await zkts('b', 'ZKTS_B'));
const rawSession: BenchSession = await raw.connect(cs);
getters.push({ id: 'raw', get: (p, done) => rawSession.getData(p, done), close: () => rawSession.close() });

const once = (g: Getter): Promise<void> => new Promise((resolve, reject) => g.get(PATH, (e) => (e ? reject(e) : resolve())));
const n = Number(process.argv[2] ?? 20_000);
for (const g of getters) for (let i = 0; i < 2_000; i++) await once(g);
const lat = new Map(getters.map((g) => [g.id, new Float64Array(n)]));
const shuffle = seededShuffle();
const order = [...getters];
for (let round = 0; round < n; round++) {
  shuffle(order);
  for (const g of order) {
    const t0 = process.hrtime.bigint();
    await once(g);
    lat.get(g.id)![round] = Number(process.hrtime.bigint() - t0) / 1000;
  }
}
const cpu = new Map<string, number>();
for (const g of getters) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < 5_000; i++) await once(g);
  const c = process.cpuUsage(c0);
  cpu.set(g.id, (c.user + c.system) / 5_000);
}
const rawP50 = quantile(lat.get('raw')!.sort(), 0.5);
for (const g of getters) {
  const l = lat.get(g.id)!.sort();
  const p50 = quantile(l, 0.5);
  console.log(`${g.id.padEnd(4)} p10 ${quantile(l, 0.1).toFixed(1)} p50 ${p50.toFixed(1)} µs (${(p50 / rawP50).toFixed(3)}× raw) p99 ${quantile(l, 0.99).toFixed(1)} | cpu ${cpu.get(g.id)!.toFixed(1)} µs/get`);
}
for (const g of getters) await g.close();
process.exit(0);
