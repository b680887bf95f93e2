// The index arithmetic the children pages rest on: code-unit order and the contiguous range of a name prefix.
import { describe, expect, it } from 'vitest';

import { compareNames, prefixRange } from '../../../src/console/children-cache.js';

describe('prefixRange', () => {
  const names = ['a', 'ab', 'abc', 'b', 'ba', 'c', 'é', '\u{1f600}'].sort(compareNames);

  it('finds the contiguous range of names starting with a prefix', () => {
    expect(prefixRange(names, '')).toEqual([0, names.length]);
    const [start, end] = prefixRange(names, 'ab');
    expect(names.slice(start, end)).toEqual(['ab', 'abc']);
    expect(names.slice(...prefixRange(names, 'b'))).toEqual(['b', 'ba']);
    expect(names.slice(...prefixRange(names, 'é'))).toEqual(['é']);
  });

  it('is empty for a prefix nothing starts with, before, between or after the names', () => {
    for (const prefix of ['0', 'abd', 'bb', 'zz', '\u{1f601}']) {
      const [start, end] = prefixRange(names, prefix);
      expect(end - start, prefix).toBe(0);
    }
  });

  it('agrees with a linear filter on many names', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `n${(i * 7919) % 5000}`).sort(compareNames);
    for (const prefix of ['n1', 'n12', 'n499', 'n5', 'n']) {
      expect(many.slice(...prefixRange(many, prefix))).toEqual(many.filter((n) => n.startsWith(prefix)));
    }
  });
});
