/**
 * The traffic analysis on hand-made conversations: the branches real 3.8 traffic does not take in the
 * integration test (notifications that carry a zxid, a resume refused because the session expired, a client
 * silent past its timeout), the window grouping of unexplained notifications, and nearest-rank percentiles.
 */
import type { ConversationEntry } from '@zkts/protocol/inspect';
import { describe, expect, it } from 'vitest';

import type { ConversationLine } from '../../src/conversation.js';
import { formatReport, nearestRank, summarize, TrafficStats } from '../../src/stats/index.js';

function line(conn: number, time: number, dir: 'c2s' | 's2c', entry: Partial<ConversationEntry> & { kind: ConversationEntry['kind'] }, latencyMs?: number): ConversationLine {
  const full: ConversationEntry = { index: 0, dir, length: 0, ...entry };
  return latencyMs === undefined ? { conn, time, t: time, dir, entry: full } : { conn, time, t: time, dir, entry: full, latencyMs };
}

function handshake(stats: TrafficStats, conn: number, time: number, session: string, requested = '0', timeOut = 4000): void {
  stats.open(conn, `10.0.0.${conn}:1000`, time);
  stats.add(line(conn, time, 'c2s', { kind: 'connect', body: { sessionId: requested } }));
  stats.add(line(conn, time + 2, 's2c', { kind: 'connected', body: { sessionId: session, timeOut, expired: timeOut <= 0 } }));
}

function event(conn: number, time: number, type: string, path: string, zxid = '-1'): ConversationLine {
  return line(conn, time, 's2c', { kind: 'event', xid: -1, zxid, path, body: { type, state: 'SyncConnected', path } });
}

describe('traffic analysis', () => {
  it('nearest-rank percentiles pick measured values', () => {
    expect(nearestRank([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50)).toBe(5);
    expect(nearestRank([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)).toBe(9);
    expect(nearestRank([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 99)).toBe(10);
    expect(summarize([3.0004, 1, 2])).toMatchObject({ count: 3, min: 1, p50: 2, max: 3, mean: 2 });
  });

  it('groups notifications by zxid when the server sends one, and names the write with that zxid', () => {
    const stats = new TrafficStats();
    for (let c = 0; c < 4; c++) handshake(stats, c, 0, String(100 + c));
    stats.add(line(0, 10, 'c2s', { kind: 'request', xid: 1, op: 'delete', path: '/lock/a' }));
    for (let c = 1; c < 4; c++) stats.add(event(c, 11, 'NodeChildrenChanged', '/lock', '77'));
    stats.add(event(1, 11, 'NodeDeleted', '/lock/a', '77'));
    stats.add(line(0, 12, 's2c', { kind: 'reply', xid: 1, op: 'delete', path: '/lock/a', zxid: '77', err: 'OK' }, 2));
    const report = stats.report();
    expect(report.fanout.perChange).toEqual([
      { zxid: '0x4d', time: 11, types: ['NodeChildrenChanged', 'NodeDeleted'], paths: ['/lock', '/lock/a'], fanout: 3, notifications: 4, cause: { op: 'delete', path: '/lock/a', conn: 0 } },
    ]);
  });

  it('matches zxid-less notifications with the write that explains them, sequential creates included', () => {
    const stats = new TrafficStats();
    for (let c = 0; c < 3; c++) handshake(stats, c, 0, String(200 + c));
    stats.add(line(0, 10, 'c2s', { kind: 'request', xid: 1, op: 'create2', path: '/q/item-' }));
    stats.add(event(1, 11, 'NodeChildrenChanged', '/q'));
    stats.add(event(2, 11, 'NodeChildrenChanged', '/q'));
    stats.add(line(0, 12, 's2c', { kind: 'reply', xid: 1, op: 'create2', path: '/q/item-', zxid: '5', err: 'OK', body: { path: '/q/item-0000000007' } }, 2));
    // A setData that failed explains nothing; the notification after it belongs to the later one.
    stats.add(line(0, 20, 'c2s', { kind: 'request', xid: 2, op: 'setData', path: '/q' }));
    stats.add(line(0, 21, 's2c', { kind: 'reply', xid: 2, op: 'setData', path: '/q', zxid: '6', err: 'BAD_VERSION' }, 1));
    stats.add(line(1, 30, 'c2s', { kind: 'request', xid: 5, op: 'setData', path: '/q' }));
    stats.add(event(2, 31, 'NodeDataChanged', '/q'));
    // Nothing in the traffic explains this one (an ephemeral that went with its session).
    stats.add(event(1, 40, 'NodeDeleted', '/gone'));
    stats.add(event(2, 41, 'NodeDeleted', '/gone'));
    const changes = stats.report().fanout.perChange.map((c) => [c.types[0], c.fanout, c.cause && `${c.cause.op} ${c.cause.path} #${c.cause.conn}`]);
    expect(changes).toEqual([
      ['NodeChildrenChanged', 2, 'create2 /q/item-0000000007 #0'],
      ['NodeDataChanged', 1, 'setData /q #1'],
      ['NodeDeleted', 2, null],
    ]);
    expect(stats.report().errors).toEqual([{ err: 'BAD_VERSION', count: 1, ops: { setData: 1 } }]);
  });

  it('tells a refused resume (expired session) and a silent client apart in the session timeline', () => {
    const stats = new TrafficStats();
    handshake(stats, 0, 0, '4096');
    stats.add(line(0, 100, 'c2s', { kind: 'ping', xid: -2 }));
    stats.add(line(0, 6000, 'c2s', { kind: 'ping', xid: -2 }));
    stats.close(0, 6100, 'client closed');
    handshake(stats, 1, 7000, '0', '4096', 0);
    stats.close(1, 7003);
    const [session] = stats.report().sessions;
    expect(session).toMatchObject({ session: '0x1000', connections: 2, reconnects: 0, outcome: 'expired', pings: 2, timeoutMs: 4000 });
    expect(session?.events.map((e) => e.what)).toEqual([
      'connect from 10.0.0.0:1000 (new session)',
      'established, timeout 4000 ms',
      '2 ping(s), 0 request(s); longest client silence 5900 ms',
      'client silent longer than the session timeout (5900 > 4000 ms)',
      'connection closed (client closed)',
      'connect from 10.0.0.1:1000 (resume)',
      'refused: the session had expired',
      'connection closed',
    ]);
    expect(formatReport(stats.report())).toMatch(/0x1000 expired, 2 connection\(s\)/);
  });
});
