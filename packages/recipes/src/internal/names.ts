/**
 * Parsing and ordering of sequential contender names `<prefix><marker><seq>`, for every queue the recipes keep
 * (locks, leader latches, semaphore leases, queue items). Which markers a lock path recognises is lock-rule.ts's
 * business; this module only reads names against a table.
 *
 * <seq> is ZooKeeper's sequence suffix: the parent's cversion printed as `%010d`. It is a signed 32-bit counter,
 * so past 2^31 it reads `-2147483648` (11 characters). Ordering therefore uses serial-number arithmetic on the
 * parsed number, never string comparison (kazoo #606, go-zookeeper PR #65). Only the sequence orders contenders;
 * the protection prefix is ignored, as Curator does. Children that match none of the layouts are ignored
 * (a foreign child must not break the queue: go-zookeeper PR #44, CURATOR-43).
 */

/** Which kind of contender a node is: a writer blocks everyone after it, a reader only the writers after it. */
export type ContenderKind = 'read' | 'write';

/** A child of a lock directory read as a contender: its sequence, kind and uuid. */
export interface Contender {
  /** The child name (no parent path). */
  readonly name: string;
  /** Everything before the lock marker: `_c_<uuid>-` for Curator, `<uuidhex>` for kazoo. */
  readonly prefix: string;
  /** The lock marker found in the name, e.g. `lock-`, `__READ__`, `__lock__`. */
  readonly marker: string;
  readonly sequence: number;
  readonly kind: ContenderKind;
}

/** Which markers a directory recognises, and the kind each stands for (lock-rule.ts has the one for locks). */
export type MarkerTable = Readonly<Record<string, ContenderKind>>;

/**
 * Java's `%010d` pads to ten characters INCLUDING the sign, so a suffix is ten digits (0…2147483647), a minus
 * and nine digits (-999999999…-1), or a minus and ten digits (-2147483648…-1000000000).
 */
const SUFFIX_10 = /^(?:\d{10}|-\d{9})$/;
const SUFFIX_11 = /^-\d{10}$/;

/** Parses a sequence suffix (exactly what ZooKeeper appended); undefined when it is not one. */
export function parseSequence(suffix: string): number | undefined {
  if (!(suffix.length === 10 ? SUFFIX_10 : SUFFIX_11).test(suffix)) return undefined;
  const value = Number(suffix);
  if (value > 2147483647 || value < -2147483648) return undefined;
  return value;
}

/** Formats a sequence the way ZooKeeper does (`%010d`); used for the downgrade node (CURATOR-621). */
export function formatSequence(sequence: number): string {
  if (sequence < 0) return `-${String(-sequence).padStart(9, '0')}`;
  return String(sequence).padStart(10, '0');
}

/**
 * Serial-number comparison of two 32-bit sequences (RFC 1982 style): a precedes b when b is ahead of a by
 * less than 2^31 modulo 2^32. Live contenders of one directory are always far closer than 2^31 apart, so this
 * is a total order on them, and it keeps `2147483647` before `-2147483648` across the wrap.
 */
export function compareSequence(a: number, b: number): number {
  return (a - b) | 0;
}

// Parsing runs for every child of every listing: the marker tables are fixed, so their entries are computed once.
const SEQUENCE_WIDTHS = [10, 11] as const;
const entriesByTable = new WeakMap<MarkerTable, readonly (readonly [string, ContenderKind])[]>();
function markerEntries(markers: MarkerTable): readonly (readonly [string, ContenderKind])[] {
  let entries = entriesByTable.get(markers);
  if (entries === undefined) {
    entries = Object.entries(markers);
    entriesByTable.set(markers, entries);
  }
  return entries;
}

/**
 * Recognises one child name against a marker table. The marker is the last occurrence of any known marker
 * that is immediately followed by the sequence suffix.
 */
export function parseContender(name: string, markers: MarkerTable): Contender | undefined {
  for (const [marker, kind] of markerEntries(markers)) {
    for (const width of SEQUENCE_WIDTHS) {
      const cut = name.length - width;
      if (cut < marker.length || name.slice(cut - marker.length, cut) !== marker) continue;
      const sequence = parseSequence(name.slice(cut));
      if (sequence === undefined) continue;
      return { name, prefix: name.slice(0, cut - marker.length), marker, sequence, kind };
    }
  }
  return undefined;
}

/**
 * The recognised contenders among `children`, in queue order: by sequence (wrap-safe), then readers before
 * writers at an equal sequence (a downgraded read node carries its write node's sequence), then by name so the
 * order is deterministic.
 */
export function sortContenders(children: readonly string[], markers: MarkerTable): Contender[] {
  const out: Contender[] = [];
  for (const child of children) {
    const c = parseContender(child, markers);
    if (c !== undefined) out.push(c);
  }
  return out.sort(compareContenders);
}

export function compareContenders(a: Contender, b: Contender): number {
  const bySeq = compareSequence(a.sequence, b.sequence);
  if (bySeq !== 0) return bySeq;
  if (a.kind !== b.kind) return a.kind === 'read' ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Curator's protection prefix: `_c_` + a UUID + `-` (40 characters). */
export function protectedPrefix(uuid: string): string {
  return `_c_${uuid}-`;
}

/** kazoo's node prefix: the uuid as 32 hex digits (kazoo's `uuid4().hex`), before `__lock__`, `__party__` or `-`. */
export function kazooPrefix(uuid: string): string {
  return uuid.replaceAll('-', '');
}

/** The index of our node in a sorted queue, or -1. */
export function indexOfName(sorted: readonly Contender[], name: string): number {
  return sorted.findIndex((c) => c.name === name);
}
