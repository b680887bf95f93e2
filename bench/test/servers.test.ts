// The server rows' arithmetic: best of the passes by the row's direction, the range, and the ratio's range.
import { describe, expect, it } from 'vitest';

import { serverTable, summarize } from '../servers/run.js';

describe('server rows', () => {
  it('keeps the best pass by direction, with the range of all', () => {
    expect(summarize([3, 1, 2], 'higher')).toEqual({ best: 3, min: 1, max: 3 });
    expect(summarize([3, 1, 2], 'lower')).toEqual({ best: 1, min: 1, max: 3 });
    expect(summarize([], 'lower')).toBeUndefined();
  });

  it('prints each row with both servers and zkts / ZooKeeper over the extremes of the passes', () => {
    const text = serverTable({ zkts: [{ get1: 200 }, { get1: 100 }], zookeeper: [{ get1: 100 }, { get1: 50 }] });
    const line = text.split('\n').find((l) => l.startsWith('getData pipelined, 1 connection')) ?? '';
    expect(line).toContain('200 (100–200)');
    expect(line).toContain('×2.00 (1.00–4.00)');
    expect(text).toMatch(/server process start → first reply\s+ms\s+—/);
    // A row only one server can have (in-process start) prints a dash for the other and no ratio.
    const inProcess = serverTable({ zkts: [{ startInProcessMs: 12 }], zookeeper: [{}] });
    expect(inProcess).toMatch(/startServer\(\) in-process → first reply\s+ms\s+12\.0 \(12\.0–12\.0\)\s+—\s+—/);
  });
});
