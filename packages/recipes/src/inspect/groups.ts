/**
 * Recognisers for membership layouts: kazoo Party (`<uuidhex>__party__`, data = identifier) and ShallowParty
 * (`<uuidhex>-<identifier>`), which zkts's Party and ShallowParty write too; kazoo SetPartitioner (`party/` a
 * ShallowParty, `locks/<item>/` a kazoo Lock per item); Curator ServiceDiscovery (`<base>/<service>/<id>`, JSON
 * instances: discovery/serializer.ts); and Curator GroupMember (one ephemeral `<id>` per member, zkts's
 * GroupMember too), the least specific of all: tried last.
 */
import { joinPath } from '@zkts/protocol';

import { JsonInstanceSerializer } from '../discovery/index.js';
import { kazooPartition } from '../groups/index.js';
import { sortContenders } from '../internal/index.js';
import { LOCK_MARKERS } from '../locks/index.js';
import { formatDuration, hexSession, inspection, memberOf, textOf, unreadLine } from './describe.js';
import type { Listing, ReadNode, Reader } from './reader.js';
import type { RecipeInspection, RecipeMember } from './types.js';

const SHALLOW = /^[0-9a-f]{32}-(.+)$/;
const byAge = (a: ReadNode, b: ReadNode): number => a.stat.ctime - b.stat.ctime || (a.name < b.name ? -1 : 1);

/** kazoo Party: members are the children whose name carries `__party__`; their data is the identifier. */
export async function party(r: Reader, l: Listing): Promise<RecipeInspection | undefined> {
  const names = l.children.filter((c) => c.includes('__party__'));
  if (names.length === 0) return undefined;
  const nodes = (await r.readAll(l.path, names)).sort(byAge);
  const members = nodes.map((n) => memberOf(n, 'member', { owner: textOf(n.data) ?? '', library: 'kazoo' }));
  return inspection('group', l.path, `kazoo Party: ${names.length} members`, [
    ['members', String(names.length)], ['identifiers', members.map((m) => m.owner).join(', ')], ['layout', 'also zkts Party'],
    ...unreadLine(r.unread),
  ], members, ['kazoo']);
}

/** kazoo ShallowParty: every child is `<uuidhex>-<identifier>` (no reads needed for the identifiers; stats for sessions). */
export async function shallowParty(r: Reader, l: Listing): Promise<RecipeInspection | undefined> {
  if (l.children.length === 0 || !l.children.every((c) => SHALLOW.test(c))) return undefined;
  const members = await shallowMembers(r, l.path, l.children);
  return inspection('group', l.path, `kazoo ShallowParty: ${l.children.length} members`, [
    ['members', String(l.children.length)], ['identifiers', members.map((m) => m.owner).join(', ')], ['layout', 'also zkts ShallowParty'],
    ...unreadLine(r.unread),
  ], members, ['kazoo']);
}

async function shallowMembers(r: Reader, dir: string, names: readonly string[]): Promise<RecipeMember[]> {
  const nodes = (await r.readAll(dir, names)).sort(byAge);
  return nodes.map((n) => memberOf(n, 'member', { owner: SHALLOW.exec(n.name)?.[1] ?? n.name, library: 'kazoo' }));
}

const MAX_ITEMS = 200;

/**
 * kazoo SetPartitioner: members from `party/`; an item is owned by whoever holds the first lock node of
 * `locks/<item>` — its data names the member when zkts wrote it (kazoo writes none), and its session is the
 * session of that member's party node, which names it either way. Items nobody holds are shown with the member
 * kazoo's default split would give them.
 */
export async function partitioner(r: Reader, l: Listing): Promise<RecipeInspection | undefined> {
  if (!l.children.includes('party') || !l.children.includes('locks')) return undefined;
  const partyDir = joinPath(l.path, 'party');
  const partyNames = await r.children(partyDir);
  if (partyNames === undefined || !partyNames.every((c) => SHALLOW.test(c))) return undefined;
  const members = await shallowMembers(r, partyDir, partyNames);
  const bySession = new Map(members.map((m) => [m.session, m.owner ?? '']));
  const locksDir = joinPath(l.path, 'locks');
  const items = ((await r.children(locksDir)) ?? []).sort();
  const identifiers = members.map((m) => m.owner ?? '');
  const owned = new Map<string, string[]>();
  const assignment: string[] = [];
  let held = 0;
  for (const item of items.slice(0, MAX_ITEMS)) {
    const dir = joinPath(locksDir, item);
    const head = sortContenders((await r.children(dir)) ?? [], LOCK_MARKERS)[0];
    const node = head === undefined ? undefined : await r.read(joinPath(dir, head.name));
    let owner: string | undefined;
    if (node !== undefined) {
      held++;
      owner = bySession.get(node.stat.ephemeralOwner) ?? textOf(node.data) ?? `session ${hexSession(node.stat.ephemeralOwner)}`;
    } else {
      owner = identifiers.find((id) => kazooPartition(id, identifiers, items).includes(item));
      owner = owner === undefined ? undefined : `${owner} (by the default split, not held)`;
    }
    if (owner !== undefined) {
      assignment.push(`${item} → ${owner}`);
      const base = owner.split(' (')[0] as string;
      owned.set(base, [...(owned.get(base) ?? []), item]);
    }
  }
  const shown = members.map((m) => ({ ...m, details: [['items', (owned.get(m.owner ?? '') ?? []).join(', ')] as const] }));
  return inspection('partitioner', l.path, `kazoo SetPartitioner: ${members.length} members, ${held} of ${items.length} items held`, [
    ['members', String(members.length)], ['items', String(items.length)], ['held', String(held)],
    ...(assignment.length > 0 ? [['assignment', assignment.join('; ')] as const] : []), ['layout', 'also zkts SetPartitioner'],
    ...(items.length > MAX_ITEMS ? [['shown', `first ${MAX_ITEMS} items`] as const] : []), ...unreadLine(r.unread),
  ], shown, ['kazoo']);
}

