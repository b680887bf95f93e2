/**
 * Requests over time with bounded memory: the report shows at most about 60 buckets over the whole span, so
 * counts are kept per second only while there are few enough of them; past `maxBuckets` stored buckets they
 * are merged into minutes, then hours, then days, always aligned on the first second seen. The report's
 * bucket size is a multiple of the stored one, so its buckets stay exact. The peak per second is kept
 * running over the newest seconds (a line later than that no longer counts towards it).
 */

/** Stored-bucket sizes in seconds, each a multiple of the one before. */
const GRANULARITIES = [1, 60, 3600, 86_400];
/** Report bucket sizes (seconds) tried in order: the first giving at most 60 buckets wins. */
const REPORT_SIZES = [1, 5, 10, 30, 60, 300, 600, 1800, 3600];
/** Seconds counted one by one for the peak, behind the newest. */
const PEAK_SECONDS = 120;

export interface RateReport {
  bucketMs: number;
  buckets: { t: number; requests: number }[];
  peakPerSecond: number;
}

export class RequestRate {
  private readonly maxBuckets: number;
  /** Bucket index (from `base`, in units of `granularity` seconds) → requests. */
  private readonly counts = new Map<number, number>();
  private granularity = 1;
  private base: number | undefined;
  private first = Number.POSITIVE_INFINITY;
  private last = Number.NEGATIVE_INFINITY;
  private readonly recent = new Map<number, number>();
  private peak = 0;

  constructor(maxBuckets = 7200) {
    this.maxBuckets = maxBuckets;
  }

  /** One request at `time` ms since the epoch. */
  add(time: number): void {
    const second = Math.floor(time / 1000);
    this.base ??= second;
    if (second > this.last) {
      this.last = second;
      for (const s of this.recent.keys()) if (s <= second - PEAK_SECONDS) this.recent.delete(s);
    }
    if (second < this.first) this.first = second;
    const index = Math.floor((second - this.base) / this.granularity);
    this.counts.set(index, (this.counts.get(index) ?? 0) + 1);
    if (second > this.last - PEAK_SECONDS) {
      const n = (this.recent.get(second) ?? 0) + 1;
      this.recent.set(second, n);
      if (n > this.peak) this.peak = n;
    }
    if (this.counts.size > this.maxBuckets) this.coarsen();
  }

  /** Buckets held in memory. */
  get stored(): number {
    return this.counts.size;
  }

  private coarsen(): void {
    const next = GRANULARITIES.find((g) => g > this.granularity) ?? this.granularity * 2;
    const factor = next / this.granularity;
    const merged = new Map<number, number>();
    for (const [index, n] of this.counts) {
      const to = Math.floor(index / factor);
      merged.set(to, (merged.get(to) ?? 0) + n);
    }
    this.counts.clear();
    for (const [index, n] of merged) this.counts.set(index, n);
    this.granularity = next;
  }

  /** At most about 60 buckets of 1, 5, 10, 30, 60, 300… seconds, from the first second with a request. */
  report(): RateReport {
    if (this.base === undefined) return { bucketMs: 1000, buckets: [], peakPerSecond: 0 };
    const { first: from, last: to, granularity: g } = this;
    const span = to - from + 1;
    const size = REPORT_SIZES.find((s) => span / s <= 60 && s % g === 0) ?? Math.ceil(Math.ceil(span / 60) / g) * g;
    const buckets = new Map<number, number>();
    for (const [index, count] of this.counts) {
      const b = Math.max(0, Math.floor((this.base + index * g - from) / size));
      buckets.set(b, (buckets.get(b) ?? 0) + count);
    }
    // t: the bucket's start in whole seconds from the first second with a request.
    const list = Array.from({ length: Math.floor((to - from) / size) + 1 }, (_, b) => ({ t: b * size * 1000, requests: buckets.get(b) ?? 0 }));
    return { bucketMs: size * 1000, buckets: list, peakPerSecond: this.peak };
  }
}
