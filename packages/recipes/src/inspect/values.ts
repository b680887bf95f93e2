/**
 * Recognisers for single-node recipes and barriers: counters (Curator SharedCount, DistributedAtomicLong, kazoo
 * Counter), kazoo's NonBlockingLease / MultiNonBlockingLease (`lease_holder`, leases/holder-format.ts), the
 * double barrier (kazoo DoubleBarrier, Curator DistributedDoubleBarrier, zkts DoubleBarrier: one ephemeral child
 * per participant and `ready` once all are in) and the plain barrier, which only its name can give away.
 */
import { joinPath } from '@zkts/protocol';

import { decodeLease } from '../leases/index.js';
import { formatDuration, hexSession, inspection, memberOf, textOf, unreadLine } from './describe.js';
import type { Listing, ReadNode, Reader } from './reader.js';
import type { RecipeInspection, RecipeLibrary, RecipeMember } from './types.js';

const TEXT_NUMBER = /^-?\d+(?:\.\d+)?$/;

/**
 * Counters. Any 4 or 8 bytes could be anything, so the rule is strict and needs no path hint:
 * - the node has no children (zkts's own compare-and-set receipts, `_zkts-cas-…`, do not count);
 * - its data is a decimal number as text (kazoo Counter writes Python's repr: "42", "2.5"), or
 * - exactly 4 bytes (Curator SharedCount, kazoo Counter with support_curator: a big-endian int32) or exactly
 *   8 bytes (Curator DistributedAtomicLong: a big-endian int64), and NOT printable text: four letters like
 *   "true" are a word, not the int 1953658213.
 * An empty node (a counter never written, kazoo's ensure_path) is just a node.
 */
export function counter(l: Listing): RecipeInspection | undefined {
  if (l.children.length > 0) return undefined;
  const text = textOf(l.data);
  const summary = (value: string, encoding: string): (readonly [string, string])[] => [
    ['value', value], ['encoding', encoding], ['version', String(l.stat.version)], ['changed', new Date(l.stat.mtime).toISOString()],
  ];
  if (text !== undefined) {
    if (!TEXT_NUMBER.test(text)) return undefined;
    return inspection('counter', l.path, `kazoo Counter: ${text}`, summary(text, 'text (kazoo)'), [], ['kazoo']);
  }
  const view = new DataView(l.data.buffer, l.data.byteOffset, l.data.byteLength);
  if (l.data.length === 4) {
    const value = String(view.getInt32(0));
    return inspection('counter', l.path, `Curator SharedCount: ${value}`, summary(value, '4-byte int (Curator SharedCount, kazoo support_curator)'), [], ['curator']);
  }
  if (l.data.length === 8) {
    const value = view.getBigInt64(0).toString();
    return inspection('counter', l.path, `Curator DistributedAtomicLong: ${value}`, summary(value, '8-byte long (Curator DistributedAtomicLong)'), [], ['curator']);
  }
  return undefined;
}

/** A lease_holder node as a member; undefined when it is not kazoo's format. */
function leaseMember(node: ReadNode, now: number, slot?: string): { member: RecipeMember; expired: boolean; endMs: number } | undefined {
  let record;
  try {
    record = decodeLease(node.data, node.path);
  } catch {
    return undefined;
  }
  if (record.kind !== 'current') return undefined;
  const expired = now >= record.endMs;
  const member = memberOf(node, 'lease', {
    owner: record.holder, library: 'kazoo',
    details: [
      ...(slot === undefined ? [] : [['slot', slot] as const]),
      ['ends', new Date(record.endMs).toISOString()],
      ['state', expired ? `expired ${formatDuration(now - record.endMs)} ago` : `held, ${formatDuration(record.endMs - now)} left`],
    ],
  });
  return { member, expired, endMs: record.endMs };
}

const MAX_SLOTS = 100;

