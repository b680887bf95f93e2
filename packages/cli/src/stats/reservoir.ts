/**
 * One op's latency samples with bounded memory. Up to `cap` samples every one is kept, so percentiles are
 * exact (the nearest-rank values `decode` prints). Past the cap a uniform random sample of `cap` of them is
 * kept instead (reservoir sampling, Vitter's algorithm R) and the percentiles become estimates, while
 * count, min, max and mean stay exact because they are kept running. The random numbers come from a seeded
 * PRNG so the same traffic fed again gives the same report.
 */
import { nearestRank, roundMs, summarize, type LatencySummary } from './percentiles.js';

/** A small, fast, seedable 32-bit PRNG (mulberry32): uniform in [0, 1), the same sequence for a seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a string: gives each op its own stream, independent of how ops interleave. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class LatencySamples {
  readonly cap: number;
  private readonly samples: number[] = [];
  private readonly random: () => number;
  private seen = 0;
  private low = Number.POSITIVE_INFINITY;
  private high = Number.NEGATIVE_INFINITY;
  private sum = 0;

  constructor(cap: number, seed: number) {
    if (!Number.isInteger(cap) || cap < 1) throw new RangeError(`sample cap must be a positive integer, got ${cap}`);
    this.cap = cap;
    this.random = seededRandom(seed);
  }

  add(ms: number): void {
    this.seen++;
    if (ms < this.low) this.low = ms;
    if (ms > this.high) this.high = ms;
    this.sum += ms;
    if (this.samples.length < this.cap) {
      this.samples.push(ms);
      return;
    }
    // Algorithm R: the n-th sample replaces a random kept one with probability cap / n.
    const at = Math.floor(this.random() * this.seen);
    if (at < this.cap) this.samples[at] = ms;
  }

  /** Every latency seen. */
  get count(): number {
    return this.seen;
  }

  /** Latencies held in memory (never more than the cap). */
  get kept(): number {
    return this.samples.length;
  }

  /** True once the percentiles are estimated from a sample rather than computed from every latency. */
  get sampled(): boolean {
    return this.seen > this.samples.length;
  }

  /**
   * Under the cap: exactly `summarize` of every latency. Past it: percentiles of the sample, exact
   * count/min/max/mean, and `sampled: true` with how many latencies the percentiles come from.
   */
  summary(): LatencySummary {
    if (!this.sampled) return summarize(this.samples);
    const sorted = [...this.samples].sort((a, b) => a - b);
    return {
      count: this.seen,
      min: roundMs(this.low),
      p50: roundMs(nearestRank(sorted, 50)),
      p90: roundMs(nearestRank(sorted, 90)),
      p99: roundMs(nearestRank(sorted, 99)),
      max: roundMs(this.high),
      mean: roundMs(this.sum / this.seen),
      sampled: true,
      samples: sorted.length,
    };
  }
}
