// What the cache rows share between the harness side (run.ts) and each measuring process: the tree's shape, the
// payload, and how latencies are summarized. The Java and Python sides take the same numbers as arguments.

export interface CacheParams {
  /** Directories under the measured root, each with `leaves` leaf nodes: dirs × (leaves + 1) + 1 nodes. */
  dirs: number;
  leaves: number;
  /** The warm-up tree (loaded once, unmeasured): dirs × leaves as well. */
  warmDirs: number;
  warmLeaves: number;
  /** setData → event round trips measured. */
  events: number;
  /**
   * setData → event round trips made first and not measured: the event path is code the loads never run, so
   * without them the first samples pay for its first calls (compiling it, cold caches; V8's sample 0 took 3-22 ms
   * at a p50 of 0.45 ms), and 3 slow samples of 300 are the p99.
   */
  warmEvents: number;
}

/** 10,000 leaves (100 × 100) + 100 directories + the root: every node holds 100 bytes. */
export const FULL_CACHE: CacheParams = { dirs: 100, leaves: 100, warmDirs: 10, warmLeaves: 100, events: 300, warmEvents: 100 };
export const QUICK_CACHE: CacheParams = { dirs: 10, leaves: 100, warmDirs: 5, warmLeaves: 20, events: 50, warmEvents: 10 };

export const PAYLOAD = new Uint8Array(100).fill(0x61);

/** p50/p99 (µs) of latencies, nearest rank. */
export function summarize(latUs: Float64Array): { eventP50Us: number; eventP99Us: number } {
  const sorted = Float64Array.from(latUs).sort();
  const q = (p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
  return { eventP50Us: q(0.5), eventP99Us: q(0.99) };
}
