// Sequential getData, zkts and the raw socket taking turns in one process (as the bench's interleaved row does),
// with or without a neighbour taking turns beside them: another client, or a turn that only walks a block of
// memory. Shows how much of zkts's p50 above the raw socket comes from what runs between its requests (caches
// the neighbour evicted) rather than from its own work. Build with `npx tsc -p bench/tsconfig.child.json`, then
// ZKTS_SERVER=host:port node bench/.build/profile/seq-neighbours.js alone|nzk|native|walk:<MiB> [rounds]
import { client as native } from '../clients/native.js';
import { client as nzk } from '../clients/nzk.js';
import { client as raw } from '../clients/raw.js';
import { client as zkts } from '../clients/zkts.js';
import { seededShuffle } from '../harness/interleaved.js';
import { quantile } from '../harness/measure.js';
import { call, type BenchClient, type BenchSession } from '../harness/session.js';

const server = process.env['ZKTS_SERVER'];
if (server === undefined) throw new Error('ZKTS_SERVER=host:port names the server (bench/profile/server.ts starts one)');
const mode = process.argv[2] ?? 'alone';
const rounds = Number(process.argv[3] ?? 10_000);
const PATH = '/bench-seq-neighbours';

const clients: BenchClient[] = [zkts, raw];
if (mode === 'nzk') clients.push(nzk);
else if (mode === 'native') clients.push(native);
else if (mode !== 'alone' && !mode.startsWith('walk:')) throw new Error(`unknown mode ${mode}`);

const sessions: { id: string; s: BenchSession }[] = [];
for (const c of clients) sessions.push({ id: c.id, s: await c.connect(server) });
const get = (s: BenchSession): Promise<void> => call((done) => s.getData(PATH, done));
// Left by an earlier run, the node is as good as a new one.
await call((done) => sessions[0]!.s.create(PATH, new Uint8Array(100).fill(0x61), done)).catch(() => undefined);

// The walk touches one byte per 64-byte line and allocates nothing, so it evicts caches without making garbage.
const block = new Uint8Array(Math.round(Number(mode.startsWith('walk:') ? mode.slice(5) : 0) * 1024 * 1024));
const walk = (): void => {
  for (let i = 0; i < block.length; i += 64) block[i] = (block[i]! + 1) & 0xff;
};

interface Turn { id: string; go: () => Promise<void>; lat: Float64Array | null }
const turns: Turn[] = sessions.map((x) => ({ id: x.id, go: () => get(x.s), lat: new Float64Array(rounds) }));
if (block.length > 0) turns.push({ id: 'walk', go: async () => walk(), lat: null });

for (const t of turns) for (let i = 0; i < 2_000; i++) await t.go();
const shuffle = seededShuffle();
for (let round = 0; round < rounds; round++) {
  shuffle(turns);
  for (const t of turns) {
    const t0 = process.hrtime.bigint();
    await t.go();
    if (t.lat !== null) t.lat[round] = Number(process.hrtime.bigint() - t0) / 1000;
  }
}

const p50 = new Map(turns.flatMap((t) => (t.lat === null ? [] : [[t.id, quantile(t.lat.sort(), 0.5)] as const])));
const rawP50 = p50.get('raw')!;
const parts = clients.map((c) => `${c.id} ${p50.get(c.id)!.toFixed(1)} µs (${(p50.get(c.id)! / rawP50).toFixed(3)}× raw)`);
console.log(`${mode.padEnd(9)} p50: ${parts.join(', ')}`);
for (const x of sessions) await x.s.close();
process.exit(0);