/** kazoo NonBlockingLease (`<path>/lease_holder`) and MultiNonBlockingLease (slots `<path>/<n>/lease_holder`). */
export async function lease(r: Reader, l: Listing): Promise<RecipeInspection | undefined> {
  if (l.children.includes('lease_holder')) {
    const node = await r.read(joinPath(l.path, 'lease_holder'));
    const found = node === undefined ? undefined : leaseMember(node, r.now);
    if (found === undefined) return undefined;
    const { member, expired, endMs } = found;
    return inspection('lease', l.path, `kazoo NonBlockingLease: ${expired ? 'expired' : `held by ${member.owner}`}`, [
      ['holder', member.owner ?? ''], ['ends', new Date(endMs).toISOString()], ['expired', expired ? 'yes' : 'no'],
      [expired ? 'expired for' : 'remaining', formatDuration(Math.abs(endMs - r.now))],
    ], [member], ['kazoo']);
  }
  const slots = l.children.filter((c) => /^\d+$/.test(c)).sort((a, b) => Number(a) - Number(b));
  if (slots.length === 0 || slots.length !== l.children.length || slots[0] !== '0') return undefined;
  if ((await r.exists(joinPath(l.path, '0', 'lease_holder'))) === undefined) return undefined;
  const members: RecipeMember[] = [];
  const holders: string[] = [];
  for (const slot of slots.slice(0, MAX_SLOTS)) {
    const node = await r.read(joinPath(l.path, slot, 'lease_holder'));
    const found = node === undefined ? undefined : leaseMember(node, r.now, slot);
    if (found === undefined) continue;
    members.push(found.member);
    if (!found.expired) holders.push(found.member.owner ?? '');
  }
  return inspection('lease', l.path, `kazoo MultiNonBlockingLease: ${holders.length} of ${slots.length} slots held`, [
    ['slots', String(slots.length)], ['held', String(holders.length)], ['holders', holders.join(', ')],
  ], members, ['kazoo']);
}

const DASHED_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEX32 = /^[0-9a-f]{32}$/;

/** Who names a participant so: kazoo uuid4().hex, Curator (and zkts by default) a dashed UUID, else zkts's `id`. */
const participantLibrary = (name: string): RecipeLibrary => (HEX32.test(name) ? 'kazoo' : DASHED_UUID.test(name) ? 'curator' : 'zkts');

/**
 * Double barrier: one ephemeral child per participant and `ready` once `count` are in. Recognised with `ready`
 * present, or, while it fills, when every child is an ephemeral named by a UUID (what all three libraries name
 * participants by default).
 */
export async function doubleBarrier(r: Reader, l: Listing): Promise<RecipeInspection | undefined> {
  const ready = l.children.includes('ready');
  const names = l.children.filter((c) => c !== 'ready');
  if (!ready && (names.length === 0 || !names.every((n) => HEX32.test(n) || DASHED_UUID.test(n)))) return undefined;
  const nodes = await r.readAll(l.path, names);
  if (!ready && (nodes.length === 0 || nodes.some((n) => n.stat.ephemeralOwner === 0n))) return undefined;
  nodes.sort((a, b) => a.stat.ctime - b.stat.ctime || (a.name < b.name ? -1 : 1));
  const members = nodes.map((n) => memberOf(n, 'member', { library: participantLibrary(n.name), details: [['in for', formatDuration(r.now - n.stat.ctime)]] }));
  return inspection('double-barrier', l.path, `Double barrier: ${names.length} in, ${ready ? 'ready' : 'not ready'}`, [
    ['participants', String(names.length)], ['ready', ready ? 'yes' : 'no'],
    ['layout', 'kazoo DoubleBarrier / Curator DistributedDoubleBarrier / zkts DoubleBarrier'], ...unreadLine(r.unread),
  ], members);
}

/** Barrier (kazoo Barrier, Curator DistributedBarrier, zkts Barrier): up while the node exists; only a leaf named so is taken for one. */
export function barrier(l: Listing): RecipeInspection | undefined {
  const name = l.path.slice(l.path.lastIndexOf('/') + 1);
  if (l.children.length > 0 || !/barrier/i.test(name)) return undefined;
  return inspection('barrier', l.path, 'Barrier: up', [
    ['state', 'up (the node exists; removing it lets the waiters go)'], ['up since', new Date(l.stat.ctime).toISOString()],
    ...(l.stat.ephemeralOwner === 0n ? [] : [['session', hexSession(l.stat.ephemeralOwner)] as const]),
  ], []);
}
