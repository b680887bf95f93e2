// What each connect allocates, garbage included: V8's sampling heap profiler over N connects (100 in flight, as
// sessions1k opens them), keeping the samples of objects the minor and major GCs collected, summed per
// allocating function (PARENT=1: per caller > function) and divided by N. What a handshake holds while others
// run is copied by each scavenge meanwhile, and that survival is what grows V8's young generation (RSS).
//
//   node bench/.build/profile/connect-alloc.js <A|B|nzk|path to a dist/index.js> [host:port] [n=1000] [top=30]
//
// Builds as in idle-memory.ts (ZKTS_A / ZKTS_B); the server: the argument, else ZKTS_SERVER, else 127.0.0.1:2181.
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { client as nzk } from '../clients/nzk.js';
import { otherBuild } from './other-build.js';

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  callFrame: Frame;
  selfSize: number;
  children: ProfileNode[];
}

type Closable = { close: () => Promise<unknown> };

const HERE = join(fileURLToPath(import.meta.url), '..');

async function opener(name: string): Promise<(cs: string) => Promise<Closable>> {
  if (name === 'nzk') return (cs) => nzk.connect(cs);
  const path =
    name === 'A'
      ? otherBuild('ZKTS_A', "@zkts/protocol's dist/index.js")
      : name === 'B'
        ? (process.env['ZKTS_B'] ?? join(HERE, '../../../packages/protocol/dist/index.js'))
        : name;
  const mod = (await import(pathToFileURL(path).href)) as { connect: (cs: string, o: object) => Promise<Closable> };
  return (cs) => mod.connect(cs, { sessionTimeout: 30_000 });
}

const label = (f: Frame): string => `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;

const [name = 'B', csArg, nArg, topArg] = process.argv.slice(2);
const cs = csArg ?? process.env['ZKTS_SERVER'] ?? '127.0.0.1:2181';
const n = Number(nArg ?? 1000);
const open = await opener(name);
// One session first: module-level caches and compiled code are not charged to the connects.
await (await open(cs)).close();
const inspector = new Session();
inspector.connect();
await inspector.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
const sessions: Closable[] = [];
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(100, n) }, async () => {
    while (next < n) {
      next++;
      sessions.push(await open(cs));
    }
  }),
);
const { profile } = (await inspector.post('HeapProfiler.stopSampling')) as { profile: { head: ProfileNode } };
const bytes = new Map<string, number>();
let total = 0;
const walk = (node: ProfileNode, parent: string): void => {
  const key = process.env['PARENT'] === '1' ? `${parent} > ${label(node.callFrame)}` : label(node.callFrame);
  total += node.selfSize;
  bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
  for (const child of node.children) walk(child, label(node.callFrame));
};
walk(profile.head, '');
console.log(`${name}: allocated per connect (sampled) ${(total / n).toFixed(0)} B`);
for (const [key, b] of [...bytes].sort((x, y) => y[1] - x[1]).slice(0, Number(topArg ?? 30))) console.log(`${(b / n).toFixed(0).padStart(7)}  ${key}`);
for (const s of sessions) await s.close();
process.exit(0);
