// The cache rows' arithmetic: which figure of several passes a row keeps, and the latency summary.
import { describe, expect, it } from 'vitest';

import { keptOfPasses, summarize } from '../caches/params.js';

describe('keptOfPasses', () => {
  it('keeps each time at its best pass and the heap at its median pass, metric by metric', () => {
    const passes = [
      { loadMs: 150, heapPerNode: 334, eventP50Us: 600, eventP99Us: 4000 },
      { loadMs: 200, heapPerNode: 231, eventP50Us: 450, eventP99Us: 900 },
      { loadMs: 120, heapPerNode: 341, eventP50Us: 500, eventP99Us: 1200 },
    ];
    // Not one pass: the load from the third, the latencies from the second, the heap from the first.
    expect(keptOfPasses(passes)).toEqual({ loadMs: 120, heapPerNode: 334, eventP50Us: 450, eventP99Us: 900 });
  });

  it('takes the lower middle of an even number of heap readings and a lone pass as it is', () => {
    expect(keptOfPasses([{ heapPerNode: 300 }, { heapPerNode: 100 }])).toEqual({ heapPerNode: 100 });
    expect(keptOfPasses([{ loadMs: 7, heapPerNode: 9 }])).toEqual({ loadMs: 7, heapPerNode: 9 });
  });

  it('keeps a metric only some passes reported, from those', () => {
    expect(keptOfPasses([{ loadMs: 5 }, { loadMs: 9, nodes: 3 }])).toEqual({ loadMs: 5, nodes: 3 });
  });
});

describe('summarize', () => {
  it('reads p50 and p99 by nearest rank', () => {
    const lat = Float64Array.from({ length: 1000 }, (_, i) => 1000 - i);
    // Ranks 500 and 990 of 1..1000.
    expect(summarize(lat)).toEqual({ eventP50Us: 500, eventP99Us: 990 });
  });
});
