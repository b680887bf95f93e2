/**
 * Recognisers for the queues: Curator's DistributedQueue / PriorityQueue / DelayQueue / IdQueue (`queue-…`,
 * queues/curator/names.ts), Curator SimpleDistributedQueue (`qn-<seq>`) and zkts Queue (`_c_<uuid>-qn-<seq>`),
 * kazoo Queue (`entry-<ppp>-<seq>`) and kazoo LockingQueue (`entries/` + `taken/`). A queue shows its depth, the
 * age of its oldest item, and its first items (stats only: items can be large) in delivery order.
 */
import { joinPath } from '@zkts/protocol';

import { compareSequence, sortContenders, type MarkerTable } from '../internal/index.js';
import { delayLayout, epochOf, idLayout, idOf, parseEntry, parseItemName, plainLayout, type ItemName } from '../queues/index.js';
import { contenderLibrary, formatDuration, inspection, textOf, unreadLine } from './describe.js';
import type { Listing, Reader, StatNode } from './reader.js';
import type { RecipeInspection, RecipeLibrary, RecipeMember } from './types.js';

/** Items shown as members; the depth counts them all. */
export const ITEMS_SHOWN = 50;

const QN_MARKERS: MarkerTable = { 'qn-': 'write' };

interface Item {
  readonly name: string;
  readonly sequence: number;
  readonly library: RecipeLibrary;
  readonly details: readonly (readonly [string, string])[];
}

/** The items that are shown, with their stats, and the summary lines every queue has. */
async function itemsOf(
  r: Reader, dir: string, items: readonly Item[], taken: ReadonlyMap<string, string> = new Map(),
): Promise<{ members: RecipeMember[]; summary: (readonly [string, string])[] }> {
  const stats = new Map((await r.statAll(dir, items.map((i) => i.name), ITEMS_SHOWN)).map((s): [string, StatNode] => [s.name, s]));
  const members: RecipeMember[] = [];
  let oldest: number | undefined;
  for (const item of items) {
    const s = stats.get(item.name);
    if (s === undefined) continue;
    oldest = oldest === undefined ? s.stat.ctime : Math.min(oldest, s.stat.ctime);
    const by = taken.get(item.name);
    members.push({
      role: 'item', name: item.name, path: s.path, sequence: item.sequence, owner: by, library: item.library,
      session: s.stat.ephemeralOwner === 0n ? undefined : s.stat.ephemeralOwner, since: s.stat.ctime,
      details: [['size', `${s.stat.dataLength} B`], ...item.details, ...(by === undefined ? [] : [['taken by', by] as const])],
    });
  }
  const summary: (readonly [string, string])[] = [['depth', String(items.length)]];
  if (oldest !== undefined) summary.push(['oldest item age', formatDuration(r.now - oldest)]);
  if (items.length > ITEMS_SHOWN) summary.push(['shown', `first ${ITEMS_SHOWN}`]);
  summary.push(...unreadLine(r.unread));
  return { members, summary };
}

const PRIORITY = /^[01][0-9A-F]{8}$/;

/** Curator's queue family, told apart by the middle of the item names (names.ts). */
export async function curatorQueue(r: Reader, l: Listing): Promise<RecipeInspection | undefined> {
  const parsed = l.children.map(parseItemName).filter((i): i is ItemName => i !== undefined);
  if (parsed.length === 0) return undefined;
  const delayed = parsed.filter((i) => /^\|[0-9A-F]+\|$/.test(i.middle)).length;
  const withId = parsed.filter((i) => idOf(i) !== undefined).length;
  const prioritised = parsed.filter((i) => PRIORITY.test(i.middle)).length;
  const [name, layout] =
    delayed === parsed.length ? ['DistributedDelayQueue', delayLayout]
    : withId > 0 ? ['DistributedIdQueue', idLayout]
    : prioritised > 0 ? ['DistributedPriorityQueue', plainLayout]
    : ['DistributedQueue', plainLayout];
  const sorted = [...parsed].sort((a, b) => layout.compare(a, b));
  const items = sorted.map((i): Item => {
    const details: (readonly [string, string])[] = [];
    if (name === 'DistributedDelayQueue') {
      const due = epochOf(i) - r.now;
      details.push(['due', due > 0 ? `in ${formatDuration(due)}` : 'now']);
    } else if (name === 'DistributedIdQueue') details.push(['id', idOf(i) ?? '']);
    else if (PRIORITY.test(i.middle)) details.push(['priority', String(Number.parseInt(i.middle.slice(1), 16) | 0)]);
    return { name: i.name, sequence: i.sequence, library: 'curator', details };
  });
  const { members, summary } = await itemsOf(r, l.path, items);
  return inspection('queue', l.path, `Curator ${name}: ${items.length} items`, summary, members, ['curator']);
}

/** Curator SimpleDistributedQueue (`qn-<seq>`) and zkts Queue (the same name behind Curator's protection prefix). */
export async function simpleQueue(r: Reader, l: Listing): Promise<RecipeInspection | undefined> {
  const sorted = sortContenders(l.children, QN_MARKERS);
  if (sorted.length === 0) return undefined;
  const items = sorted.map((c): Item => ({ name: c.name, sequence: c.sequence, library: contenderLibrary(c, undefined), details: [] }));
  const { members, summary } = await itemsOf(r, l.path, items);
  const zkts = items.every((i) => i.library === 'zkts');
  const curator = items.every((i) => i.library === 'curator');
  const name = zkts ? 'zkts Queue' : curator ? 'Curator SimpleDistributedQueue' : 'Queue (Curator SimpleDistributedQueue and zkts Queue layouts)';
  return inspection('queue', l.path, `${name}: ${items.length} items`, summary, members);
}

function kazooItems(children: readonly string[]): Item[] {
  const entries = children.map(parseEntry).filter((e) => e !== undefined);
  entries.sort((a, b) => a.priority - b.priority || compareSequence(a.sequence, b.sequence));
  return entries.map((e) => ({ name: e.name, sequence: e.sequence, library: 'kazoo', details: [['priority', String(e.priority)]] }));
}

/** kazoo Queue: `entry-<ppp>-<seq>` items directly under the path. */
export async function kazooQueue(r: Reader, l: Listing): Promise<RecipeInspection | undefined> {
  const items = kazooItems(l.children);
  if (items.length === 0) return undefined;
  const { members, summary } = await itemsOf(r, l.path, items);
  return inspection('queue', l.path, `kazoo Queue: ${items.length} items`, summary, members, ['kazoo']);
}

/** kazoo LockingQueue: entries under `entries/`, the lock of an entry being processed under `taken/` (data = consumer id). */
export async function kazooLockingQueue(r: Reader, l: Listing): Promise<RecipeInspection | undefined> {
  if (!l.children.includes('entries') || !l.children.includes('taken')) return undefined;
  const entriesDir = joinPath(l.path, 'entries');
  const items = kazooItems((await r.children(entriesDir)) ?? []);
  const takenDir = joinPath(l.path, 'taken');
  const locks = await r.readAll(takenDir, (await r.children(takenDir)) ?? []);
  const taken = new Map(locks.map((n): [string, string] => [n.name, textOf(n.data) ?? `session 0x${n.stat.ephemeralOwner.toString(16)}`]));
  const { members, summary } = await itemsOf(r, entriesDir, items, taken);
  summary.splice(1, 0, ['taken', String(items.filter((i) => taken.has(i.name)).length)]);
  return inspection('queue', l.path, `kazoo LockingQueue: ${items.length} entries, ${taken.size} taken`, summary, members, ['kazoo']);
}
