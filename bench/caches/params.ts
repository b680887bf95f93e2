// What the cache rows share between the harness side (run.ts) and each measuring process: the tree's shape, the
// payload, and how latencies are summarized. The Java and Python sides take the same numbers as arguments.

export interface CacheParams {
  /** Directories under the measured root, each with `leaves` leaf nodes: dirs × (leaves + 1) + 1 nodes. */
  dirs: number;
  leaves: number;
  /** The warm-up tree (loaded once, unmeasured): dirs × leaves as well. */
  warmDirs: number;
  warmLeaves: number;
  /** setData → event round trips measured (1,000: the p99 is then the 10th slowest, not the 3rd). */
  events: number;
  /**
   * setData → event round trips made first and not measured: the event path is code the loads never run, so
   * without them the first samples pay for its first calls (compiling it, cold caches; V8's sample 0 took 3-22 ms
   * at a p50 of 0.45 ms). A hundred were not enough: V8 and the JVM go on compiling the path for a few thousand
   * more, and on 2 cores the compiler's thread takes a core from the server (captured on the wire, the server's
   * own time per setData beside a fresh Node client had a p99 of 0.8-1.0 ms; 0.4 ms with V8's background threads
   * off; 0.5-0.7 ms after 20,000 requests). zkts's p99 over 1,000 events after 2,000 / 4,000-10,000 of them:
   * 1.8-2.5 / 0.57-0.85 ms. Python compiles nothing, so kazoo's figure barely moves.
   */
  warmEvents: number;
}

/** 10,000 leaves (100 × 100) + 100 directories + the root: every node holds 100 bytes. */
export const FULL_CACHE: CacheParams = { dirs: 100, leaves: 100, warmDirs: 10, warmLeaves: 100, events: 1000, warmEvents: 5000 };
export const QUICK_CACHE: CacheParams = { dirs: 10, leaves: 100, warmDirs: 5, warmLeaves: 20, events: 50, warmEvents: 10 };

export const PAYLOAD = new Uint8Array(100).fill(0x61);

/** p50/p99 (µs) of latencies, nearest rank. */
export function summarize(latUs: Float64Array): { eventP50Us: number; eventP99Us: number } {
  const sorted = Float64Array.from(latUs).sort();
  const q = (p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
  return { eventP50Us: q(0.5), eventP99Us: q(0.99) };
}

/**
 * The figure kept of each metric over the passes, each metric on its own: a pass whose load met a busy moment may
 * still have had the quietest events. Times keep their best pass (the machine's noise only ever adds to them);
 * the heap keeps its median, as its noise goes both ways (a collection that ran late or early).
 */
export function keptOfPasses(passes: readonly Record<string, number>[]): Record<string, number> {
  const kept: Record<string, number> = {};
  const metrics = new Set(passes.flatMap((pass) => Object.keys(pass)));
  for (const metric of metrics) {
    const values = passes.map((pass) => pass[metric]).filter((v): v is number => v !== undefined).sort((a, b) => a - b);
    kept[metric] = (metric === 'heapPerNode' ? values[(values.length - 1) >> 1] : values[0]) as number;
  }
  return kept;
}
