// Where zkts's sequential round trip stands against the raw socket, measured so that the machine's noise cancels:
// every client in ONE process, sequential getData in alternating batches, medians of per-batch CPU and wall time
// per op. Against a real server a round trip is bimodal (client and server on one core or two) and a single
// pass lands in either mode; run against `--fake` (an in-process server that answers getData at once) the
// difference is the clients' own JavaScript, to a tenth of a microsecond.
//
//   node bench/.build/profile/floor.js [--fake | host:port] [ops=60000] [batch=500]
//   ZKTS_A=/path/to/a/dist/index.js ZKTS_B=…   compare two builds of @zkts/protocol (and the raw socket)
//
// Compiled with the bench's child (bench/tsconfig.child.json) and run on plain node, like the bench children.
// Pin it (taskset -c 0) for the steadiest figures; with a real server, pin the server's JVM to the same core to
// measure the single-core mode.

import * as shipped from '@zkts/protocol';

import { client as raw } from '../clients/raw.js';
import type { BenchClient, BenchSession } from '../harness/session.js';
import { call } from '../harness/session.js';
import { fakeZooKeeper } from './fake-zk.js';
import { successOf, unused } from './other-build.js';

type Protocol = typeof shipped;

/** The bench's zkts runner over any build of the package (the harness's own adapter: one `.then` per call). */
function zktsOver(mod: Protocol, id: string): BenchClient {
  const ok = successOf();
  return {
    id,
    label: id,
    watchEventsDelivered: () => 0,
    connect: async (cs) => {
      const c = await mod.connect(cs, { sessionTimeout: 30_000 });
      const s: BenchSession = {
        getData: (path, done) => void c.getData(path).then(ok(done), done),
        create: (path, data, done) => void c.create(path, data).then(ok(done), done),
        close: async () => { await c.close(); },
        getDataWatch: unused,
        setData: unused,
        delete: unused,
        getDataBytes: unused,
        getChildrenList: unused,
        countChildren: unused,
      };
      return s;
    },
  };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const fake = args.includes('--fake') ? await fakeZooKeeper() : undefined;
  const connectString = fake?.connectString ?? args.find((a) => a.includes(':')) ?? '127.0.0.1:2181';
  const num = (key: string, dflt: number): number => Number(args.find((a) => a.startsWith(`${key}=`))?.slice(key.length + 1) ?? dflt);
  const ops = num('ops', 60_000);
  const batch = num('batch', 500);
  const clients: BenchClient[] = [];
  for (const key of ['ZKTS_A', 'ZKTS_B'] as const) {
    const path = process.env[key];
    if (path) clients.push(zktsOver((await import(path)) as Protocol, key === 'ZKTS_A' ? 'zkts A' : 'zkts B'));
  }
  if (clients.length === 0) clients.push(zktsOver(shipped, 'zkts'));
  clients.push(raw);

  const runs: { id: string; s: BenchSession; path: string; cpu: number[]; wall: number[] }[] = [];
  for (const c of clients) {
    const s = await c.connect(connectString);
    const path = `/floor-${c.id.replace(/\W/g, '')}-${process.pid}`;
    await call((d) => s.create(path, new Uint8Array(100), d));
    for (let i = 0; i < 5000; i++) await call((d) => s.getData(path, d));
    runs.push({ id: c.id, s, path, cpu: [], wall: [] });
  }
  for (let done = 0; done < ops; done += batch) {
    for (const r of (done / batch) % 2 === 0 ? runs : [...runs].reverse()) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < batch; i++) await call((d) => r.s.getData(r.path, d));
      const c = process.cpuUsage(c0);
      r.wall.push(((performance.now() - t0) * 1000) / batch);
      r.cpu.push((c.user + c.system) / batch);
    }
  }
  const base = runs[runs.length - 1];
  for (const r of runs) {
    const dCpu = base ? median(r.cpu.map((v, i) => v - (base.cpu[i] ?? Number.NaN))) : Number.NaN;
    const dWall = base ? median(r.wall.map((v, i) => v - (base.wall[i] ?? Number.NaN))) : Number.NaN;
    process.stdout.write(
      `${r.id.padEnd(8)} wall ${median(r.wall).toFixed(2)} µs/op  cpu ${median(r.cpu).toFixed(2)} µs/op  vs raw: wall ${dWall >= 0 ? '+' : ''}${dWall.toFixed(2)}, cpu ${dCpu >= 0 ? '+' : ''}${dCpu.toFixed(2)} µs/op\n`,
    );
  }
  for (const r of runs) await r.s.close();
  fake?.close();
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
