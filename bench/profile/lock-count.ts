// Uncontended lock cycles (acquire + release of a Mutex, or the same requests bare: lock-cycles.ts) in a process
// meant to run under valgrind, whose instruction counts a loaded machine does not change. It makes WARM
// unmeasured cycles, then N, then exits without closing: the same process with two values of N, minus each
// other, is the instructions per cycle of a warm client (JIT, GC and V8's helper threads included).
// Run: ZKTS_SERVER=host:port node bench/.build/profile/lock-count.js mutex|bare N [WARM]
// (bench/profile/count.sh runs it under cachegrind for both values of N and prints the difference).
import { connect } from '@zkts/protocol';
import { Mutex } from '@zkts/recipes';

import { bareCycles, lockCycles } from './lock-cycles.js';

const [kind = '', nArg = '', warmArg = '5000'] = process.argv.slice(2);
const cs = process.env['ZKTS_SERVER'];
if ((kind !== 'mutex' && kind !== 'bare') || cs === undefined || !/^\d+$/.test(nArg)) {
  throw new Error('usage: ZKTS_SERVER=host:port node lock-count.js mutex|bare N [WARM]');
}
// A directory of its own: two drivers on one server must not queue behind each other's nodes.
const dir = `/bench-lock-count-${process.pid}`;
const client = await connect(cs);
await client.create(dir).catch(() => undefined);
const mutex = new Mutex(client, dir);
const cycles = (count: number): Promise<void> => (kind === 'bare' ? bareCycles(client, dir, count) : lockCycles(mutex, count));
await cycles(Number(warmArg));
await cycles(Number(nArg));
await client.delete(dir);
process.exit(0);
