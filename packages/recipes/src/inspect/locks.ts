/**
 * Recognisers for the lock-shaped layouts: lock queues (Curator InterProcessMutex / InterProcessReadWriteLock,
 * kazoo Lock / ReadLock / WriteLock / Election, zkts Mutex / ReadWriteLock / LeaderSelector, all under
 * lock-rule.ts's marker table), Curator LeaderLatch (zkts LeaderElection writes it too), the semaphores
 * (Curator InterProcessSemaphoreV2 and zkts Semaphore: `leases/` + `locks/`; kazoo Semaphore: `<uuidhex>`
 * children, max leases as the node's data, its lock at the sibling `<path>-__lock__`), and zkts's ExclusiveLock
 * (`<path>/lock`, JSON {id, token}). Who holds is lock-rule.ts's holderIndexes, the rule the locks run on.
 */
import { joinPath } from '@zkts/protocol';

import { LATCH_MARKERS } from '../election/index.js';
import { sortContenders, type Contender, type MarkerTable } from '../internal/index.js';
import { holderIndexes, LOCK_MARKERS } from '../locks/index.js';
import {
  contenderLibrary, formatDuration, inspection, librariesOf, memberOf, textOf, unreadLine,
} from './describe.js';
import { recipeName } from './names.js';
import type { Listing, ReadNode, Reader } from './reader.js';
import type { RecipeInspection, RecipeMember } from './types.js';

const LEASE_MARKERS: MarkerTable = { 'lease-': 'write' };

/** A queue of contenders as read: live ones in order (vanished dropped), and the read nodes by name. */
interface Queue {
  readonly live: readonly Contender[];
  readonly nodes: ReadonlyMap<string, ReadNode>;
}

async function readQueue(r: Reader, dir: string, sorted: readonly Contender[]): Promise<Queue> {
  const before = r.unread;
  const read = await r.readAll(dir, sorted.map((c) => c.name));
  const attempted = sorted.length - (r.unread - before);
  const nodes = new Map(read.map((n) => [n.name, n]));
  // Read and gone: dropped. Not read (budget): kept, it still counts for who holds.
  const live = sorted.filter((c, i) => i >= attempted || nodes.has(c.name));
  return { live, nodes };
}

/** The members of a queue in order, `role(index, contender)` naming each; unread contenders are left out. */
function queueMembers(r: Reader, q: Queue, role: (i: number, c: Contender) => string, holders: ReadonlySet<number>): RecipeMember[] {
  const out: RecipeMember[] = [];
  q.live.forEach((c, i) => {
    const node = q.nodes.get(c.name);
    if (node === undefined) return;
    const age = formatDuration(r.now - node.stat.ctime);
    out.push(memberOf(node, role(i, c), {
      sequence: c.sequence, library: contenderLibrary(c, node.data),
      details: [[holders.has(i) ? 'holds for' : 'waits for', age]],
    }));
  });
  return out;
}

const who = (m: RecipeMember | undefined): string => (m === undefined ? '?' : m.owner ?? m.name);

/** Lock queues: mutex (every contender a writer) or read-write lock (a reader, or a Curator write node, present). */
export async function lockQueue(r: Reader, l: Listing): Promise<RecipeInspection | undefined> {
  const sorted = sortContenders(l.children, LOCK_MARKERS);
  if (sorted.length === 0) return undefined;
  const q = await readQueue(r, l.path, sorted);
  if (q.live.length === 0) return undefined;
  const holding = new Set(holderIndexes(q.live));
  const rw = q.live.some((c) => c.kind === 'read' || c.marker === '__WRIT__');
  const members = queueMembers(r, q, (i, c) => (rw ? (c.kind === 'read' ? 'reader' : 'writer') : holding.has(i) ? 'holder' : 'waiter'), holding);
  const libraries = librariesOf(members);
  const holders = members.filter((_, i) => holding.has(i));
  const waiting = q.live.length - holding.size;
  const heldFor = holders[0] === undefined ? [] : [['held for', formatDuration(r.now - (holders[0].since ?? r.now))] as const];
  const unread = unreadLine(r.unread);
  if (rw) {
    const name = recipeName(libraries, { curator: 'InterProcessReadWriteLock', kazoo: 'ReadLock/WriteLock', zkts: 'ReadWriteLock' }, 'Read-write lock');
    const readers = holders.length > 0 && members[0]?.role === 'reader';
    const state = readers ? `read by ${holding.size}` : 'write-held';
    return inspection('read-write-lock', l.path, `${name}: ${state}, ${waiting} waiting`, [
      [readers ? 'readers' : 'writer', holders.map(who).join(', ')], ['waiting', String(waiting)], ...heldFor, ...unread,
    ], members);
  }
  const name = recipeName(libraries, { curator: 'InterProcessMutex', kazoo: 'Lock', zkts: 'Mutex' }, 'Mutex');
  const also = libraries.includes('kazoo') && libraries.length === 1 ? 'also the layout of kazoo Election' : 'also the layout of Curator LeaderSelector / kazoo Election';
  return inspection('mutex', l.path, `${name}: held, ${waiting} waiting`, [
    ['holder', who(holders[0])], ['waiting', String(waiting)], ...heldFor, ['layout', also], ...unread,
  ], members);
}

