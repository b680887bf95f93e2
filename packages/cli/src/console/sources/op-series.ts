/**
 * Requests per second and reply latency per op, one point per second over a sliding window (the traffic
 * chart's data). Memory stays bounded on a busy proxy: only the seconds still being filled keep their raw
 * latencies; an older second is reduced to its point (count, p50, p99) as soon as a later second starts,
 * and seconds older than the window are dropped.
 */
import type { ConversationLine } from '../../conversation.js';
import { nearestRank } from '../../stats/index.js';
import type { OpSeriesPoint } from '../api-types.js';

/** Raw latencies are kept for this many of the newest seconds (lines of a second may arrive a bit late). */
const OPEN_SECONDS = 2;

interface Bucket {
  requests: number;
  /** Replies whose latency the percentiles cover. */
  replies: number;
  /** Raw latencies while the second is open; null once reduced into p50/p99. */
  latencies: number[] | null;
  p50: number | null;
  p99: number | null;
}

const roundMs = (ms: number): number => Math.round(ms * 1000) / 1000;

function reduce(bucket: Bucket): void {
  if (bucket.latencies === null) return;
  const sorted = bucket.latencies.sort((a, b) => a - b);
  bucket.p50 = sorted.length === 0 ? null : roundMs(nearestRank(sorted, 50));
  bucket.p99 = sorted.length === 0 ? null : roundMs(nearestRank(sorted, 99));
  bucket.latencies = null;
}

export class OpSeries {
  /** op → second (floor(ms / 1000)) → bucket */
  private readonly ops = new Map<string, Map<number, Bucket>>();
  private readonly windowSeconds: number;
  private newest = Number.NEGATIVE_INFINITY;

  /** `windowSeconds`: how many of the latest seconds are kept (default 600: ten minutes). */
  constructor(windowSeconds = 600) {
    this.windowSeconds = windowSeconds;
  }

  /** A decoded line: a request counts at the second it was sent, a reply (with its latency) at the second it
   *  arrived, as a monitor records a call when it completes. A slow reply thus lands in an open second. */
  add(line: ConversationLine): void {
    const { entry } = line;
    if (entry.kind === 'request') this.note(entry.op ?? '?', line.time, undefined);
    else if (entry.kind === 'reply' && line.latencyMs !== undefined) this.note(entry.op ?? '?', line.time, line.latencyMs);
  }

  /** One request (latency undefined) or one reply's latency, at `time` ms since the epoch. */
  note(op: string, time: number, latencyMs: number | undefined): void {
    const second = Math.floor(time / 1000);
    if (second > this.newest) this.advance(second);
    if (second <= this.newest - this.windowSeconds) return;
    let buckets = this.ops.get(op);
    if (buckets === undefined) {
      buckets = new Map();
      this.ops.set(op, buckets);
    }
    let bucket = buckets.get(second);
    if (bucket === undefined) {
      bucket = { requests: 0, replies: 0, latencies: second > this.newest - OPEN_SECONDS ? [] : null, p50: null, p99: null };
      buckets.set(second, bucket);
    }
    if (latencyMs === undefined) bucket.requests++;
    // A reply for a second already reduced is left out: its percentiles cannot be recomputed, and its reply
    // count says how many replies they cover.
    else if (bucket.latencies !== null) {
      bucket.latencies.push(latencyMs);
      bucket.replies++;
    }
  }

  /** A new latest second: reduce the seconds that closed, drop those out of the window. */
  private advance(second: number): void {
    this.newest = second;
    for (const [op, buckets] of this.ops) {
      for (const [at, bucket] of buckets) {
        if (at <= second - this.windowSeconds) buckets.delete(at);
        else if (at <= second - OPEN_SECONDS) reduce(bucket);
      }
      if (buckets.size === 0) this.ops.delete(op);
    }
  }

  /**
   * The points of every op within the window ending at `now`, oldest first, one per second from the op's
   * first second in the window to `now`'s second (quiet seconds are zero points, so a chart shows gaps).
   */
  points(now: number): Record<string, OpSeriesPoint[]> {
    const last = Math.max(Math.floor(now / 1000), this.newest);
    const out: Record<string, OpSeriesPoint[]> = {};
    for (const op of [...this.ops.keys()].sort()) {
      const buckets = this.ops.get(op) as Map<number, Bucket>;
      const seconds = [...buckets.keys()].filter((s) => s > last - this.windowSeconds);
      if (seconds.length === 0) continue;
      const points: OpSeriesPoint[] = [];
      for (let s = Math.min(...seconds); s <= last; s++) {
        const bucket = buckets.get(s);
        if (bucket === undefined) {
          points.push({ at: s * 1000, requests: 0, replies: 0, p50: null, p99: null });
          continue;
        }
        let { p50, p99 } = bucket;
        if (bucket.latencies !== null && bucket.latencies.length > 0) {
          const sorted = [...bucket.latencies].sort((a, b) => a - b);
          p50 = roundMs(nearestRank(sorted, 50));
          p99 = roundMs(nearestRank(sorted, 99));
        }
        points.push({ at: s * 1000, requests: bucket.requests, replies: bucket.replies, p50, p99 });
      }
      out[op] = points;
    }
    return out;
  }
}
