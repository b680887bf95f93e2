// Sequential getData with every Node client in ONE process, taking turns. On this shared 2-core
// machine one connection's round trip is bimodal (about 30 µs when client and server share a core, 60-110 µs
// when a wake-up crosses cores) and the neighbours' load comes and goes, so separate processes' p50s differ by
// luck as much as by client: one pass lands in the fast mode, the next in the slow one. Here every client takes
// its turn one request at a time, in a shuffled order, under the same conditions; the per-client quantiles then
// compare the clients, which is what the floor ratio (zkts / raw socket) needs. (Turns of 50 requests are too
// coarse: a mode lasts about as long as a few turns, so two clients' mixes of fast and slow gets differ by luck;
// two copies of the same zkts build came out up to 3% apart at p50 in one pass.) Per-process CPU cannot be split
// between clients in one process, so this row reports latency only; the Java client, in its own JVM, cannot take
// part.
import { quantile } from './measure.js';
import type { BenchClient, BenchSession } from './session.js';
import { call } from './session.js';
import type { Metrics, WorkloadParams } from './workloads.js';

const PAYLOAD = new Uint8Array(100).fill(0x61);

/** Shuffles a list in place, a fresh order per call, from one fixed seed (so every run draws the same orders). */
export function seededShuffle(): <T>(list: T[]) => void {
  let seed = 0x2545f491;
  return (list) => {
    for (let i = list.length - 1; i > 0; i--) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      const j = (seed >>> 16) % (i + 1);
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
  };
}

export async function sequentialInterleaved(clients: readonly BenchClient[], connectString: string, base: string, params: WorkloadParams): Promise<Record<string, Metrics>> {
  const runs: { id: string; s: BenchSession; path: string; lat: Float64Array; n: number }[] = [];
  try {
    for (const c of clients) {
      const s = await c.connect(connectString);
      runs.push({ id: c.id, s, path: `${base}/${c.id}`, lat: new Float64Array(params.seqOps), n: 0 });
    }
    const first = runs[0];
    if (!first) return {};
    await call((d) => first.s.create(base, new Uint8Array(0), d));
    for (const r of runs) {
      await call((d) => r.s.create(r.path, PAYLOAD, d));
      for (let i = 0; i < params.seqWarmup; i++) await call((d) => r.s.getData(r.path, d));
    }
    // One request per client per round, in a fresh order every round (seeded, so every run draws the same):
    // each client follows every other equally often, so none always comes after the same neighbour (the native
    // package's I/O thread, for one, leaves a core busy behind it).
    const shuffle = seededShuffle();
    const order = [...runs];
    for (let round = 0; round < params.seqOps; round++) {
      shuffle(order);
      for (const r of order) {
        const t0 = process.hrtime.bigint();
        await call((d) => r.s.getData(r.path, d));
        r.lat[r.n++] = Number(process.hrtime.bigint() - t0) / 1000;
      }
    }
    const out: Record<string, Metrics> = {};
    for (const r of runs) {
      r.lat.sort();
      out[r.id] = { ops: r.n, p10Us: quantile(r.lat, 0.1), p50Us: quantile(r.lat, 0.5), p99Us: quantile(r.lat, 0.99) };
    }
    return out;
  } finally {
    for (const r of runs) await r.s.close();
  }
}
