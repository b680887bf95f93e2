// What scheduling one microtask costs, two ways: Node's queueMicrotask (an AsyncResource and a bound function per
// call) and a reaction on an already settled promise (what connection.ts's lone writes use, flush-soon.ts). Meant
// to run under cachegrind, whose instruction counts a loaded machine does not change: WARM unmeasured rounds, then
// N, each round scheduling one microtask and awaiting it; the process with N rounds minus the one with none,
// divided by N, is the instructions per round (the promise each round awaits included, the same both ways).
//   valgrind --tool=cachegrind --cache-sim=no node bench/.build/profile/microtask-count.js queue|then N [WARM]
const [mode = '', nArg = '', warmArg = '20000'] = process.argv.slice(2);
if ((mode !== 'queue' && mode !== 'then') || !/^\d+$/.test(nArg)) throw new Error('usage: microtask-count.js queue|then N [WARM]');
const settled = Promise.resolve();
const round = mode === 'queue' ? (): Promise<void> => new Promise((r) => queueMicrotask(r)) : (): Promise<void> => new Promise((r) => void settled.then(r));
for (let i = 0; i < Number(warmArg); i++) await round();
for (let i = 0; i < Number(nArg); i++) await round();
