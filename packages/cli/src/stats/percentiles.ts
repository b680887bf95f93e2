/**
 * Latency summaries. Percentiles use the nearest-rank method: every reported value is one of the measured
 * latencies (no interpolation), so a percentile can be checked against the per-request latencies `zkts
 * decode` prints — the same samples, rounded the same way (to the microsecond).
 */
export interface LatencySummary {
  count: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  /** Present (true) only when the percentiles are estimates from a uniform sample of the latencies. */
  sampled?: true;
  /** With `sampled`: how many latencies the percentiles were taken from. */
  samples?: number;
}

/** Rounds ms to µs, as conversation records do. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** The nearest-rank p-th percentile (0 < p ≤ 100) of ascending `sorted`. */
export function nearestRank(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] as number;
}

export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((n, v) => n + v, 0);
  return {
    count: sorted.length,
    min: roundMs(sorted[0] ?? Number.NaN),
    p50: roundMs(nearestRank(sorted, 50)),
    p90: roundMs(nearestRank(sorted, 90)),
    p99: roundMs(nearestRank(sorted, 99)),
    max: roundMs(sorted[sorted.length - 1] ?? Number.NaN),
    mean: roundMs(sorted.length === 0 ? Number.NaN : sum / sorted.length),
  };
}
