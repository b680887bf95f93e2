// A zkts Mutex contender in its own Node process: acquire, hold, release <grants> times; after each grant prints
// "write <who> <t0> <t1>" (process.hrtime, CLOCK_MONOTONIC, as the Java and Python contenders), then DONE.
//   node --conditions=zkts-source --import tsx mutex-loop.ts <connectString> <dir> <who> <grants> <holdMs>
import { connect } from '@zkts/protocol';

import { Mutex } from '@zkts/recipes';

const [connectString, dir, who, grants, holdMs] = process.argv.slice(2);
if (connectString === undefined || dir === undefined || who === undefined) throw new Error('usage: mutex-loop.ts <cs> <dir> <who> <grants> <holdMs>');
const client = await connect(connectString, { sessionTimeout: 10_000 });
const mutex = new Mutex(client, dir);
for (let i = 0; i < Number(grants ?? 10); i++) {
  const lease = await mutex.acquire({ timeout: 60_000 });
  const t0 = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, Number(holdMs ?? 3)));
  const t1 = process.hrtime.bigint();
  await lease.release();
  process.stdout.write(`write ${who} ${t0} ${t1}\n`);
}
await client.close();
process.stdout.write('DONE\n');
