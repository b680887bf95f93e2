import { describe, expect, it } from 'vitest';

import { LOCK_MARKERS } from '../../../src/locks/lock-rule.js';
import { compareSequence, formatSequence, parseContender, parseSequence, sortContenders } from '../../../src/internal/names.js';

import { BOUNDARY_CASES, namesOf } from '../../support/sequence-boundary.js';

const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const curator = (seq: string, marker = 'lock-'): string => `_c_${UUID}-${marker}${seq}`;

describe('parseSequence', () => {
  it('reads ZooKeeper %010d suffixes, including the negative ones past 2^31', () => {
    expect(parseSequence('0000000000')).toBe(0);
    expect(parseSequence('0000000042')).toBe(42);
    expect(parseSequence('2147483647')).toBe(2147483647);
    expect(parseSequence('-2147483648')).toBe(-2147483648);
    expect(parseSequence('-000000001')).toBe(-1);
    expect(parseSequence('-999999999')).toBe(-999999999);
  });

  it('rejects what ZooKeeper never appends', () => {
    expect(parseSequence('42')).toBeUndefined();
    expect(parseSequence('00000000042')).toBeUndefined();
    expect(parseSequence('2147483648')).toBeUndefined();
    expect(parseSequence('-2147483649')).toBeUndefined();
    expect(parseSequence('00000000x1')).toBeUndefined();
  });

  it('formatSequence is the inverse, Java style (width 10 including the sign)', () => {
    for (const n of [0, 7, 2147483647, -1, -999999999, -1000000000, -2147483648]) {
      const s = formatSequence(n);
      expect(s.length).toBe(n <= -1000000000 ? 11 : 10);
      expect(parseSequence(s)).toBe(n);
    }
    expect(formatSequence(-1)).toBe('-000000001');
  });
});

describe('parseContender', () => {
  it('recognises Curator mutex names and keeps the protection prefix apart', () => {
    const c = parseContender(curator('0000000005'), LOCK_MARKERS);
    expect(c).toMatchObject({ prefix: `_c_${UUID}-`, marker: 'lock-', sequence: 5, kind: 'write' });
  });

  it('reads a negative sequence after a marker that ends in a dash (lock--2147483648)', () => {
    expect(parseContender(curator('-2147483648'), LOCK_MARKERS)?.sequence).toBe(-2147483648);
    expect(parseContender(curator('-000000001'), LOCK_MARKERS)?.sequence).toBe(-1);
  });

  it('recognises kazoo names, readers included', () => {
    expect(parseContender('9f1c2d__lock__0000000003', LOCK_MARKERS)).toMatchObject({ prefix: '9f1c2d', sequence: 3, kind: 'write' });
    expect(parseContender('9f1c2d__rlock__0000000004', LOCK_MARKERS)).toMatchObject({ marker: '__rlock__', kind: 'read' });
  });

  it('recognises Curator and kazoo read-write names with their side', () => {
    expect(parseContender(curator('0000000001', '__READ__'), LOCK_MARKERS)?.kind).toBe('read');
    expect(parseContender(curator('0000000001', '__WRIT__'), LOCK_MARKERS)?.kind).toBe('write');
    expect(parseContender('abc__rlock__0000000001', LOCK_MARKERS)?.kind).toBe('read');
    expect(parseContender('abc__lock__0000000001', LOCK_MARKERS)?.kind).toBe('write');
  });

  it('ignores foreign children', () => {
    for (const name of ['config', 'lock-', 'lock-12', 'leases', `_c_${UUID}-lock-00000000a1`, 'x-0000000001', 'ready']) {
      expect(parseContender(name, LOCK_MARKERS)).toBeUndefined();
    }
    // Other recipes' markers are not lock contenders.
    expect(parseContender(curator('0000000001', 'latch-'), LOCK_MARKERS)).toBeUndefined();
    expect(parseContender(curator('0000000001', 'lease-'), LOCK_MARKERS)).toBeUndefined();
  });
});

describe('ordering', () => {
  it('compares sequences with serial arithmetic across the 2^31 wrap', () => {
    expect(compareSequence(1, 2)).toBeLessThan(0);
    expect(compareSequence(2147483647, -2147483648)).toBeLessThan(0);
    expect(compareSequence(-2147483648, 2147483647)).toBeGreaterThan(0);
    expect(compareSequence(-1, 0)).toBeLessThan(0);
    expect(compareSequence(5, 5)).toBe(0);
  });

  it('sorts on the sequence only, whatever the prefix, and drops foreign children', () => {
    const names = [`_c_zzz-lock-0000000003`, 'foreign', `_c_aaa-lock-0000000010`, 'k__lock__0000000001', `_c_mmm-lock-0000000002`];
    expect(sortContenders(names, LOCK_MARKERS).map((c) => c.sequence)).toEqual([1, 2, 3, 10]);
  });

  // The same listings as the Curator side (test/integration/locks/sequence-order.test.ts): zkts keeps creation
  // order in every one; Curator's text order parts from it wherever `parts` says.
  for (const c of BOUNDARY_CASES) {
    it(`keeps creation order at the 2^31 wrap: ${c.what}`, () => {
      expect(sortContenders(namesOf(c), LOCK_MARKERS).map((x) => x.sequence)).toEqual(c.created);
    });
  }

  it('serial arithmetic is a total order only within 2^31: exactly 2^31 apart, each precedes the other', () => {
    // Live contenders of one directory are never that far apart (2^31 child changes while the oldest waits).
    expect(compareSequence(0, -2147483648)).toBeLessThan(0);
    expect(compareSequence(-2147483648, 0)).toBeLessThan(0);
  });

  it('puts a downgraded read node (same sequence as its write node) before the write node', () => {
    const names = [curator('0000000005', '__WRIT__'), `_c_other-__READ__0000000005`, curator('0000000006', '__WRIT__')];
    expect(sortContenders(names, LOCK_MARKERS).map((c) => `${c.kind}${c.sequence}`)).toEqual(['read5', 'write5', 'write6']);
  });
});
