// What each pipelined getData allocates, garbage included: V8's sampling heap profiler over N gets (1,000 in
// flight, as the bench's pipelined row keeps them) after a warm-up, summed per allocating function (PARENT=1: per
// caller > function) and divided by N. Allocation is what a loaded machine does not blur: every byte is work for
// the allocator and the scavenger, so it is where the client's CPU per request is cut without a quiet machine.
//
//   node bench/.build/profile/get-alloc.js <zkts|A|raw|nzk> [host:port] [n=50000] [top=30]
//   CPU=1: self time per function over the same gets instead (the inspector's sampling CPU profiler)
//
// `zkts` is this checkout's build, `A` the one ZKTS_A names (a dist/index.js), `raw` the bench's bare socket,
// `nzk` node-zookeeper-client. The server: the argument, else ZKTS_SERVER, else 127.0.0.1:2181
// (bench/profile/server.ts starts the bench's server and prints it).
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { client as nzk } from '../clients/nzk.js';
import { client as raw } from '../clients/raw.js';
import type { Done } from '../harness/session.js';
import { label, printAllocations, type Frame } from './alloc-profile.js';
import { otherBuild } from './other-build.js';

interface CpuProfile {
  nodes: { id: number; callFrame: Frame; children?: number[] }[];
  samples: number[];
}
interface Getter {
  get(path: string, done: Done): void;
  close(): Promise<unknown>;
}
interface ZktsModule {
  connect(cs: string, o: object): Promise<{ getData(path: string): Promise<unknown>; create(path: string, data: Uint8Array): Promise<unknown>; close(): Promise<unknown> }>;
}

const HERE = join(fileURLToPath(import.meta.url), '..');
const PATH = '/bench-get-alloc';

async function open(name: string, cs: string): Promise<Getter> {
  if (name === 'raw' || name === 'nzk') {
    const s = await (name === 'raw' ? raw : nzk).connect(cs);
    return { get: (p, done) => s.getData(p, done), close: () => s.close() };
  }
  const path = name === 'A' ? otherBuild('ZKTS_A', "@zkts/protocol's dist/index.js") : join(HERE, '../../../packages/protocol/dist/index.js');
  const mod = (await import(pathToFileURL(path).href)) as ZktsModule;
  const c = await mod.connect(cs, { sessionTimeout: 30_000 });
  await c.create(PATH, new Uint8Array(100)).catch(() => undefined);
  // One settle function per `done`, as the bench's zkts client keeps it: the driver's cost is not the client's.
  let lastDone: Done | undefined;
  let ok: (() => void) | undefined;
  return {
    get: (p, done) => {
      if (done !== lastDone) {
        lastDone = done;
        ok = () => done(null);
      }
      void c.getData(p).then(ok, done);
    },
    close: () => c.close(),
  };
}

function pipelined(s: Getter, n: number, window: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = 0;
    const done: Done = (e) => {
      if (e) return reject(e instanceof Error ? e : new Error(String(e)));
      answered++;
      if (answered === n) return resolve();
      if (sent < n) {
        sent++;
        s.get(PATH, done);
      }
    };
    for (; sent < Math.min(window, n); sent++) s.get(PATH, done);
  });
}

const [name = 'zkts', csArg, nArg, topArg] = process.argv.slice(2);
const cs = csArg ?? process.env['ZKTS_SERVER'] ?? '127.0.0.1:2181';
const n = Number(nArg ?? 50_000);
// The node, made by this checkout's client (it creates it on open) whichever client is measured.
await (await open('zkts', cs)).close();
const s = await open(name, cs);
await pipelined(s, 20_000, 1000);
const inspector = new Session();
inspector.connect();
if (process.env['CPU'] === '1') {
  // Where the time goes instead: self time per function over the same N gets (shares hold on a busy machine).
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.setSamplingInterval', { interval: 100 });
  await inspector.post('Profiler.start');
  await pipelined(s, n, 1000);
  const { profile } = (await inspector.post('Profiler.stop')) as { profile: CpuProfile };
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  // PARENT=1: keyed by caller > function, as the allocation listing does.
  const parentOf = new Map<number, Frame>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.callFrame);
  const key = (id: number, frame: Frame): string => {
    const parent = parentOf.get(id);
    return process.env['PARENT'] === '1' && parent !== undefined ? `${label(parent)} > ${label(frame)}` : label(frame);
  };
  for (const id of profile.samples) {
    const node = byId.get(id);
    if (node !== undefined) self.set(key(id, node.callFrame), (self.get(key(id, node.callFrame)) ?? 0) + 1);
  }
  // Shares of the busy samples: the process mostly waits for the server, and the wait says nothing of the client.
  let idle = 0;
  for (const [k, count] of self) {
    if (k.startsWith('(idle)') || k.includes('> (idle)')) {
      idle += count;
      self.delete(k);
    }
  }
  const samples = profile.samples.length - idle;
  console.log(`${name}: ${samples} busy samples (${idle} idle) over ${n} gets`);
  for (const [key, count] of [...self].sort((x, y) => y[1] - x[1]).slice(0, Number(topArg ?? 30))) console.log(`${((100 * count) / samples).toFixed(1).padStart(6)}%  ${key}`);
  await s.close();
  process.exit(0);
}
await printAllocations(inspector, () => pipelined(s, n, 1000), n, `${name}: allocated per pipelined get (sampled)`, Number(topArg ?? 30));
await s.close();
process.exit(0);
