// Overlap accounting for the one-path lock tests: every holder (zkts in this process, Curator in a JVM, kazoo
// in Python, `zkts lock` commands) reports the interval it held the lock on one clock, CLOCK_MONOTONIC (Node's
// hrtime, Java's nanoTime and Python's monotonic_ns all read it), taken after the grant and before the release.
// So any intersection of a writer's interval with another is a real double grant, never a timing artefact.

export interface Held {
  readonly kind: 'read' | 'write';
  /** Who held it (for the failure message). */
  readonly who: string;
  readonly start: bigint;
  readonly end: bigint;
}

export interface OverlapReport {
  grants: number;
  writes: number;
  reads: number;
  /** Pairs of intervals with a writer in them that intersect. Must be 0. */
  overlaps: number;
  /** The first few overlaps, for the failure message. */
  examples: string[];
  /** Most readers seen holding at one instant (> 1: readers did share). */
  maxConcurrentReaders: number;
}

export function checkOverlaps(held: readonly Held[]): OverlapReport {
  const sorted = [...held].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  let overlaps = 0;
  const examples: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i] as Held;
    for (let j = i + 1; j < sorted.length; j++) {
      const b = sorted[j] as Held;
      if (b.start >= a.end) break; // sorted by start: nothing later can intersect a
      if (a.kind === 'write' || b.kind === 'write') {
        overlaps++;
        if (examples.length < 5) examples.push(`${a.who} ${a.kind} [${a.start}, ${a.end}] × ${b.who} ${b.kind} [${b.start}, ${b.end}]`);
      }
    }
  }
  // Sweep: +1 at a reader's start, -1 at its end.
  const edges = held.filter((h) => h.kind === 'read').flatMap((h) => [[h.start, 1] as const, [h.end, -1] as const]);
  edges.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1]));
  let readers = 0;
  let maxConcurrentReaders = 0;
  for (const [, d] of edges) {
    readers += d;
    maxConcurrentReaders = Math.max(maxConcurrentReaders, readers);
  }
  const writes = held.filter((h) => h.kind === 'write').length;
  return { grants: held.length, writes, reads: held.length - writes, overlaps, examples, maxConcurrentReaders };
}

/** Parses lines `<read|write> <who> <start> <end>` printed by a foreign process; other lines are ignored. */
export function parseHeld(output: string): Held[] {
  const out: Held[] = [];
  for (const line of output.split('\n')) {
    const m = /^(read|write) (\S+) (\d+) (\d+)$/.exec(line.trim());
    if (m) out.push({ kind: m[1] as 'read' | 'write', who: m[2]!, start: BigInt(m[3]!), end: BigInt(m[4]!) });
  }
  return out;
}

/** Whether the two groups' grants were interleaved in time (they contended, rather than ran one after the other). */
export function interleaved(a: readonly Held[], b: readonly Held[]): boolean {
  const within = (xs: readonly Held[], ys: readonly Held[]): boolean => {
    if (xs.length === 0) return false;
    const from = xs.reduce((m, h) => (h.start < m ? h.start : m), xs[0]!.start);
    const to = xs.reduce((m, h) => (h.end > m ? h.end : m), xs[0]!.end);
    return ys.some((h) => h.start > from && h.start < to);
  };
  return within(a, b) && within(b, a);
}
