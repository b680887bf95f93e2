// The write path and the lock recipe, build against build, in ONE process: pipelined create+delete (the
// harness's createDelete: 1,000 pairs outstanding) and uncontended Mutex acquire+release cycles (the harness's
// mutexUncontended), build A and build B taking turns round by round (the order flips every round), so the
// machine's noise falls on both alike. Printed per build: medians and ranges of pairs/s and client CPU µs per
// pair, cycles/s and CPU µs per cycle, the requests each cycle sent (the client's own stats()), the same
// requests as a cycle without the recipe ("bare": create+getChildren, then delete), and the median of the
// per-round ratios B / A. The raw socket (bench/clients/raw.ts) takes its turn at create+delete too:
// the most one connection gets from this server.
//
//   node bench/.build/profile/writes.js [rounds=9] [pairs=4000] [cycles=300] [only=cd|mutex] [noraw] [--fake] [verbose]
//   --fake: against an in-process stand-in that answers at once (fake-zk.ts): the clients' own CPU, little noise
//   ZKTS_A=…/protocol/dist/index.js RECIPES_A=…/recipes/dist/index.js (or ZKTS_BASE=<other checkout>: its builds)
//   ZKTS_B=… RECIPES_B=… (default: the builds this program resolves, i.e. this checkout's dist/)
//   ZKTS_SERVER=host:port uses a running server (bench/profile/server.ts), else one is started here.
//
// Compiled with the bench's child (bench/tsconfig.child.json) and run on plain node, like the bench children.
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

import * as shippedProtocol from '@zkts/protocol';
import * as shippedRecipes from '@zkts/recipes';

import { client as raw } from '../clients/raw.js';
import { fakeZooKeeper } from './fake-zk.js';
import { bareCycles, lockCycles } from './lock-cycles.js';
import { otherBuild, successOf, unused } from './other-build.js';
import { benchServer } from '../harness/server.js';
import { pipeline } from '../harness/measure.js';
import type { BenchSession } from '../harness/session.js';

type Protocol = typeof shippedProtocol;
type Recipes = typeof shippedRecipes;
type Client = Awaited<ReturnType<Protocol['connect']>>;

interface Side {
  readonly id: string;
  readonly session: BenchSession;
  /** The zkts client under `session` (undefined: the raw socket, which runs create+delete only). */
  readonly client: Client | undefined;
  readonly recipes: Recipes | undefined;
  readonly figures: Map<string, number[]>;
}

const PAYLOAD = new Uint8Array(100).fill(0x61);
const baseRoot = (): string => otherBuild('ZKTS_BASE', 'the root of a checkout (or ZKTS_A and RECIPES_A, its dist/index.js files)');

/** The bench's zkts adapter over any build (one `.then` per call, its success callback reused). */
function sessionOver(c: Client): BenchSession {
  const ok = successOf();
  return {
    create: (path, data, done) => void c.create(path, data).then(ok(done), done),
    delete: (path, done) => void c.delete(path).then(ok(done), done),
    close: async () => {
      await c.close();
    },
    getData: unused,
    getDataWatch: unused,
    setData: unused,
    getDataBytes: unused,
    getChildrenList: unused,
    countChildren: unused,
  };
}

