/**
 * Curator's queue item names: `queue-` + a middle + ZooKeeper's sequence suffix, PERSISTENT_SEQUENTIAL. The
 * middle says which queue made the item:
 *   DistributedQueue          empty                          `queue-0000000007`
 *   DistributedPriorityQueue  `1`/`0` (sign) + %08X priority   `queue-1000000050000000007` (lower first)
 *   DistributedDelayQueue     `|` + %08X epoch ms + `|`      `queue-|18BF3A5C2D0|0000000007`
 *   DistributedIdQueue        `|` + id + `|`                 `queue-|order-17|0000000007`
 * Curator orders plain and priority items by the whole name as a string, delay items by their time, id items by
 * the name without the id. We order the same way but compare the sequence as a wrap-safe number
 * (internal/names.ts), so the order stays right past 2^31 items; until then it is exactly Curator's.
 */
import { RecipeArgumentError } from '../../errors.js';
import { compareSequence, parseSequence } from '../../internal/index.js';

export const ITEM_PREFIX = 'queue-';
const SEPARATOR = '|';

/** A child of the queue directory read as a queue item. */
export interface ItemName {
  readonly name: string;
  /** What lies between `queue-` and the sequence. */
  readonly middle: string;
  readonly sequence: number;
}

/**
 * Reads a child name as a queue item; undefined for anything else (Curator skips foreign nodes too). A negative
 * sequence (past 2^31) is 11 characters: it is tried first, since no layout's middle ends with a `-`.
 */
export function parseItemName(name: string): ItemName | undefined {
  if (!name.startsWith(ITEM_PREFIX)) return undefined;
  for (const width of [11, 10]) {
    const cut = name.length - width;
    if (cut < ITEM_PREFIX.length) continue;
    const sequence = parseSequence(name.slice(cut));
    if (sequence !== undefined) return { name, middle: name.slice(ITEM_PREFIX.length, cut), sequence };
  }
  return undefined;
}

/** How one kind of queue orders its items and when each may be delivered. */
export interface ItemLayout {
  /** Queue order (negative: `a` first). */
  compare(a: ItemName, b: ItemName): number;
  /** ms until the item may be delivered (0 or less: now). */
  delay(item: ItemName, now: number): number;
}

const byMiddleThenSequence = (a: ItemName, b: ItemName): number =>
  a.middle < b.middle ? -1 : a.middle > b.middle ? 1 : compareSequence(a.sequence, b.sequence);

/** DistributedQueue and DistributedPriorityQueue: the middle (empty, or the priority) then the sequence. */
export const plainLayout: ItemLayout = Object.freeze({ compare: byMiddleThenSequence, delay: () => 0 });

/** DistributedDelayQueue: by due time, then sequence; not before its time. */
export const delayLayout: ItemLayout = Object.freeze({
  compare: (a: ItemName, b: ItemName) => epochOf(a) - epochOf(b) || compareSequence(a.sequence, b.sequence),
  delay: (item: ItemName, now: number) => epochOf(item) - now,
});

/** DistributedIdQueue: FIFO by sequence (the id does not order). */
export const idLayout: ItemLayout = Object.freeze({
  compare: (a: ItemName, b: ItemName) => compareSequence(a.sequence, b.sequence),
  delay: () => 0,
});

/** Sorts the queue items among `children` in the layout's order, foreign children left out. */
export function sortItems(children: readonly string[], layout: ItemLayout): ItemName[] {
  const items: ItemName[] = [];
  for (const child of children) {
    const item = parseItemName(child);
    if (item !== undefined) items.push(item);
  }
  return items.sort((a, b) => layout.compare(a, b));
}

/** The middle of a priority item: `1` for priority ≥ 0 else `0`, then the 32-bit two's complement in hex. */
export function priorityMiddle(priority: number): string {
  if (!Number.isInteger(priority) || priority < -2147483648 || priority > 2147483647) {
    throw new RecipeArgumentError(`priority must be a 32-bit integer, got ${priority}`);
  }
  return (priority >= 0 ? '1' : '0') + (priority >>> 0).toString(16).toUpperCase().padStart(8, '0');
}

/** The middle of a delay item: its due time (epoch ms) in upper-case hex between separators. */
export function delayMiddle(dueEpochMs: number): string {
  if (!Number.isSafeInteger(dueEpochMs) || dueEpochMs <= 0) {
    throw new RecipeArgumentError(`delay time must be a positive integer of epoch ms, got ${dueEpochMs}`);
  }
  return SEPARATOR + dueEpochMs.toString(16).toUpperCase().padStart(8, '0') + SEPARATOR;
}

/** The due time of a delay item, from the last two separators (0, i.e. due now, when it has none: as Curator). */
export function epochOf(item: ItemName): number {
  const end = item.middle.lastIndexOf(SEPARATOR);
  const start = end > 0 ? item.middle.lastIndexOf(SEPARATOR, end - 1) : -1;
  if (start < 0 || end <= start + 1) return 0;
  const hex = item.middle.slice(start + 1, end);
  return /^[0-9A-Fa-f]+$/.test(hex) ? Number.parseInt(hex, 16) : 0;
}

/** The middle of an id item; `/` and `|` in the id become `_`, as Curator does (so remove() finds it by the same rule). */
export function idMiddle(id: string): string {
  return SEPARATOR + fixId(id) + SEPARATOR;
}

/** An id as it is stored in a name. */
export function fixId(id: string): string {
  if (typeof id !== 'string' || id.length === 0) throw new RecipeArgumentError('an item id must be a non-empty string');
  return id.replaceAll('/', '_').replaceAll(SEPARATOR, '_');
}

/** The id of an id item (between the first two separators), or undefined. */
export function idOf(item: ItemName): string | undefined {
  const first = item.middle.indexOf(SEPARATOR);
  const second = first < 0 ? -1 : item.middle.indexOf(SEPARATOR, first + 1);
  return second < 0 ? undefined : item.middle.slice(first + 1, second);
}
