/**
 * The traffic analysis keeps bounded memory on a long-running proxy: latencies past the per-op cap become a
 * seeded uniform sample (exact count/min/max/mean, estimated percentiles, marked as such), closed
 * connections past the newest N are folded into the totals, the request-rate buckets coarsen without losing
 * exactness, op names are capped, and a connection whose replies never come stops growing its timing table.
 */
import type { ConversationEntry } from '@zkts/protocol/inspect';
import { describe, expect, it } from 'vitest';

import { ConnectionConversation, MAX_UNANSWERED, type ConversationLine } from '../../src/conversation.js';
import { formatReport, LatencySamples, nearestRank, summarize, TrafficStats } from '../../src/stats/index.js';
import type { TrafficStatsOptions } from '../../src/stats/index.js';

function line(conn: number, time: number, dir: 'c2s' | 's2c', entry: Partial<ConversationEntry> & { kind: ConversationEntry['kind'] }, latencyMs?: number): ConversationLine {
  const full: ConversationEntry = { index: 0, dir, length: 0, ...entry };
  return latencyMs === undefined ? { conn, time, t: time, dir, entry: full } : { conn, time, t: time, dir, entry: full, latencyMs };
}

/** A PRNG independent of the collector's, for the synthetic latencies. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s + 0.5) / 4294967296;
  };
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

/** `n` getData request/reply pairs on one connection, latencies exponential with mean 5 ms. */
function feedExponential(n: number, options: TrafficStatsOptions = {}): { stats: TrafficStats; samples: number[] } {
  const stats = new TrafficStats(options);
  const random = lcg(42);
  const samples: number[] = [];
  stats.open(0, '10.0.0.1:1000', 0);
  let time = 0;
  for (let xid = 1; xid <= n; xid++) {
    const ms = -Math.log(1 - random()) * 5;
    samples.push(ms);
    stats.add(line(0, time, 'c2s', { kind: 'request', xid, op: 'getData', path: '/a' }));
    stats.add(line(0, time + ms, 's2c', { kind: 'reply', xid, op: 'getData', path: '/a', err: 'OK' }, ms));
    time += 1;
  }
  return { stats, samples };
}

function shortConnection(stats: TrafficStats, conn: number, time: number, session: bigint, requested = 0n): void {
  stats.open(conn, `10.0.${conn >> 8}.${conn & 255}:1000`, time);
  stats.add(line(conn, time, 'c2s', { kind: 'connect', body: { sessionId: String(requested) } }));
  stats.add(line(conn, time + 1, 's2c', { kind: 'connected', body: { sessionId: String(session), timeOut: 4000, expired: false } }));
  stats.add(line(conn, time + 2, 'c2s', { kind: 'request', xid: 1, op: 'exists', path: '/x' }));
  stats.add(line(conn, time + 3, 's2c', { kind: 'reply', xid: 1, op: 'exists', path: '/x', err: 'OK' }, 1 + (conn % 7)));
  stats.close(conn, time + 4, 'client closed');
}

