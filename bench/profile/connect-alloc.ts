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
import { printAllocations } from './alloc-profile.js';
import { otherBuild } from './other-build.js';

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

const [name = 'B', csArg, nArg, topArg] = process.argv.slice(2);
const cs = csArg ?? process.env['ZKTS_SERVER'] ?? '127.0.0.1:2181';
const n = Number(nArg ?? 1000);
const open = await opener(name);
// One session first: module-level caches and compiled code are not charged to the connects.
await (await open(cs)).close();
const inspector = new Session();
inspector.connect();
const sessions: Closable[] = [];
let next = 0;
const connectAll = async (): Promise<void> => {
  await Promise.all(
    Array.from({ length: Math.min(100, n) }, async () => {
      while (next < n) {
        next++;
        sessions.push(await open(cs));
      }
    }),
  );
};
await printAllocations(inspector, connectAll, n, `${name}: allocated per connect (sampled)`, Number(topArg ?? 30));
for (const s of sessions) await s.close();
process.exit(0);