async function load<T>(path: string | undefined, fallback: T): Promise<T> {
  return path === undefined ? fallback : ((await import(resolve(path))) as T);
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;
const range = (xs: readonly number[], digits: number): string =>
  `${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}`;

function record(side: Side, name: string, value: number): void {
  const list = side.figures.get(name) ?? [];
  list.push(value);
  side.figures.set(name, list);
}

async function timed(body: () => Promise<void>): Promise<{ s: number; cpuUs: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await body();
  const c = process.cpuUsage(c0);
  return { s: (performance.now() - t0) / 1000, cpuUs: c.user + c.system };
}

function createDeletePairs(side: Side, dir: string, tag: string, pairs: number): Promise<void> {
  const s = side.session;
  return pipeline(pairs, 1000, (i, done) => {
    const path = `${dir}/${tag}${i}`;
    s.create(path, PAYLOAD, (e) => (e ? done(e) : s.delete(path, done)));
  });
}

function mutexCycles(side: Side, dir: string, cycles: number): Promise<void> {
  return lockCycles(new (side.recipes as Recipes).Mutex(side.client as Client, dir), cycles);
}

function requestCount(c: Client): number {
  return Object.values(c.stats().requests).reduce((a, b) => a + b, 0);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const num = (i: number, dflt: number): number => (args[i] !== undefined && /^\d+$/.test(args[i]) ? Number(args[i]) : dflt);
  const rounds = num(0, 9);
  const pairs = num(1, 4000);
  const cycles = num(2, 300);
  const only = args.find((a) => a.startsWith('only='))?.slice(5);
  const withRaw = !args.includes('noraw') && only !== 'mutex';
  const verbose = args.includes('verbose');

  const protoA = await load<Protocol>(process.env.ZKTS_A ?? `${baseRoot()}/packages/protocol/dist/index.js`, shippedProtocol);
  const recipesA = await load<Recipes>(process.env.RECIPES_A ?? `${baseRoot()}/packages/recipes/dist/index.js`, shippedRecipes);
  const protoB = await load<Protocol>(process.env.ZKTS_B, shippedProtocol);
  const recipesB = await load<Recipes>(process.env.RECIPES_B, shippedRecipes);

  // --fake: an in-process stand-in that answers at once (fake-zk.ts), so the figures are the clients' own work.
  const fake = args.includes('--fake') ? await fakeZooKeeper() : undefined;
  const server = fake === undefined ? await benchServer() : { connectString: fake.connectString, stop: () => Promise.resolve(fake.close()) };
  const cs = server.connectString;
  const sides: Side[] = [];
  for (const [id, proto, recipes] of [['A', protoA, recipesA], ['B', protoB, recipesB]] as const) {
    const client = await proto.connect(cs, { sessionTimeout: 30_000 });
    sides.push({ id, client, recipes, session: sessionOver(client), figures: new Map() });
  }
  if (withRaw) sides.push({ id: 'raw', client: undefined, recipes: undefined, session: await raw.connect(cs), figures: new Map() });

  const root = `/writes-ab-${process.pid}`;
  const setup = sides[0]?.client as Client;
  await setup.create(root, null);
  for (const side of sides) {
    await setup.create(`${root}/${side.id}`, null);
    await setup.create(`${root}/${side.id}/bare`, null);
    // Warm-up, not measured: the JIT on both builds, the server's paths.
    if (only !== 'mutex') await createDeletePairs(side, `${root}/${side.id}`, 'w', 4000);
    if (only !== 'cd' && side.client !== undefined) await mutexCycles(side, `${root}/${side.id}/lock`, 200);
  }
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      if (only !== 'mutex') {
        const t = await timed(() => createDeletePairs(side, `${root}/${side.id}`, `r${r}-`, pairs));
        record(side, 'pairs/s', pairs / t.s);
        record(side, 'cpu µs/pair', t.cpuUs / pairs);
      }
      if (only !== 'cd' && side.client !== undefined) {
        const c = side.client;
        const before = requestCount(c);
        const t = await timed(() => mutexCycles(side, `${root}/${side.id}/lock`, cycles));
        record(side, 'cycles/s', cycles / t.s);
        record(side, 'cpu µs/cycle', t.cpuUs / cycles);
        record(side, 'requests/cycle', (requestCount(c) - before) / cycles);
        const bare = await timed(() => bareCycles(c, `${root}/${side.id}/bare`, cycles));
        record(side, 'bare cycles/s', cycles / bare.s);
        record(side, 'bare cpu µs/cycle', bare.cpuUs / cycles);
        if (verbose) process.stderr.write(`round ${r} ${side.id}: ${(cycles / t.s).toFixed(0)} cycles/s, bare ${(cycles / bare.s).toFixed(0)}\n`);
      }
    }
  }
  const names = ['pairs/s', 'cpu µs/pair', 'cycles/s', 'cpu µs/cycle', 'requests/cycle', 'bare cycles/s', 'bare cpu µs/cycle'];
  for (const side of sides) {
    const parts = names
      .filter((n) => side.figures.has(n))
      .map((n) => {
        const xs = side.figures.get(n) as number[];
        const digits = n.endsWith('/s') ? 0 : 1;
        return `${n} ${median(xs).toFixed(digits)} (${range(xs, digits)})`;
      });
    process.stdout.write(`${side.id.padEnd(4)} ${parts.join('  ')}\n`);
  }
  const [a, b] = sides;
  if (a !== undefined && b !== undefined) {
    for (const n of names) {
      const xa = a.figures.get(n);
      const xb = b.figures.get(n);
      if (xa === undefined || xb === undefined) continue;
      const ratios = xb.map((v, i) => v / (xa[i] as number));
      process.stdout.write(`B/A ${n}: median ${median(ratios).toFixed(3)} (${range(ratios, 3)})\n`);
    }
  }
  for (const side of sides) await side.session.close();
  if (fake === undefined) {
    const cleanup = await protoB.connect(cs, { sessionTimeout: 30_000 });
    await cleanup.removeRecursive(root).catch(() => undefined);
    await cleanup.close();
  }
  await server.stop();
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