describe('bounded traffic analysis', () => {
  it('past the cap keeps a uniform sample of the latencies: exact count/min/max/mean, p50/p99 within 3%, marked as estimates', () => {
    const { stats, samples } = feedExponential(200_000);
    const held = stats.latencies.get('getData');
    expect(held?.count).toBe(200_000);
    expect(held?.kept).toBe(50_000);
    expect(held?.sampled).toBe(true);

    const report = stats.report();
    const truth = [...samples].sort((a, b) => a - b);
    const summary = report.latency['getData'];
    expect(summary).toMatchObject({
      count: 200_000,
      min: round(truth[0] as number),
      max: round(truth[truth.length - 1] as number),
      mean: round(samples.reduce((n, v) => n + v, 0) / samples.length),
      sampled: true,
      samples: 50_000,
    });
    for (const [p, estimate] of [[50, summary?.p50], [90, summary?.p90], [99, summary?.p99]] as const) {
      const exact = nearestRank(truth, p);
      expect(Math.abs((estimate as number) - exact) / exact, `p${p}: ${estimate} vs ${exact}`).toBeLessThan(0.03);
    }
    expect(formatReport(report)).toMatch(/\(p50\/p90\/p99 of getData are estimates from a uniform sample of 50000 latencies; count, max and mean are exact\)/);
  });

  it('samples deterministically: the same traffic gives the same report; a different seed gives another sample', () => {
    const a = feedExponential(60_000, { maxSamplesPerOp: 1000 }).stats.report();
    const b = feedExponential(60_000, { maxSamplesPerOp: 1000 }).stats.report();
    const c = feedExponential(60_000, { maxSamplesPerOp: 1000, seed: 7 }).stats.report();
    expect(b.latency).toEqual(a.latency);
    expect(c.latency['getData']).toMatchObject({ count: 60_000, min: a.latency['getData']?.min, max: a.latency['getData']?.max, mean: a.latency['getData']?.mean });
    expect([c.latency['getData']?.p50, c.latency['getData']?.p90]).not.toEqual([a.latency['getData']?.p50, a.latency['getData']?.p90]);
  });

  it('up to the cap every latency is kept and the summary is exactly the nearest-rank one, with no sampling fields', () => {
    const random = lcg(1);
    const held = new LatencySamples(50_000, 1);
    const all: number[] = [];
    for (let i = 0; i < 50_000; i++) {
      const ms = random() * 100;
      all.push(ms);
      held.add(ms);
    }
    expect(held.sampled).toBe(false);
    expect(held.summary()).toEqual(summarize(all));
    expect(Object.keys(held.summary())).not.toContain('sampled');
    held.add(1);
    expect(held).toMatchObject({ sampled: true, kept: 50_000, count: 50_001 });
  });

  it('3000 short connections keep the newest 1000 closed ones; the totals count all and say how many were dropped', () => {
    const stats = new TrafficStats();
    // One long-lived connection, opened first: open connections are never dropped.
    stats.open(9999, '10.9.9.9:1000', 0);
    stats.add(line(9999, 0, 'c2s', { kind: 'connect', body: { sessionId: '0' } }));
    stats.add(line(9999, 1, 's2c', { kind: 'connected', body: { sessionId: '999999', timeOut: 4000, expired: false } }));
    for (let conn = 0; conn < 3000; conn++) shortConnection(stats, conn, 10 + conn * 10, BigInt(1000 + conn));
    expect(stats.conns.size).toBe(1001);
    expect(stats.connections.dropped).toBe(2000);
    // A stray late line for a recently dropped connection does not bring it back as an open one.
    stats.add(line(1999, 40_000, 's2c', { kind: 'ping', xid: -2 }));
    expect(stats.conns.has(1999)).toBe(false);

    const report = stats.report();
    expect(report.totals).toMatchObject({ connections: 3001, sessions: 3001, droppedConnections: 2000, requests: 3000, replies: 3000 });
    expect(report.sessions).toHaveLength(1001);
    const kept = report.sessions.map((s) => s.session);
    expect(kept).toContain(`0x${(999999).toString(16)}`);
    expect(kept).toContain(`0x${(1000 + 2000).toString(16)}`);
    expect(kept).not.toContain(`0x${(1000 + 1999).toString(16)}`);
    expect(report.latency['exists']?.count).toBe(3000);
    expect(formatReport(report)).toMatch(/3001 connection\(s\), 3001 session\(s\).*; 2000 older closed connection\(s\) counted but left out of the sessions below/);
  });

  it('a session resumed after its first connection was dropped is counted once; the slowest request still names its session', () => {
    const stats = new TrafficStats({ maxClosedConnections: 2 });
    stats.open(0, 'a:1', 0);
    stats.add(line(0, 0, 'c2s', { kind: 'connect', body: { sessionId: '0' } }));
    stats.add(line(0, 1, 's2c', { kind: 'connected', body: { sessionId: '4096', timeOut: 4000, expired: false } }));
    stats.add(line(0, 2, 'c2s', { kind: 'request', xid: 1, op: 'getData', path: '/slow' }));
    stats.add(line(0, 500, 's2c', { kind: 'reply', xid: 1, op: 'getData', path: '/slow', err: 'OK' }, 498));
    stats.close(0, 501);
    for (let conn = 1; conn <= 3; conn++) shortConnection(stats, conn, 1000 * conn, BigInt(conn));
    shortConnection(stats, 4, 5000, 4096n, 4096n);
    const report = stats.report();
    expect(report.totals).toMatchObject({ connections: 5, sessions: 4, droppedConnections: 3 });
    expect(report.slowest[0]).toMatchObject({ conn: 0, latencyMs: 498, session: '0x1000' });
    expect(report.sessions.find((s) => s.session === '0x1000')).toMatchObject({ connections: 1 });
  });

  it('the request rate stays exact while its stored buckets coarsen, and stays bounded', () => {
    const stats = new TrafficStats();
    const perSecond = new Map<number, number>();
    const random = lcg(3);
    let time = 1_700_000_000_000;
    for (let i = 0; i < 30_000; i++) {
      time += Math.floor(random() * 3000);
      const burst = i % 997 === 0 ? 5 : 1;
      for (let k = 0; k < burst; k++) {
        stats.add(line(0, time, 'c2s', { kind: 'request', xid: i * 10 + k, op: 'exists', path: '/r' }));
        perSecond.set(Math.floor(time / 1000), (perSecond.get(Math.floor(time / 1000)) ?? 0) + 1);
      }
    }
    expect(perSecond.size).toBeGreaterThan(7200);
    expect(stats.rate.stored).toBeLessThanOrEqual(7200);
    // The report as it was computed from every second kept.
    const seconds = [...perSecond.keys()];
    const from = Math.min(...seconds);
    const to = Math.max(...seconds);
    const span = to - from + 1;
    const size = [1, 5, 10, 30, 60, 300, 600, 1800, 3600].find((s) => span / s <= 60) ?? Math.ceil(span / 60);
    const buckets = new Map<number, number>();
    for (const [second, count] of perSecond) buckets.set(Math.floor((second - from) / size), (buckets.get(Math.floor((second - from) / size)) ?? 0) + count);
    const expected = Array.from({ length: Math.floor((to - from) / size) + 1 }, (_, b) => ({ t: b * size * 1000, requests: buckets.get(b) ?? 0 }));
    expect(stats.report().rate).toEqual({ bucketMs: size * 1000, buckets: expected, peakPerSecond: Math.max(...perSecond.values()) });
  });

  it('counts at most 256 op names apart; the rest share `other`', () => {
    const stats = new TrafficStats();
    for (let op = 0; op < 400; op++) stats.add(line(0, op, 's2c', { kind: 'reply', xid: op, op: `op(${op + 1000})`, err: 'UNIMPLEMENTED' }, 1));
    expect(stats.latencies.size).toBe(257);
    const report = stats.report();
    expect(report.latency['other']?.count).toBe(144);
    expect(Object.keys(report.errors[0]?.ops ?? {})).toHaveLength(257);
  });

  it('a connection whose replies never come times at most MAX_UNANSWERED requests, forgetting the oldest', () => {
    const c = new ConnectionConversation(0, 0);
    const request = (xid: number): Uint8Array => {
      const path = Buffer.from('/n');
      const frame = Buffer.alloc(4 + 4 + 4 + path.length + 1);
      frame.writeInt32BE(xid, 0);
      frame.writeInt32BE(4, 4); // getData
      frame.writeInt32BE(path.length, 8);
      path.copy(frame, 12);
      return frame;
    };
    const noNode = (xid: number): Uint8Array => {
      const frame = Buffer.alloc(16);
      frame.writeInt32BE(xid, 0);
      frame.writeBigInt64BE(5n, 4);
      frame.writeInt32BE(-101, 12);
      return frame;
    };
    for (let xid = 1; xid <= MAX_UNANSWERED + 10; xid++) c.frame('c2s', request(xid), xid);
    expect(c.unanswered).toBe(MAX_UNANSWERED);
    expect(c.frame('s2c', noNode(5), 200_000).latencyMs).toBeUndefined();
    expect(c.frame('s2c', noNode(MAX_UNANSWERED + 10), 200_000).latencyMs).toBe(200_000 - (MAX_UNANSWERED + 10));
  });
});
