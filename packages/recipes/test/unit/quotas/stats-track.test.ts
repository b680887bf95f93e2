// The StatsTrack text of quota nodes: read as ZooKeeper's StatsTrack(String) reads it (both separators, the
// trailing `=` after bytes, an empty value as -1), written as its toString writes it (count and bytes first, the
// rest sorted after `=` and `;`), and bounded: what StatsTrack would throw on, and what we refuse to read
// inexactly, is a QuotaFormatError with the node's path, never a number.
import { describe, expect, it } from 'vitest';

import { QuotaFormatError } from '../../../src/quotas/errors.js';
import { formatStatsTrack, limitOf, MAX_TEXT_BYTES, parseStatsTrack } from '../../../src/quotas/stats-track.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const parse = (s: string): Record<string, number> => Object.fromEntries(parseStatsTrack(bytes(s), '/zookeeper/quota/a/zookeeper_limits'));

describe('parseStatsTrack', () => {
  it('reads what zkCli and the server write', () => {
    expect(parse('count=5,bytes=-1=;byteHardLimit=100;countHardLimit=-1')).toEqual({ count: 5, bytes: -1, byteHardLimit: 100, countHardLimit: -1 });
    expect(parse('count=3,bytes=12')).toEqual({ count: 3, bytes: 12 });
    // 3.4's writer: no hard limits at all.
    expect(parse('count=-1,bytes=1000')).toEqual({ count: -1, bytes: 1000 });
  });

  it('follows StatsTrack\'s quirks: either separator, runs of them, trailing "=", "key==" as not set, a sign', () => {
    expect(parse('count=1;;bytes=2,,')).toEqual({ count: 1, bytes: 2 });
    expect(parse('bytes=5===')).toEqual({ bytes: 5 });
    expect(parse('count==7')).toEqual({ count: -1 });
    expect(parse('count=+4')).toEqual({ count: 4 });
    expect(parse('count=1,count=2')).toEqual({ count: 2 });
    expect(parse('')).toEqual({});
    expect(parse('custom=9')).toEqual({ custom: 9 });
  });

  it.each([
    ['a value that is not a number', 'count=many', "count=many is not an integer"],
    ['a key without a value', 'count', "'count' is not key=value"],
    ['a value without a key', '=5', "'=5' is not key=value"],
    ['a fraction', 'bytes=1.5', 'bytes=1.5 is not an integer'],
    ['a long beyond 2^53', 'bytes=9223372036854775807', 'beyond what zkts reads exactly'],
    ['more digits than a long', 'bytes=99999999999999999999', 'not an integer'],
  ])('refuses %s', (_, input, reason) => {
    const error = (() => {
      try {
        parse(input);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(QuotaFormatError);
    expect(error).toMatchObject({ code: 'QUOTA_FORMAT', path: '/zookeeper/quota/a/zookeeper_limits' });
    expect((error as Error).message).toContain(reason);
  });

  it('is bounded: text too long, too many pairs, keys too long, bytes that are not UTF-8', () => {
    expect(() => parseStatsTrack(new Uint8Array(MAX_TEXT_BYTES + 1).fill(0x3b), '/q')).toThrow(/more than a quota text/);
    expect(() => parse(Array.from({ length: 65 }, (_, i) => `k${i}=1`).join(','))).toThrow(/more than 64 pairs/);
    expect(() => parse(`${'k'.repeat(129)}=1`)).toThrow(/a key of 129 characters/);
    expect(() => parseStatsTrack(new Uint8Array([0x63, 0xff, 0x3d, 0x31]), '/q')).toThrow(/not UTF-8/);
  });
});

describe('formatStatsTrack', () => {
  const format = (o: Record<string, number>): string => formatStatsTrack(new Map(Object.entries(o)));

  it('writes count and bytes first, then "=" and the other keys sorted, each after ";"', () => {
    expect(format({ countHardLimit: -1, byteHardLimit: 100, bytes: -1, count: 5 })).toBe('count=5,bytes=-1=;byteHardLimit=100;countHardLimit=-1');
    expect(format({ bytes: 12, count: 3 })).toBe('count=3,bytes=12');
    // Missing count or bytes are written as -1, as StatsTrack's getters answer.
    expect(format({ zzz: 1 })).toBe('count=-1,bytes=-1=;zzz=1');
    expect(format({})).toBe('count=-1,bytes=-1');
  });

  it('reads back what it writes', () => {
    const text = 'count=10,bytes=50=;byteHardLimit=1000;countHardLimit=20';
    expect(formatStatsTrack(parseStatsTrack(bytes(text), '/q'))).toBe(text);
  });
});

describe('limitOf', () => {
  it('a negative value (StatsTrack\'s -1) or a missing key is not set', () => {
    const pairs = new Map([['count', -1], ['bytes', 0], ['byteHardLimit', -7]]);
    expect(limitOf(pairs, 'count')).toBeUndefined();
    expect(limitOf(pairs, 'bytes')).toBe(0);
    expect(limitOf(pairs, 'byteHardLimit')).toBeUndefined();
    expect(limitOf(pairs, 'countHardLimit')).toBeUndefined();
  });
});
