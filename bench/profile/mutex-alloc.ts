// What one uncontended Mutex cycle (acquire + release) allocates, garbage included, beside the same requests
// made bare (create EPHEMERAL_SEQUENTIAL with getChildren, then delete): V8's sampling heap profiler over N
// cycles after a warm-up, against the in-process stand-in server (fake-zk.ts), summed per allocating function
// (PARENT=1: per caller > function) and divided by N.
//
//   node bench/.build/profile/mutex-alloc.js <mutex|bare> [n=20000] [top=30]
import { Session } from 'node:inspector/promises';

import { connect } from '@zkts/protocol';
import { Mutex } from '@zkts/recipes';

import { printAllocations } from './alloc-profile.js';
import { fakeZooKeeper } from './fake-zk.js';
import { bareCycles, lockCycles } from './lock-cycles.js';

async function main(): Promise<void> {
  const [what = 'mutex', nArg = '20000', topArg = '30'] = process.argv.slice(2);
  const n = Number(nArg);
  const server = await fakeZooKeeper();
  const client = await connect(server.connectString);
  const dir = '/alloc-lock';
  await client.create(dir).catch(() => undefined);
  const mutex = new Mutex(client, dir);
  const run = (count: number): Promise<void> => (what === 'bare' ? bareCycles(client, dir, count) : lockCycles(mutex, count));
  await run(5000);
  const inspector = new Session();
  inspector.connect();
  await printAllocations(inspector, () => run(n), n, `${what}: allocated per cycle`, Number(topArg));
  inspector.disconnect();
  await client.close();
  server.close();
}

await main();
