// Where the kernel time of the pipelined get row goes, in counts that a loaded machine does not change: read and
// write syscalls per get (/proc/self/io syscr/syscw), bytes per syscall, and context switches, for the bench's raw
// socket and zkts runners on the same server, alternating. CPU µs/get is printed too, but noisy, and under tsx
// (esbuild wraps every function of zkts's dist too) it is not the bench's figure.
// Run: node --conditions=zkts-source --import tsx bench/profile/get-syscalls.ts [rounds]

import { client as raw } from '../clients/raw.js';
import { client as zkts } from '../clients/zkts.js';
import type { BenchClient, BenchSession } from '../harness/session.js';
import { benchServer } from '../harness/server.js';
import { procCounters as io } from './proc-io.js';

function pipelined(s: BenchSession, path: string, n: number, window: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let doneN = 0;
    const done = (e: Error | null): void => {
      if (e) return reject(e);
      doneN++;
      if (doneN === n) return resolve();
      if (sent < n) {
        sent++;
        s.getData(path, done);
      }
    };
    for (; sent < Math.min(window, n); ) {
      sent++;
      s.getData(path, done);
    }
  });
}

const rounds = Number(process.argv[2] ?? 3);
const N = Number(process.env.N ?? 50_000);
const server = await benchServer();
const clients: BenchClient[] = [raw, zkts];
const base = `/syscalls-${process.pid}`;
{
  const s = await zkts.connect(server.connectString);
  await new Promise<void>((r, j) => s.create(base, new Uint8Array(0), (e) => (e ? j(e) : r())));
  await new Promise<void>((r, j) => s.create(`${base}/get`, new Uint8Array(100).fill(0x61), (e) => (e ? j(e) : r())));
  await s.close();
}
for (let r = 0; r < rounds; r++) {
  for (const c of r % 2 ? [...clients].reverse() : clients) {
    const s = await c.connect(server.connectString);
    await pipelined(s, `${base}/get`, 15_000, 1000);
    const io0 = io();
    const cpu0 = process.cpuUsage();
    await pipelined(s, `${base}/get`, N, 1000);
    const cpu = process.cpuUsage(cpu0);
    const io1 = io();
    const d = (k: string): number => (io1[k]! - io0[k]!);
    console.log(
      `${c.id.padEnd(5)} user ${(cpu.user / N).toFixed(2)} sys ${(cpu.system / N).toFixed(2)} µs/get | ` +
        `reads/get ${(d('syscr') / N).toFixed(4)} (${Math.round(d('rchar') / d('syscr'))} B) writes/get ${(d('syscw') / N).toFixed(4)} (${Math.round(d('wchar') / d('syscw'))} B) | ` +
        `ctxsw vol ${d('voluntary_ctxt_switches')} invol ${d('nonvoluntary_ctxt_switches')}`,
    );
    await s.close();
  }
}
await server.stop();
process.exit(0);
