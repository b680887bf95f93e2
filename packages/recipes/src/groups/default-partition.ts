/**
 * kazoo SetPartitioner's default partition function, and the ordering it rests on. Every member computes the
 * partition on its own, from the member list it sees, so the split is disjoint and complete only if every
 * member (zkts or kazoo) sorts exactly alike: Python sorts str by code point, so we do too (JavaScript's default
 * sort compares UTF-16 code units, which orders characters beyond U+FFFF differently).
 */

/** Orders two strings by Unicode code point, as Python's `sorted()` orders `str`. */
export function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i] as string).codePointAt(0)! - (y[i] as string).codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * kazoo's `_partitioner`: items and members sorted, and the member at index i of the members takes items
 * i, i + n, i + 2n… (n = the number of members). A member not in the list gets nothing.
 */
export function kazooPartition(identifier: string, members: readonly string[], items: readonly string[]): string[] {
  const workers = [...members].sort(compareCodePoints);
  const index = workers.indexOf(identifier);
  if (index < 0) return [];
  return [...items].sort(compareCodePoints).filter((_, i) => i % workers.length === index);
}
