/**
 * The names of kazoo's queue entries (kazoo/recipe/queue.py, both Queue and LockingQueue): `entry-<ppp>-<seq>`,
 * a PERSISTENT_SEQUENTIAL node, where <ppp> is the priority printed as `%03d` (0…999, lower first) and <seq>
 * ZooKeeper's sequence suffix. kazoo hands entries out in the string order of their names, which is priority
 * order, then sequence order, as long as the sequences have not passed 2^31; we parse both numbers and compare
 * the sequence wrap-safely (internal/names.ts), so the order is the same until then and stays FIFO after it.
 */
import { RecipeArgumentError } from '../errors.js';
import { compareSequence, parseSequence } from '../internal/index.js';

/** kazoo's default priority. */
export const DEFAULT_PRIORITY = 100;

/** One recognised entry name. */
export interface EntryName {
  readonly name: string;
  readonly priority: number;
  readonly sequence: number;
}

const ENTRY = /^entry-(\d{3})-(.+)$/;

/** The prefix a put creates (ZooKeeper appends the sequence), after checking the priority as kazoo does. */
export function entryPrefix(priority: number): string {
  if (!Number.isInteger(priority) || priority < 0 || priority > 999) {
    throw new RecipeArgumentError(`priority must be an integer between 0 and 999, not ${priority}`);
  }
  return `entry-${String(priority).padStart(3, '0')}-`;
}

/** Reads an entry name; undefined for any other child (never created by kazoo's queues: ignored). */
export function parseEntry(name: string): EntryName | undefined {
  const m = ENTRY.exec(name);
  if (m === null) return undefined;
  const sequence = parseSequence(m[2] as string);
  return sequence === undefined ? undefined : { name, priority: Number(m[1]), sequence };
}

/** The entries among `children` that are not in `taken`, in the order they are handed out. */
export function availableEntries(children: readonly string[], taken: ReadonlySet<string> = new Set()): EntryName[] {
  const out: EntryName[] = [];
  for (const child of children) {
    if (taken.has(child)) continue;
    const entry = parseEntry(child);
    if (entry !== undefined) out.push(entry);
  }
  return out.sort((a, b) => a.priority - b.priority || compareSequence(a.sequence, b.sequence));
}
