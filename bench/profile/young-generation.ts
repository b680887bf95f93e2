// When V8 gives back the young generation that the sessions1k row's connects grew, and what RSS per session is
// before and after: one runner per process, the row's 1,000 connects (100 handshakes in flight), its 1 s wait and
// settled heap, then the young generation's resident size polled every 250 ms until it is back to its size
// before the connects (or CAP seconds pass). Printed: the young generation before, after the connects and at the
// end, how long after the settled heap it was given back, and RSS per session at the row's 30 s and at the end,
// each also without the young generation's own resident bytes.
// Run: ZKTS_SERVER=host:port node --expose-gc bench/.build/profile/young-generation.js zkts|nzk|native [CAP=150]
// (add --trace-gc to see which collection gave it back: a scavenge, or the memory reducer's `Mark-Compact (reduce)`).
import { settledHeap, sleep, youngGeneration as young } from '../harness/measure.js';
import { connectAsTheRow, rowDriverArguments } from './row-connects.js';

const { id, client: chosen, connectString: cs, rest } = rowDriverArguments('node --expose-gc young-generation.js zkts|nzk|native [CAP]');
const [capArg = '150'] = rest;
const n = 1000;
const rss = (): number => process.memoryUsage().rss;
const mib = (bytes: number): string => (bytes / 1048576).toFixed(1);

settledHeap();
const young0 = young();
const rss0 = rss();
const open = await connectAsTheRow(chosen, cs, n);
const young1 = young();
const t0 = performance.now();
let at30: { rss: number; young: number } | undefined;
while (young() > young0 && performance.now() - t0 < Number(capArg) * 1000) {
  await sleep(250);
  if (at30 === undefined && performance.now() - t0 >= 30_000) at30 = { rss: rss(), young: young() };
}
const givenBack = young() <= young0 ? `given back after ${((performance.now() - t0) / 1000).toFixed(1)} s` : `not given back in ${capArg} s`;
// As the row does: the freed pages leave RSS a little after V8's statistics (its unmapping runs in the background).
await sleep(2000);
if (at30 === undefined) {
  await sleep(Math.max(0, 30_000 - (performance.now() - t0)));
  at30 = { rss: rss(), young: young() };
}
console.log(
  `${id}: young generation ${mib(young0)} MiB before the connects, ${mib(young1)} after, ${mib(young())} at the end (${givenBack}); ` +
    `RSS per session ${((at30.rss - rss0) / n).toFixed(0)} B at 30 s (${((at30.rss - at30.young - (rss0 - young0)) / n).toFixed(0)} outside the young generation), ` +
    `${((rss() - rss0) / n).toFixed(0)} B at the end (${((rss() - young() - (rss0 - young0)) / n).toFixed(0)} outside it, the row's \`rssPerSessionSettled\`)`,
);
await Promise.all(open.map((s) => s.close()));
process.exit(0);
