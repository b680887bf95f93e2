/**
 * Contender node names, shared with Curator and kazoo so processes using any of them can queue on one lock.
 *
 *   Curator mutex     _c_<uuid>-lock-<seq>          (go-zookeeper uses the same layout)
 *   Curator RW lock   _c_<uuid>-__READ__<seq>  /  _c_<uuid>-__WRIT__<seq>
 *   kazoo             <uuidhex>__lock__<seq>   /  <uuidhex>__rlock__<seq>
 *
 * <seq> is ZooKeeper's sequence suffix: the parent's cversion printed as `%010d`. It is a signed 32-bit counter,
 * so past 2^31 it reads `-2147483648` (11 characters). Ordering therefore uses serial-number arithmetic on the
 * parsed number, never string comparison (kazoo #606, go-zookeeper PR #65). Only the sequence orders contenders;
 * the protection prefix is ignored, as Curator does. Children that match none of the layouts are ignored
 * (a foreign child must not break the queue: go-zookeeper PR #44, CURATOR-43).
 */

/** Which side of a read-write lock a contender is on; a plain mutex contender is a writer. */
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

/** Markers recognised in a mutex directory, with the side each stands for. */
export const MUTEX_MARKERS: Readonly<Record<string, ContenderKind>> = {
  'lock-': 'write',
  __lock__: 'write',
  // kazoo's Lock counts its read-lock nodes as contenders too, so a kazoo reader in a mutex dir blocks us.
  __rlock__: 'read',
};

/** Markers recognised in a read-write lock directory. */
export const RW_MARKERS: Readonly<Record<string, ContenderKind>> = {
  __READ__: 'read',
  __WRIT__: 'write',
  __rlock__: 'read',
  __lock__: 'write',
};

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
const entriesByTable = new WeakMap<object, readonly (readonly [string, ContenderKind])[]>();
function markerEntries(markers: Readonly<Record<string, ContenderKind>>): readonly (readonly [string, ContenderKind])[] {
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
export function parseContender(name: string, markers: Readonly<Record<string, ContenderKind>>): Contender | undefined {
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
export function sortContenders(children: readonly string[], markers: Readonly<Record<string, ContenderKind>>): Contender[] {
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

/** What a contender must do next: it holds the lock, or it waits for `watch` (a child name) to go away. */
export type Decision = { readonly granted: true } | { readonly granted: false; readonly watch: string };

/**
 * Chooses for contender `ourIndex` of a sorted queue. `maxLeases` holders at once (1 for a mutex or writer):
 * we hold iff fewer than maxLeases precede us, otherwise we watch the node maxLeases places ahead, which is our
 * immediate predecessor for a mutex (one waiter woken per release, no herd).
 */
export function mutexDecision(sorted: readonly Contender[], ourIndex: number, maxLeases = 1): Decision {
  if (ourIndex < maxLeases) return { granted: true };
  const pred = sorted[ourIndex - maxLeases] as Contender;
  return { granted: false, watch: pred.name };
}

/**
 * A reader holds the lock iff no writer precedes it; otherwise it watches its NEAREST preceding writer (the ZK
 * recipe and kazoo; Curator watches the lowest writer, which wakes readers behind several writers on every
 * writer release). When that writer goes, the reader re-evaluates and may find an earlier writer still queued.
 */
export function readDecision(sorted: readonly Contender[], ourIndex: number): Decision {
  for (let i = ourIndex - 1; i >= 0; i--) {
    const c = sorted[i] as Contender;
    if (c.kind === 'write') return { granted: false, watch: c.name };
  }
  return { granted: true };
}

/** A writer is a mutex contender over every node, readers and writers alike. */
export function writeDecision(sorted: readonly Contender[], ourIndex: number): Decision {
  return mutexDecision(sorted, ourIndex, 1);
}

/** Curator's protection prefix: `_c_` + a UUID + `-` (40 characters). */
export function protectedPrefix(uuid: string): string {
  return `_c_${uuid}-`;
}

/** The index of our node in a sorted queue, or -1. */
export function indexOfName(sorted: readonly Contender[], name: string): number {
  return sorted.findIndex((c) => c.name === name);
}
