/** The traffic chart's per-op series: one point per second, percentiles per second, a bounded window. */
import { describe, expect, it } from 'vitest';

import { OpSeries } from '../../../src/console/sources/op-series.js';

const T0 = 1_700_000_000_000;

describe('OpSeries', () => {
  it('counts requests and takes reply latency percentiles per second, zero points for quiet seconds', () => {
    const series = new OpSeries();
    for (let i = 0; i < 3; i++) series.note('getData', T0 + 100 + i, undefined);
    for (const ms of [1, 2, 3, 4, 100]) series.note('getData', T0 + 500, ms);
    series.note('getData', T0 + 2_100, undefined);
    series.note('getData', T0 + 2_200, 7.5);
    series.note('create', T0 + 2_300, undefined);
    expect(series.points(T0 + 3_000)).toEqual({
      create: [
        { at: T0 + 2_000, requests: 1, replies: 0, p50: null, p99: null },
        { at: T0 + 3_000, requests: 0, replies: 0, p50: null, p99: null },
      ],
      getData: [
        { at: T0, requests: 3, replies: 5, p50: 3, p99: 100 },
        { at: T0 + 1_000, requests: 0, replies: 0, p50: null, p99: null },
        { at: T0 + 2_000, requests: 1, replies: 1, p50: 7.5, p99: 7.5 },
        { at: T0 + 3_000, requests: 0, replies: 0, p50: null, p99: null },
      ],
    });
  });

  it('keeps the percentiles of a second once it is reduced, and late replies still count in open seconds', () => {
    const series = new OpSeries();
    series.note('exists', T0, 10);
    series.note('exists', T0 + 1_000, 20);
    // T0's second is still open (the newest two seconds keep raw latencies): a late reply joins it.
    series.note('exists', T0 + 999, 30);
    series.note('exists', T0 + 5_000, 1);
    const points = series.points(T0 + 5_000)['exists'] ?? [];
    expect(points[0]).toEqual({ at: T0, requests: 0, replies: 2, p50: 10, p99: 30 });
    expect(points[1]).toEqual({ at: T0 + 1_000, requests: 0, replies: 1, p50: 20, p99: 20 });
    // A reply for a reduced second does not change its percentiles.
    series.note('exists', T0 + 10, 1000);
    expect(series.points(T0 + 5_000)['exists']?.[0]).toEqual({ at: T0, requests: 0, replies: 2, p50: 10, p99: 30 });
  });

  it('counts a reply in the second it arrives: a request sent as a second ends is answered in the next point', () => {
    const series = new OpSeries();
    series.note('getData', T0 + 100, undefined);
    series.note('getData', T0 + 101, 0.5);
    series.note('getData', T0 + 999, undefined);
    series.note('getData', T0 + 1_001, 2);
    expect(series.points(T0 + 1_500)['getData']).toEqual([
      { at: T0, requests: 2, replies: 1, p50: 0.5, p99: 0.5 },
      { at: T0 + 1_000, requests: 0, replies: 1, p50: 2, p99: 2 },
    ]);
  });

  it('drops seconds older than the window', () => {
    const series = new OpSeries(10);
    series.note('getData', T0, undefined);
    series.note('setData', T0 + 5_000, undefined);
    expect(series.points(T0 + 9_000)['getData']).toHaveLength(10);
    series.note('setData', T0 + 12_000, undefined);
    const points = series.points(T0 + 12_000);
    expect(points['getData']).toBeUndefined();
    expect(points['setData']?.map((p) => p.at)).toEqual(Array.from({ length: 8 }, (_, i) => T0 + 5_000 + i * 1000));
    // Nothing older than the window comes back.
    series.note('getData', T0 + 1_000, undefined);
    expect(series.points(T0 + 12_000)['getData']).toBeUndefined();
  });
});
