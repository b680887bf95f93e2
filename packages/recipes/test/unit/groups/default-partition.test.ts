// kazoo's default partition function for SetPartitioner and the order it rests on (Python's code-point order).
import { describe, expect, it } from 'vitest';

import { compareCodePoints, kazooPartition } from '../../../src/groups/default-partition.js';

describe('kazoo partition function', () => {
  it('sorted items, every n-th from the index in the sorted members (what python3 computes)', () => {
    const items = ['i7', 'i2', 'i9', 'i0', 'i5', 'i3', 'i8', 'i1', 'i6', 'i4'];
    const members = ['z', 'a', 'm'];
    // python3: [sorted(items)[sorted(members).index(x)::3] for x in ['a', 'm', 'z']]
    expect(kazooPartition('a', members, items)).toEqual(['i0', 'i3', 'i6', 'i9']);
    expect(kazooPartition('m', members, items)).toEqual(['i1', 'i4', 'i7']);
    expect(kazooPartition('z', members, items)).toEqual(['i2', 'i5', 'i8']);
  });

  it('covers every item exactly once across the members, for any member count', () => {
    const items = Array.from({ length: 23 }, (_, i) => `item-${i}`);
    for (let n = 1; n <= 9; n++) {
      const members = Array.from({ length: n }, (_, i) => `m${i}`);
      const all = members.flatMap((m) => kazooPartition(m, members, items));
      expect(all.sort()).toEqual([...items].sort());
    }
  });

  it('a member missing from the list gets nothing; more members than items leaves some empty', () => {
    expect(kazooPartition('x', ['a', 'b'], ['1', '2'])).toEqual([]);
    expect(kazooPartition('c', ['a', 'b', 'c'], ['1', '2'])).toEqual([]);
  });

  it("orders by code point like Python's sorted(), not by UTF-16 unit", () => {
    // python3: sorted(['\uffff', '\U0001F600', 'b', 'a', 'B']) == ['B', 'a', 'b', '\uffff', '😀']
    expect(['\uffff', '\u{1F600}', 'b', 'a', 'B'].sort(compareCodePoints)).toEqual(['B', 'a', 'b', '\uffff', '\u{1F600}']);
    expect(['\uffff', '\u{1F600}'].sort()).toEqual(['\u{1F600}', '\uffff']); // what the default sort would do
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
    expect(compareCodePoints('a', 'a')).toBe(0);
  });
});
