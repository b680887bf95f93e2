// Pipelined getData (1,000 in flight, as the getPipelined row) for one of the bench's runners, in a process meant
// to run under valgrind, whose instruction counts a loaded machine does not change. It makes WARM unmeasured
// gets, then N, then exits without closing: the same process with two values of N, minus each other, is the
// instructions per pipelined get of a warm client (JIT, GC and V8's helper threads included). The kernel's side of
// the reads and writes is not counted: the raw socket makes about one write per two gets, zkts about one per 650
// (get-syscalls.ts), so the counts compare the clients' user-space work only.
// Run: ZKTS_SERVER=host:port node bench/.build/profile/pipe-count.js raw|zkts|nzk N [WARM]
// (bench/profile/count.sh pipe-count runs it under cachegrind for both values of N and prints the difference).
import { client as nzk } from '../clients/nzk.js';
import { client as raw } from '../clients/raw.js';
import { client as zkts } from '../clients/zkts.js';
import { pipeline } from '../harness/measure.js';
import type { BenchClient } from '../harness/session.js';

const clients: Record<string, BenchClient> = { raw, zkts, nzk };
const WINDOW = 1000;

const [id = '', nArg = '', warmArg = '50000'] = process.argv.slice(2);
const chosen = clients[id];
const cs = process.env['ZKTS_SERVER'];
if (chosen === undefined || cs === undefined || !/^\d+$/.test(nArg)) {
  throw new Error('usage: ZKTS_SERVER=host:port node pipe-count.js raw|zkts|nzk N [WARM]');
}
const path = '/bench-pipe-count';
const s = await chosen.connect(cs);
// Any runner may make the node; an existing one is as good (its data is the same 100 bytes).
await new Promise<void>((resolve) => s.create(path, new Uint8Array(100).fill(0x61), () => resolve()));
const get = (_i: number, done: (e: Error | null) => void): void => s.getData(path, done);
await pipeline(Number(warmArg), WINDOW, get);
await pipeline(Number(nArg), WINDOW, get);
process.exit(0);
