/**
 * The session/watch parsers on output captured from a real ZooKeeper 3.8 server (test/fixtures/four-letter/,
 * made by test/support/capture-four-letter.ts): session A 0x10000ac9f020000 (timeout 10 s) owns
 * /app/members/a-0000000000 and /app/lock and watches /app/config; session B 0x10000ac9f020001 (20 s) owns
 * /app/members/b and watches /app/config and /app/lock.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import {
  hotPaths,
  mergeSessions,
  parseCons,
  parseDump,
  parseWatchesByPath,
  parseWatchesBySession,
  refusal,
  socketAddress,
} from '../../../src/console/sources/four-letter-parse.js';
import { parseFourLetter } from '../../../src/commands/four-letter.js';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/four-letter/${name}`, import.meta.url), 'utf8');
const A = 0x10000ac9f020000n;
const B = 0x10000ac9f020001n;

describe('four-letter parsers on ZooKeeper 3.8 output', () => {
  it('cons: one connection a line, sessions with address, timeout, counters and last op', () => {
    const cons = parseCons(fixture('zk38-cons.txt'));
    expect(cons).toHaveLength(3);
    expect(cons[0]).toMatchObject({ address: '127.0.0.1:57036', session: A, timeoutMs: 10_000, received: 8, sent: 8, lastOp: 'GETC' });
    expect(cons[0]?.fields['lzxid']).toBe('0x8');
    expect(cons[1]).toMatchObject({ address: '127.0.0.1:57044', session: B, timeoutMs: 20_000, received: 4, sent: 4, lastOp: 'EXIS' });
    // The four-letter connection itself: no session yet.
    expect(cons[2]).toMatchObject({ address: '127.0.0.1:57060', session: undefined, timeoutMs: undefined, received: 1, sent: 0 });
  });

  it('Java socket addresses: hostname/ip, IPv6 with or without brackets', () => {
    expect(socketAddress('/127.0.0.1:2181')).toBe('127.0.0.1:2181');
    expect(socketAddress('localhost/127.0.0.1:2181')).toBe('127.0.0.1:2181');
    expect(socketAddress('/0:0:0:0:0:0:0:1:40000')).toBe('[0:0:0:0:0:0:0:1]:40000');
    expect(socketAddress('/[0:0:0:0:0:0:0:1]:40000')).toBe('[0:0:0:0:0:0:0:1]:40000');
    const v6 = parseCons(' /[0:0:0:0:0:0:0:1]:40000[1](queued=0,recved=2,sent=2,sid=0x1,lop=PING,to=4000)\n');
    expect(v6[0]).toMatchObject({ address: '[0:0:0:0:0:0:0:1]:40000', session: 1n, lastOp: 'PING' });
  });

  it('wchc: the data watches of each session', () => {
    const bySession = parseWatchesBySession(fixture('zk38-wchc.txt'));
    expect([...bySession]).toEqual([
      [A, ['/app/config']],
      [B, ['/app/config', '/app/lock']],
    ]);
  });

  it('wchp: the watchers of each path', () => {
    const byPath = parseWatchesByPath(fixture('zk38-wchp.txt'));
    expect([...byPath]).toEqual([
      ['/app/config', [A, B]],
      ['/app/lock', [B]],
    ]);
  });

  it('dump: sessions, ephemerals by owner, connection addresses', () => {
    const dump = parseDump(fixture('zk38-dump.txt'));
    expect(dump.sessions).toEqual([A, B]);
    expect([...dump.ephemerals]).toEqual([
      [A, ['/app/members/a-0000000000', '/app/lock']],
      [B, ['/app/members/b']],
    ]);
    expect([...dump.addresses]).toEqual([
      [A, '127.0.0.1:57036'],
      [B, '127.0.0.1:57044'],
    ]);
  });

  it('merges every word into one entry per session and ranks hot paths', () => {
    const words = {
      cons: parseCons(fixture('zk38-cons.txt')),
      wchc: parseWatchesBySession(fixture('zk38-wchc.txt')),
      wchp: parseWatchesByPath(fixture('zk38-wchp.txt')),
      dump: parseDump(fixture('zk38-dump.txt')),
    };
    expect(mergeSessions(words)).toEqual([
      { id: '0x10000ac9f020000', address: '127.0.0.1:57036', timeoutMs: 10_000, ephemerals: ['/app/members/a-0000000000', '/app/lock'], watches: ['/app/config'], received: 8, sent: 8, lastOp: 'GETC' },
      { id: '0x10000ac9f020001', address: '127.0.0.1:57044', timeoutMs: 20_000, ephemerals: ['/app/members/b'], watches: ['/app/config', '/app/lock'], received: 4, sent: 4, lastOp: 'EXIS' },
    ]);
    expect(hotPaths(words)).toEqual([
      { path: '/app/config', watchers: 2 },
      { path: '/app/lock', watchers: 1 },
    ]);
    // Without wchp, the hot paths come from wchc inverted; without cons, addresses come from dump.
    const partial = { wchc: words.wchc, dump: words.dump };
    expect(hotPaths(partial)).toEqual(hotPaths(words));
    expect(mergeSessions(partial).map((s) => [s.address, s.timeoutMs, s.lastOp])).toEqual([
      ['127.0.0.1:57036', null, null],
      ['127.0.0.1:57044', null, null],
    ]);
  });

  it('tells a refusal from an answer', () => {
    expect(refusal('cons', fixture('zk38-limited-cons.txt'))).toBe('cons is not executed because it is not in the whitelist.');
    expect(refusal('cons', '')).toMatch(/without an answer.*4lw\.commands\.whitelist/);
    expect(refusal('mntr', 'This ZooKeeper instance is not currently serving requests\n')).toMatch(/not currently serving/);
    expect(refusal('cons', fixture('zk38-cons.txt'))).toBeNull();
  });

  it('mntr: numbers stay numbers, the version stays text', () => {
    const values = parseFourLetter(fixture('zk38-mntr.txt'));
    expect(values['zk_version']).toMatch(/^3\.8\./);
    expect(values['zk_server_state']).toBe('standalone');
    expect(values['zk_ephemerals_count']).toBe(3);
    expect(values['zk_watch_count']).toBe(4);
    expect(values['zk_avg_latency']).toBe(2.4167);
  });
});
