// Connects N sessions of one client (zkts or node-zookeeper-client, through the bench's own runners) after 50
// warm-up ones, then closes them: a process to count a connect's syscalls by, where only N changes. Run it under
// `strace -f -c` with N=0 and with N=600 and subtract, so that start-up and the warm-up cancel out:
//   ZKTS_SERVER=host:port N=600 strace -f -c -o zkts-600.txt node bench/.build/profile/connect-count.js zkts
// (compiled with the children: `npx tsc -p bench/tsconfig.child.json`; a server from bench/profile/server.ts).
import { client as nzk } from '../clients/nzk.js';
import { client as zkts } from '../clients/zkts.js';
import type { BenchClient, BenchSession } from '../harness/session.js';

const clients: Record<string, BenchClient> = { zkts, nzk };
const which = process.argv[2] ?? 'zkts';
const c = clients[which];
if (c === undefined) throw new Error(`connect-count: the client is zkts or nzk, got ${which}`);
const cs = process.env['ZKTS_SERVER'];
if (cs === undefined) throw new Error('ZKTS_SERVER=host:port names the server (bench/profile/server.ts starts one)');
const n = Number(process.env['N'] ?? 600);

async function connectAll(count: number): Promise<BenchSession[]> {
  return Promise.all(Array.from({ length: count }, () => c!.connect(cs!)));
}

const warm = await connectAll(50);
await Promise.all(warm.map((s) => s.close()));
const cpu0 = process.cpuUsage();
const all = await connectAll(n);
const cpu = process.cpuUsage(cpu0);
await Promise.all(all.map((s) => s.close()));
if (n > 0) console.log(`${c.id}: ${n} sessions, connect CPU ${((cpu.user + cpu.system) / n).toFixed(0)} µs per session (user ${(cpu.user / n).toFixed(0)}, system ${(cpu.system / n).toFixed(0)})`);
process.exit(0);
