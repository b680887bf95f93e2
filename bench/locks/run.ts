// Stand-alone lock benchmark: starts a ZooKeeper with the bench's options (harness/server.ts) unless ZKTS_SERVER
// is set, then prints uncontended cycles/s and handoffs/s with 8 and 32 contenders for zkts's Mutex. Writes
// nothing.
//
//   node --conditions=zkts-source --import tsx bench/locks/run.ts [--cycles 2000] [--handoffs 2000]
import { parseArgs } from 'node:util';

import { connect, type ZkClient } from '@zkts/protocol';

import { benchServer } from '../harness/server.js';
import { handoffs, uncontendedCycles } from './locks.js';

const { values } = parseArgs({ options: { cycles: { type: 'string', default: '2000' }, handoffs: { type: 'string', default: '2000' } } });
const server = await benchServer();
const { connectString } = server;
const base = `/bench-locks-${process.pid}`;
try {
  const one = await connect(connectString);
  const u = await uncontendedCycles(one, `${base}/u`, Number(values.cycles));
  console.log(`uncontended: ${u.cyclesPerSec.toFixed(0)} cycles/s (${u.cycles} cycles, ${u.ms.toFixed(0)} ms)`);
  await one.close();
  for (const n of [8, 32]) {
    const clients: ZkClient[] = await Promise.all(Array.from({ length: n }, () => connect(connectString)));
    const h = await handoffs(clients, `${base}/h${n}`, Number(values.handoffs));
    console.log(
      `${n} contenders: ${h.handoffsPerSec.toFixed(0)} handoffs/s (${h.handoffs} handoffs, overlaps ${h.overlaps}, wakeups/handoff ${h.wakeupsPerHandoff.toFixed(2)})`,
    );
    await Promise.all(clients.map((c) => c.close()));
  }
} finally {
  await server.stop();
}
