// The one rule for every contender under a lock path (lock-rule.ts), whoever wrote the node: writers block
// everyone after them, readers only the writers after them; the node a waiter watches; the fast handoff.
import { describe, expect, it } from 'vitest';

import { decide, holderIndexes, LOCK_MARKERS, readerDecision, writerDecision } from '../../../src/locks/lock-rule.js';
import { formatSequence, sortContenders, type Contender } from '../../../src/internal/names.js';

/**
 * A queue from a pattern, one letter per contender in sequence order: M = zkts/Curator mutex (`lock-`),
 * W = `__WRIT__`, K = kazoo writer (`__lock__`), R = `__READ__`, r = kazoo reader (`__rlock__`).
 */
function queue(pattern: string): Contender[] {
  const layout: Record<string, (seq: string) => string> = {
    M: (s) => `_c_m-lock-${s}`,
    W: (s) => `_c_w-__WRIT__${s}`,
    K: (s) => `0123abcd__lock__${s}`,
    R: (s) => `_c_r-__READ__${s}`,
    r: (s) => `0123abcd__rlock__${s}`,
  };
  const names = [...pattern].map((k, i) => (layout[k] as (s: string) => string)(formatSequence(i)));
  const sorted = sortContenders([...names, 'config', 'leases'].reverse(), LOCK_MARKERS);
  expect(sorted).toHaveLength(pattern.length); // foreign children ignored
  return sorted;
}

describe('one rule for every kind', () => {
  it('classifies the five layouts: three writers, two readers', () => {
    expect(queue('MWKRr').map((c) => c.kind)).toEqual(['write', 'write', 'write', 'read', 'read']);
  });

  it('a reader behind a Mutex holder waits; a Mutex behind readers waits', () => {
    const s = queue('MR');
    expect(decide(s, 1)).toMatchObject({ granted: false, watch: s[0]?.name });
    const t = queue('RRM');
    expect(decide(t, 0).granted && decide(t, 1).granted).toBe(true);
    expect(decide(t, 2)).toMatchObject({ granted: false, watch: t[1]?.name });
  });

  it('readers of both layouts share; any writer after them waits for the reader just ahead', () => {
    const s = queue('RrRK');
    expect([0, 1, 2].map((i) => decide(s, i).granted)).toEqual([true, true, true]);
    expect(decide(s, 3)).toMatchObject({ granted: false, watch: s[2]?.name });
    expect(holderIndexes(s)).toEqual([0, 1, 2]);
  });

  it('writer: the head holds; otherwise it watches its immediate predecessor, reader or writer', () => {
    const s = queue('MRWK');
    expect(writerDecision(s, 0)).toEqual({ granted: true });
    expect(writerDecision(s, 2)).toMatchObject({ granted: false, watch: s[1]?.name });
    expect(writerDecision(s, 3)).toMatchObject({ granted: false, watch: s[2]?.name });
    expect(holderIndexes(s)).toEqual([0]);
  });

  it('reader: watches its NEAREST preceding writer of any layout, not the lowest (Curator) one', () => {
    const s = queue('RMRKrWR');
    expect(readerDecision(s, 6)).toMatchObject({ granted: false, watch: s[5]?.name });
    expect(readerDecision(s, 4)).toMatchObject({ granted: false, watch: s[3]?.name });
    expect(readerDecision(s, 2)).toMatchObject({ granted: false, watch: s[1]?.name });
    expect(readerDecision(s, 0)).toEqual({ granted: true });
    expect(holderIndexes(s)).toEqual([0]);
  });

  it('reader: never counts writers queued after it (kazoo #649)', () => {
    const s = queue('RRMW');
    expect(readerDecision(s, 1)).toEqual({ granted: true });
  });

  it("lastBlocker: the watched node's deletion grants us at once only when nothing else can block us", () => {
    // One writer ahead of a reader: its deletion grants the reader (a downgrade only ever adds readers).
    expect(decide(queue('RWR'), 2)).toMatchObject({ lastBlocker: true });
    expect(decide(queue('WR'), 1)).toMatchObject({ lastBlocker: true });
    // Two writers ahead of a reader: the nearer one going may leave the other.
    expect(decide(queue('MWR'), 2)).toMatchObject({ lastBlocker: false });
    // A writer second in line behind a mutex, kazoo or reader node: its deletion makes us the head.
    for (const head of ['M', 'K', 'R', 'r']) expect(decide(queue(`${head}M`), 1)).toMatchObject({ lastBlocker: true });
    // ... but not behind a held __WRIT__ node, whose holder may downgrade: a read node with its sequence would
    // then stand ahead of us after it goes (CURATOR-621).
    expect(decide(queue('WM'), 1)).toMatchObject({ lastBlocker: false });
    // Third in line: whatever goes first, someone may still be ahead.
    expect(decide(queue('RRM'), 2)).toMatchObject({ lastBlocker: false });
  });
});