const serializer = new JsonInstanceSerializer();

/** A node's data as a Curator service instance: a JSON object with Curator's `name` and `id` and one more of its fields. */
function instanceOf(node: ReadNode): ReturnType<JsonInstanceSerializer['deserialize']> | undefined {
  const text = textOf(node.data, 1 << 20);
  if (text === undefined || !text.startsWith('{')) return undefined;
  try {
    const raw = JSON.parse(text) as Record<string, unknown>;
    if (typeof raw['name'] !== 'string' || typeof raw['id'] !== 'string') return undefined;
    if (!('registrationTimeUTC' in raw) && !('serviceType' in raw) && !('address' in raw)) return undefined;
    return serializer.deserialize(node.data, node.path);
  } catch {
    return undefined;
  }
}

/** `<base>/<service>`: its instances, with address, port and payload. Probed on the first child before reading the rest. */
export async function discoveryService(r: Reader, l: Listing): Promise<RecipeInspection | undefined> {
  const first = l.children[0];
  if (first === undefined) return undefined;
  const probe = await r.read(joinPath(l.path, first));
  if (probe === undefined || instanceOf(probe) === undefined) return undefined;
  const nodes = [probe, ...(await r.readAll(l.path, l.children.slice(1)))].sort(byAge);
  const members: RecipeMember[] = [];
  for (const n of nodes) {
    const inst = instanceOf(n);
    if (inst === undefined) continue;
    const where = inst.address === null ? undefined : `${inst.address}${inst.port === null ? '' : `:${inst.port}`}`;
    members.push(memberOf(n, 'instance', {
      owner: inst.id, library: 'curator',
      details: [
        ...(inst.address === null ? [] : [['address', inst.address] as const]),
        ...(inst.port === null ? [] : [['port', String(inst.port)] as const]),
        ...(inst.sslPort === null ? [] : [['sslPort', String(inst.sslPort)] as const]),
        ...(inst.payload === null ? [] : [['payload', JSON.stringify(inst.payload)] as const]),
        ['serviceType', inst.serviceType], ['registered', new Date(inst.registrationTimeUTC).toISOString()],
        ...(where === undefined ? [] : [['endpoint', where] as const]),
        ...(inst.enabled ? [] : [['enabled', 'no'] as const]),
      ],
    }));
  }
  const name = l.path.slice(l.path.lastIndexOf('/') + 1);
  return inspection('discovery', l.path, `Curator ServiceDiscovery service ${name}: ${members.length} instances`, [
    ['service', name], ['instances', String(members.length)], ['layout', 'also zkts ServiceDiscovery'], ...unreadLine(r.unread),
  ], members, ['curator']);
}

const MAX_SERVICES = 200;

/** `<base>`: its services (children whose first child is an instance) with their instance counts. */
export async function discoveryBase(r: Reader, l: Listing): Promise<RecipeInspection | undefined> {
  const members: RecipeMember[] = [];
  let probed = 0;
  for (const service of l.children.slice(0, MAX_SERVICES)) {
    // Probe the first three children only: a base with no instance among them is not a base.
    if (members.length === 0 && probed++ >= 3) return undefined;
    const dir = joinPath(l.path, service);
    const instances = await r.children(dir);
    if (instances === undefined || instances.length === 0) continue;
    const probe = await r.read(joinPath(dir, instances[0] as string));
    const inst = probe === undefined ? undefined : instanceOf(probe);
    if (inst === undefined) continue;
    const stat = await r.exists(dir);
    members.push({
      role: 'service', name: service, path: dir, sequence: undefined, owner: inst.name, library: 'curator',
      session: undefined, since: stat?.ctime, details: [['instances', String(instances.length)]],
    });
  }
  if (members.length === 0) return undefined;
  const total = members.reduce((n, m) => n + Number(m.details[0]?.[1] ?? 0), 0);
  return inspection('discovery', l.path, `Curator ServiceDiscovery: ${members.length} services, ${total} instances`, [
    ['services', String(members.length)], ['instances', String(total)], ['layout', 'also zkts ServiceDiscovery'],
    ...(l.children.length > MAX_SERVICES ? [['shown', `first ${MAX_SERVICES} children`] as const] : []),
  ], members, ['curator']);
}

/** Curator GroupMember: every child an ephemeral member node named by its id, data = its payload. */
export async function groupMember(r: Reader, l: Listing): Promise<RecipeInspection | undefined> {
  // Probe one child first: a directory of persistent nodes (most of a tree) costs one read, not a thousand.
  const first = l.children[0];
  if (first === undefined || ((await r.exists(joinPath(l.path, first)))?.ephemeralOwner ?? 0n) === 0n) return undefined;
  const nodes = (await r.readAll(l.path, l.children)).sort(byAge);
  if (nodes.length === 0 || nodes.some((n) => n.stat.ephemeralOwner === 0n)) return undefined;
  const members = nodes.map((n) => {
    const payload = textOf(n.data);
    return memberOf(n, 'member', {
      owner: n.name, library: 'curator',
      details: [...(payload === undefined ? [['payload', `${n.data.length} B`] as const] : [['payload', payload] as const]), ['member for', formatDuration(r.now - n.stat.ctime)]],
    });
  });
  return inspection('group', l.path, `Curator GroupMember group: ${l.children.length} members`, [
    ['members', String(l.children.length)], ['ids', members.map((m) => m.name).join(', ')], ['layout', 'also zkts GroupMember'],
    ...unreadLine(r.unread),
  ], members, ['curator']);
}
