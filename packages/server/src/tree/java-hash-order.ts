/**
 * The iteration order of Java's HashSet<String>, which ZooKeeper exposes: getChildren lists a node's children
 * in the order of its HashSet, and a session's ephemerals are deleted (and their watches fire) in the order of
 * a cloned HashSet. Order = bucket index (the spread String.hashCode masked by the table size), ties in
 * insertion order; a table doubles when its size passes 3/4 of its capacity and never shrinks. Tree bins (more
 * than 8 colliding names at capacity >= 64) are not modelled.
 */

/** Java's String.hashCode over UTF-16 units, as an int32. */
export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/** HashMap.hash: the high half folded into the low half. */
function spread(h: number): number {
  return h ^ (h >>> 16);
}

/** Java's HashMap.tableSizeFor: the next power of two. */
export function tableSizeFor(n: number): number {
  let cap = 1;
  while (cap < n) cap *= 2;
  return cap;
}

/** `names` stably sorted by their bucket in a table of `capacity` slots. */
export function orderByBuckets(names: Iterable<string>, capacity: number): string[] {
  const mask = capacity - 1;
  const keyed = [...names].map((name, i) => ({ name, i, bucket: spread(javaStringHash(name)) & mask }));
  keyed.sort((a, b) => a.bucket - b.bucket || a.i - b.i);
  return keyed.map((k) => k.name);
}

/** The capacity HashMap.clone / new HashSet(collection) picks for `size` entries. */
export function cloneCapacity(size: number): number {
  return tableSizeFor(Math.floor(size / 0.75 + 1));
}

/** A set of strings that iterates as a java.util.HashSet built by the same adds and removes would. */
export class JavaHashSet {
  private readonly items = new Set<string>();
  private capacity: number;

  /** `initialCapacity` as given to `new HashSet<>(n)` (DataNode uses 8, the ephemerals table 16). */
  constructor(initialCapacity = 16) {
    this.capacity = tableSizeFor(initialCapacity);
  }

  get size(): number {
    return this.items.size;
  }

  has(name: string): boolean {
    return this.items.has(name);
  }

  /** Adds `name`; false when it was already there. */
  add(name: string): boolean {
    if (this.items.has(name)) return false;
    this.items.add(name);
    if (this.items.size > this.capacity * 0.75) this.capacity *= 2;
    return true;
  }

  /** Removes `name`; false when it was not there. */
  delete(name: string): boolean {
    return this.items.delete(name);
  }

  /** The members in Java's iteration order. */
  ordered(): string[] {
    return orderByBuckets(this.items, this.capacity);
  }

  /** The members in the order a clone of this set (HashSet.clone) iterates. */
  orderedClone(): string[] {
    return orderByBuckets(this.ordered(), cloneCapacity(this.items.size));
  }

  /** Insertion-ordered members, for counting and filtering where order does not matter. */
  values(): IterableIterator<string> {
    return this.items.values();
  }
}
