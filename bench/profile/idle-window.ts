// The sessions1k row's idle window, second by second, for one runner in a process of its own: connects
// SESSIONS sessions through the runner's bench adapter (up to 100 handshakes in flight, as the row), waits 1 s,
// takes the settled heap as the row does (two full collections), then prints the process's CPU time for each
// second of an idle window of SECONDS. A steady figure is the pings' cost; a first second above the rest is
// work the connects left behind (the JIT, the GC) that the row's window also counts.
// Run: ZKTS_SERVER=host:port node --expose-gc bench/.build/profile/idle-window.js zkts|nzk|native [SESSIONS] [SECONDS]
// (add --trace-gc to see which collections fall in the window).
import { sleep } from '../harness/measure.js';
import { connectAsTheRow, rowDriverArguments } from './row-connects.js';

const { id, client: chosen, connectString: cs, rest } = rowDriverArguments('node --expose-gc idle-window.js zkts|nzk|native [SESSIONS] [SECONDS]');
const [sessionsArg = '1000', secondsArg = '10'] = rest;
const n = Number(sessionsArg);
const rss0 = process.memoryUsage().rss;
const open = await connectAsTheRow(chosen, cs, n);
const rssBefore = process.memoryUsage().rss;
const perSecond: number[] = [];
const window0 = process.cpuUsage();
const switches0 = process.resourceUsage().voluntaryContextSwitches;
for (let i = 0; i < Number(secondsArg); i++) {
  const cpu0 = process.cpuUsage();
  await sleep(1000);
  const cpu = process.cpuUsage(cpu0);
  perSecond.push((cpu.user + cpu.system) / 1000);
}
const windowCpu = process.cpuUsage(window0);
const wakeUps = process.resourceUsage().voluntaryContextSwitches - switches0;
const sum = perSecond.reduce((a, b) => a + b, 0);
const tail = perSecond.slice(1);
console.log(`${id} ${n} sessions, CPU ms per idle second: ${perSecond.map((ms) => ms.toFixed(1)).join(' ')}`);
console.log(`${id} mean ${(sum / perSecond.length).toFixed(2)} ms/s; without the first second ${(tail.reduce((a, b) => a + b, 0) / Math.max(1, tail.length)).toFixed(2)} ms/s; user ${(windowCpu.user / 1000).toFixed(1)} ms, system ${(windowCpu.system / 1000).toFixed(1)} ms; ${wakeUps} voluntary context switches (waits that blocked, all threads)`);
const rssAfter = process.memoryUsage().rss;
console.log(`${id} RSS per session over the process's start: ${((rssBefore - rss0) / n).toFixed(0)} B before the window, ${((rssAfter - rss0) / n).toFixed(0)} B after it`);
await Promise.all(open.map((s) => s.close()));
process.exit(0);
