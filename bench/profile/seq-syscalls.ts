// Sequential getData (one request in flight, as the interleaved p50 row) in counts that a loaded machine does not
// change: read and write syscalls per get (/proc/self/io), context switches, and the Node event-loop work per get
// (ticks, immediates, timers armed), for the bench's raw socket and zkts runners on the same server, alternating.
// Run: node --conditions=zkts-source --import tsx bench/profile/seq-syscalls.ts [rounds]
// (with `strace -f -c -o FILE` in front for every syscall, not only reads and writes).
import { createHook } from 'node:async_hooks';

import { client as raw } from '../clients/raw.js';
import { client as zkts } from '../clients/zkts.js';
import type { BenchClient } from '../harness/session.js';
import { benchServer } from '../harness/server.js';
import { procCounters as io } from './proc-io.js';
import { sequential } from './sequential.js';

/** Async resources made while counting, by type (TickObject, Immediate, Timeout, PROMISE, ...). */
const made = new Map<string, number>();
let counting = false;
const hook = createHook({
  init(_id, type) {
    if (counting) made.set(type, (made.get(type) ?? 0) + 1);
  },
});

const rounds = Number(process.argv[2] ?? 2);
const N = Number(process.env.N ?? 5_000);
const server = await benchServer();
const clients: BenchClient[] = [raw, zkts];
const base = `/seq-syscalls-${process.pid}`;
{
  const s = await zkts.connect(server.connectString);
  await new Promise<void>((r, j) => s.create(base, new Uint8Array(0), (e) => (e ? j(e) : r())));
  await new Promise<void>((r, j) => s.create(`${base}/get`, new Uint8Array(100).fill(0x61), (e) => (e ? j(e) : r())));
  await s.close();
}
for (let r = 0; r < rounds; r++) {
  for (const c of r % 2 ? [...clients].reverse() : clients) {
    const s = await c.connect(server.connectString);
    await sequential(s, `${base}/get`, 2_000);
    made.clear();
    hook.enable();
    counting = true;
    const io0 = io();
    const cpu0 = process.cpuUsage();
    await sequential(s, `${base}/get`, N);
    const cpu = process.cpuUsage(cpu0);
    const io1 = io();
    counting = false;
    hook.disable();
    const d = (k: string): number => io1[k]! - io0[k]!;
    const per = [...made].map(([k, v]) => `${k} ${(v / N).toFixed(2)}`).join(', ');
    console.log(
      `${c.id.padEnd(5)} user ${(cpu.user / N).toFixed(1)} sys ${(cpu.system / N).toFixed(1)} µs/get | ` +
        `reads/get ${(d('syscr') / N).toFixed(3)} writes/get ${(d('syscw') / N).toFixed(3)} | ` +
        `ctxsw/get vol ${(d('voluntary_ctxt_switches') / N).toFixed(2)} invol ${(d('nonvoluntary_ctxt_switches') / N).toFixed(2)} | per get: ${per}`,
    );
    await s.close();
  }
}
await server.stop();
process.exit(0);
