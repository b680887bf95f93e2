/**
 * Turning read nodes into RecipeMembers and summaries: the node's data as an identifier, its session and age,
 * durations in words, and who wrote a node (library attribution). Shared by every recogniser.
 */
import type { Contender } from '../internal/index.js';
import type { ReadNode } from './reader.js';
import type { RecipeInspection, RecipeKind, RecipeLibrary, RecipeMember } from './types.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The data as text when it reads as an identifier: valid UTF-8, no control characters, not too long. */
export function textOf(data: Uint8Array, max = 256): string | undefined {
  if (data.length === 0 || data.length > max * 4) return undefined;
  let text: string;
  try {
    text = decoder.decode(data);
  } catch {
    return undefined;
  }
  return text.length <= max && !hasControlCharacters(text) ? text : undefined;
}

/** C0 controls but tab and line feed, and DEL: such data is bytes, not an identifier to print. */
function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a) || c === 0x7f) return true;
  }
  return false;
}

/** A duration in the largest unit that keeps it readable: "850 ms", "12 s", "3 min", "5 h", "2 d". */
export function formatDuration(ms: number): string {
  const v = Math.max(0, ms);
  if (v < 1000) return `${Math.round(v)} ms`;
  if (v < 120_000) return `${Math.floor(v / 1000)} s`;
  if (v < 2 * 3_600_000) return `${Math.floor(v / 60_000)} min`;
  if (v < 2 * 86_400_000) return `${Math.floor(v / 3_600_000)} h`;
  return `${Math.floor(v / 86_400_000)} d`;
}

/** The session of an ephemeral node, undefined for any other. */
export const sessionOf = (node: ReadNode): bigint | undefined => (node.stat.ephemeralOwner === 0n ? undefined : node.stat.ephemeralOwner);

export const hexSession = (session: bigint): string => `0x${session.toString(16)}`;

/** A member from a read node; `extra` overrides the defaults (owner = the data as text). */
export function memberOf(node: ReadNode, role: string, extra: Partial<RecipeMember> = {}): RecipeMember {
  return {
    role, name: node.name, path: node.path, sequence: undefined, owner: textOf(node.data), library: undefined,
    session: sessionOf(node), since: node.stat.ctime, details: [], ...extra,
  };
}

// Markers under which Curator always writes data: the client's default data (its local address) unless the
// caller passed bytes. zkts writes Curator's names with its `data` option, empty by default.
const CURATOR_WRITES_DATA = new Set(['lock-', '__READ__', '__WRIT__', 'lease-']);

/**
 * Who wrote a contender node. kazoo's names are its own (`<uuidhex>__lock__…`). zkts writes Curator's names
 * (`_c_<uuid>-<marker><seq>`, so both queue together), so the bytes decide, best effort: an empty lock or lease
 * node is zkts's (Curator fills it with its default data; a revocable Curator mutex, which writes none, reads
 * as zkts), a protected `qn-` item is zkts's Queue (Curator's SimpleDistributedQueue never protects its names);
 * anything else with Curator's names is Curator's.
 */
export function contenderLibrary(c: Contender, data: Uint8Array | undefined): RecipeLibrary {
  if (c.marker === '__lock__' || c.marker === '__rlock__') return 'kazoo';
  if (c.prefix.startsWith('_c_')) {
    if (c.marker === 'qn-') return 'zkts';
    if (CURATOR_WRITES_DATA.has(c.marker) && data !== undefined && data.length === 0) return 'zkts';
  }
  return 'curator';
}

const LIBRARY_ORDER: readonly RecipeLibrary[] = ['curator', 'kazoo', 'zkts'];

/** The libraries of the members (and `also`), each once, in a fixed order. */
export function librariesOf(members: readonly RecipeMember[], also: readonly RecipeLibrary[] = []): RecipeLibrary[] {
  const seen = new Set<RecipeLibrary>(also);
  for (const m of members) if (m.library !== undefined) seen.add(m.library);
  return LIBRARY_ORDER.filter((l) => seen.has(l));
}

/** The summary line for nodes the read budget left unread, if any. */
export function unreadLine(unread: number): (readonly [string, string])[] {
  return unread > 0 ? [['not read', `${unread} (read budget)`]] : [];
}

/** Assembles an inspection. */
export function inspection(
  kind: RecipeKind, path: string, title: string, summary: readonly (readonly [string, string])[], members: readonly RecipeMember[],
  also: readonly RecipeLibrary[] = [],
): RecipeInspection {
  return { kind, path, libraries: librariesOf(members, also), title, summary, members };
}
