// Sequential getData (one request in flight, as the interleaved p50 row) for one of the bench's runners, in a
// process meant to run under valgrind, whose instruction counts a loaded machine does not change. It makes
// WARM unmeasured gets, then N, then exits without closing: the same process with two values of N, minus each
// other, is the instructions per get of a warm client (JIT, GC and V8's helper threads included).
// Run: ZKTS_SERVER=host:port node bench/.build/profile/seq-count.js raw|zkts|nzk N [WARM]
// (bench/profile/count.sh seq-count runs it under cachegrind for both values of N and prints the difference).
import { client as nzk } from '../clients/nzk.js';
import { client as raw } from '../clients/raw.js';
import { client as zkts } from '../clients/zkts.js';
import type { BenchClient } from '../harness/session.js';
import { sequential } from './sequential.js';

const clients: Record<string, BenchClient> = { raw, zkts, nzk };

const [id = '', nArg = '', warmArg = '20000'] = process.argv.slice(2);
const chosen = clients[id];
const cs = process.env['ZKTS_SERVER'];
if (chosen === undefined || cs === undefined || !/^\d+$/.test(nArg)) {
  throw new Error('usage: ZKTS_SERVER=host:port node seq-count.js raw|zkts|nzk N [WARM]');
}
const path = '/bench-seq-count';
const s = await chosen.connect(cs);
// Any runner may make the node; an existing one is as good (its data is the same 100 bytes).
await new Promise<void>((resolve) => s.create(path, new Uint8Array(100).fill(0x61), () => resolve()));
await sequential(s, path, Number(warmArg));
await sequential(s, path, Number(nArg));
process.exit(0);