/** Curator LeaderLatch (and zkts LeaderElection, which writes its layout): the lowest `latch-` node leads. */
export async function latchElection(r: Reader, l: Listing): Promise<RecipeInspection | undefined> {
  const sorted = sortContenders(l.children, LATCH_MARKERS);
  if (sorted.length === 0) return undefined;
  const q = await readQueue(r, l.path, sorted);
  if (q.live.length === 0) return undefined;
  const members = queueMembers(r, q, (i) => (i === 0 ? 'leader' : 'candidate'), new Set([0]));
  const leader = members[0];
  const leading = leader?.role === 'leader' ? [['leading for', formatDuration(r.now - (leader.since ?? r.now))] as const] : [];
  const others = q.live.length - 1;
  return inspection('election', l.path, `Leader latch: leader ${who(leader)}, ${others} candidate${others === 1 ? '' : 's'}`, [
    ['leader', who(leader)], ['candidates', String(q.live.length - 1)], ...leading, ['layout', 'also zkts LeaderElection'],
    ...unreadLine(r.unread),
  ], members);
}

/** Curator InterProcessSemaphoreV2 / zkts Semaphore: `<path>/leases/…-lease-<seq>` and the gate mutex `<path>/locks`. */
export async function curatorSemaphore(r: Reader, l: Listing): Promise<RecipeInspection | undefined> {
  if (!l.children.includes('leases') || !l.children.every((c) => c === 'leases' || c === 'locks')) return undefined;
  const leaseNames = (await r.children(joinPath(l.path, 'leases'))) ?? [];
  const leases = sortContenders(leaseNames, LEASE_MARKERS);
  if (leases.length === 0 && leaseNames.length > 0) return undefined;
  const lq = await readQueue(r, joinPath(l.path, 'leases'), leases);
  const max = textOf(l.data);
  const limit = max !== undefined && /^\d+$/.test(max) ? Number(max) : undefined;
  // A waiter creates its lease node while it holds the gate, then waits for the count to drop to the limit: the
  // lease nodes past the limit (the newest) hold nothing yet. That waiter shows as the gate's first node.
  const held = limit === undefined ? lq.live.length : Math.min(lq.live.length, limit);
  const holders = queueMembers(r, lq, () => 'holder', new Set(lq.live.map((_, i) => i))).slice(0, held);
  const gateDir = joinPath(l.path, 'locks');
  const gate = await readQueue(r, gateDir, sortContenders((await r.children(gateDir)) ?? [], LOCK_MARKERS));
  const waiters = queueMembers(r, gate, () => 'waiter', new Set());
  const members = [...holders, ...waiters];
  const name = recipeName(librariesOf(members), { curator: 'InterProcessSemaphoreV2', zkts: 'Semaphore' }, 'Semaphore');
  const of = limit === undefined ? '' : ` of ${limit}`;
  const pending = lq.live.length - held;
  return inspection('semaphore', l.path, `${name}: ${held}${of} leases held, ${gate.live.length} waiting`, [
    ['leases held', String(held)], ...(limit === undefined ? [] : [['max leases', String(limit)] as const]),
    ['waiting', String(gate.live.length)], ...(pending > 0 ? [['lease nodes waiting for a slot', String(pending)] as const] : []),
    ...unreadLine(r.unread),
  ], members);
}

const HEX32 = /^[0-9a-f]{32}$/;

/**
 * kazoo Semaphore: lease nodes `<path>/<uuidhex>` (data = identifier), max_leases as the node's text, its lock
 * at `<path>-__lock__`. Recognised by the text number AND (uuidhex children, or that sibling lock existing):
 * a kazoo Counter is a text number too, but has neither.
 */
export async function kazooSemaphore(r: Reader, l: Listing): Promise<RecipeInspection | undefined> {
  const max = textOf(l.data);
  if (max === undefined || !/^\d+$/.test(max) || l.path === '/' || !l.children.every((c) => HEX32.test(c))) return undefined;
  const lockDir = `${l.path}-__lock__`;
  const lockNames = await r.children(lockDir);
  if (l.children.length === 0 && lockNames === undefined) return undefined;
  const read = await r.readAll(l.path, l.children);
  read.sort((a, b) => a.stat.ctime - b.stat.ctime || (a.name < b.name ? -1 : 1));
  const holders = read.map((n) => memberOf(n, 'holder', { library: 'kazoo', details: [['holds for', formatDuration(r.now - n.stat.ctime)]] }));
  const gate = await readQueue(r, lockDir, sortContenders(lockNames ?? [], LOCK_MARKERS));
  const waiters = queueMembers(r, gate, () => 'waiter', new Set());
  return inspection('semaphore', l.path, `kazoo Semaphore: ${read.length} of ${max} leases held, ${gate.live.length} waiting`, [
    ['leases held', String(read.length)], ['max leases', max], ['waiting', String(gate.live.length)], ...unreadLine(r.unread),
  ], [...holders, ...waiters], ['kazoo']);
}

/** zkts ExclusiveLock: one ephemeral `<path>/lock` whose data is JSON {id, token}. */
export async function exclusiveLock(r: Reader, l: Listing): Promise<RecipeInspection | undefined> {
  if (l.children.length !== 1 || l.children[0] !== 'lock') return undefined;
  const node = await r.read(joinPath(l.path, 'lock'));
  if (node === undefined || node.stat.ephemeralOwner === 0n) return undefined;
  let id: unknown;
  try {
    const v = JSON.parse(textOf(node.data, 4096) ?? '') as { id?: unknown; token?: unknown };
    if (typeof v.token === 'string') id = v.id;
  } catch {
    return undefined;
  }
  if (typeof id !== 'string') return undefined;
  const holder = memberOf(node, 'holder', { owner: id, library: 'zkts', details: [['holds for', formatDuration(r.now - node.stat.ctime)]] });
  return inspection('mutex', l.path, `zkts ExclusiveLock: held by ${id}`, [
    ['holder', id], ['held for', formatDuration(r.now - node.stat.ctime)],
  ], [holder]);
}
