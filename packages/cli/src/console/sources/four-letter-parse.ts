/**
 * Parsers of the four-letter words that show sessions and watches, for ZooKeeper 3.8's text formats (and
 * @zkts/server's, which prints the same):
 *
 *   cons  ServerCnxn.dumpConnectionInfo, one connection a line:
 *         ` /127.0.0.1:57036[1](queued=0,recved=8,sent=8,sid=0x1…,lop=GETC,est=…,to=10000,…)`
 *   wchc  WatchManager.dumpWatches by session: `0x1…` then a `\t/path` line per watched path
 *   wchp  WatchManager.dumpWatches by path: `/path` then a `\t0x1…` line per watching session
 *   dump  SessionTracker sessions by expiry, `ephemeral nodes dump` (`0x1…:` then `\t/path` lines) and
 *         `Connections dump` (`\tip: /127.0.0.1:57036 sessionId: 0x1…`)
 *
 * Both wchc and wchp list data watches only (exists/getData): ZooKeeper keeps child watches in another
 * WatchManager that no word dumps. A refused word is answered with one sentence instead (see `refusal`).
 */
import { hexId } from '../../ids.js';
import type { ServerSession } from '../api-types.js';

export interface ConsConnection {
  /** host:port of the client (`[v6]:port` for IPv6). */
  readonly address: string;
  /** Undefined for a connection without a session (the four-letter connection itself, a handshake). */
  readonly session: bigint | undefined;
  readonly timeoutMs: number | undefined;
  readonly received: number | undefined;
  readonly sent: number | undefined;
  readonly lastOp: string | undefined;
  /** Every `key=value` of the parentheses, as printed. */
  readonly fields: Readonly<Record<string, string>>;
}

const SESSION_ID = /^0x[0-9a-f]+$/i;

function sessionOf(text: string | undefined): bigint | undefined {
  return text !== undefined && SESSION_ID.test(text) ? BigInt(text.toLowerCase()) : undefined;
}

function numberOf(text: string | undefined): number | undefined {
  if (text === undefined || !/^-?\d+$/.test(text)) return undefined;
  return Number(text);
}

/**
 * Java prints an InetSocketAddress as `hostname/ip:port`, the hostname empty when unresolved; JDK 14 and
 * later put an IPv6 address in brackets, older ones do not. Returns `ip:port`, `[v6]:port` for IPv6.
 */
export function socketAddress(text: string): string {
  const ip = text.slice(text.indexOf('/') + 1);
  if (ip.startsWith('[')) return ip;
  const colon = ip.lastIndexOf(':');
  if (colon < 0) return ip;
  const host = ip.slice(0, colon);
  return host.includes(':') ? `[${host}]${ip.slice(colon)}` : ip;
}

export function parseCons(text: string): ConsConnection[] {
  const out: ConsConnection[] = [];
  for (const line of text.split('\n')) {
    const match = /^\s*(\S*\/\S+?)\[\d+\]\((.*)\)\s*$/.exec(line);
    if (match === null) continue;
    const fields: Record<string, string> = {};
    for (const pair of (match[2] ?? '').split(',')) {
      const at = pair.indexOf('=');
      if (at > 0) fields[pair.slice(0, at)] = pair.slice(at + 1);
    }
    const session = sessionOf(fields['sid']);
    out.push({
      address: socketAddress(match[1] ?? ''),
      session: session === 0n ? undefined : session,
      timeoutMs: numberOf(fields['to']),
      received: numberOf(fields['recved']),
      sent: numberOf(fields['sent']),
      lastOp: fields['lop'],
      fields,
    });
  }
  return out;
}

/** `head` lines each followed by tab-indented `item` lines (wchc, wchp and dump's ephemerals share it). */
function groups(lines: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of lines) {
    if (line.trim() === '') continue;
    if (/^\s/.test(line)) current?.push(line.trim());
    else {
      const head = line.trim().replace(/:$/, '');
      current = out.get(head) ?? [];
      out.set(head, current);
    }
  }
  return out;
}

/** wchc: session → the paths it watches. */
export function parseWatchesBySession(text: string): Map<bigint, string[]> {
  const out = new Map<bigint, string[]>();
  for (const [head, paths] of groups(text.split('\n'))) {
    const session = sessionOf(head);
    if (session !== undefined) out.set(session, paths);
  }
  return out;
}

/** wchp: path → the sessions watching it. */
export function parseWatchesByPath(text: string): Map<string, bigint[]> {
  const out = new Map<string, bigint[]>();
  for (const [head, sessions] of groups(text.split('\n'))) {
    if (!head.startsWith('/')) continue;
    out.set(head, sessions.map(sessionOf).filter((s): s is bigint => s !== undefined));
  }
  return out;
}

export interface DumpInfo {
  /** Every session the session tracker listed. */
  readonly sessions: bigint[];
  /** Ephemeral paths by owner session. */
  readonly ephemerals: Map<bigint, string[]>;
  /** Client address by session (`Connections dump`, 3.6 and later). */
  readonly addresses: Map<bigint, string>;
}

/** Splits `dump` at its section titles; an unknown layout yields what the known sections give. */
export function parseDump(text: string): DumpInfo {
  const sections = new Map<string, string[]>();
  let section = '';
  for (const line of text.split('\n')) {
    const title = /^(SessionTracker dump|ephemeral nodes dump|Connections dump):?\s*$/i.exec(line.trim());
    if (title !== null && !/^\s/.test(line)) {
      section = (title[1] ?? '').toLowerCase();
      continue;
    }
    const list = sections.get(section) ?? [];
    list.push(line);
    sections.set(section, list);
  }
  const sessions: bigint[] = [];
  for (const line of sections.get('sessiontracker dump') ?? []) {
    // Standalone/leader: `\t0x…` under each expiry bucket; learners: `0x…\t<timeout>ms` rows.
    const id = sessionOf(/^\s*(0x[0-9a-f]+)\b/i.exec(line)?.[1]);
    if (id !== undefined && !sessions.includes(id)) sessions.push(id);
  }
  const ephemerals = new Map<bigint, string[]>();
  for (const [head, paths] of groups((sections.get('ephemeral nodes dump') ?? []).filter((l) => !/^Sessions with Ephemerals/i.test(l)))) {
    const session = sessionOf(head);
    if (session !== undefined) ephemerals.set(session, paths);
  }
  const addresses = new Map<bigint, string>();
  for (const line of sections.get('connections dump') ?? []) {
    const match = /^\s*ip:\s*(\S+)\s+sessionId:\s*(0x[0-9a-f]+)/i.exec(line);
    const session = sessionOf(match?.[2]);
    if (match !== null && session !== undefined && session !== 0n) addresses.set(session, socketAddress(match[1] ?? ''));
  }
  return { sessions, ephemerals, addresses };
}

/**
 * Why a server did not answer a word, or null when `text` is an answer. ZooKeeper answers a word outside
 * `4lw.commands.whitelist` with "<word> is not executed because it is not in the whitelist.", and a server
 * that is not serving (no quorum, still loading) with "This ZooKeeper instance is not currently serving
 * requests"; servers before 3.4.10 just close the connection (an empty answer).
 */
export function refusal(word: string, text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return `the server closed the connection without an answer (is '${word}' in 4lw.commands.whitelist?)`;
  if (/is not executed because it is not in the whitelist/.test(trimmed)) return trimmed;
  if (/is not currently serving requests/.test(trimmed)) return trimmed;
  return null;
}

/** What each word gave, undefined for a word that did not answer. */
export interface SessionWords {
  readonly cons?: readonly ConsConnection[] | undefined;
  readonly wchc?: ReadonlyMap<bigint, readonly string[]> | undefined;
  readonly wchp?: ReadonlyMap<string, readonly bigint[]> | undefined;
  readonly dump?: DumpInfo | undefined;
}


/** One entry per session any word named, ordered by session id. */
export function mergeSessions(words: SessionWords): ServerSession[] {
  type Draft = { -readonly [K in keyof ServerSession]: ServerSession[K] };
  const byId = new Map<bigint, Draft>();
  const draft = (id: bigint): Draft => {
    let entry = byId.get(id);
    if (entry === undefined) {
      entry = { id: hexId(id), address: null, timeoutMs: null, ephemerals: [], watches: [], received: null, sent: null, lastOp: null };
      byId.set(id, entry);
    }
    return entry;
  };
  for (const c of words.cons ?? []) {
    if (c.session === undefined) continue;
    const entry = draft(c.session);
    entry.address = c.address;
    entry.timeoutMs = c.timeoutMs ?? null;
    entry.received = c.received ?? null;
    entry.sent = c.sent ?? null;
    entry.lastOp = c.lastOp ?? null;
  }
  for (const id of words.dump?.sessions ?? []) draft(id);
  for (const [id, paths] of words.dump?.ephemerals ?? []) draft(id).ephemerals = [...paths];
  for (const [id, address] of words.dump?.addresses ?? []) draft(id).address ??= address;
  if (words.wchc !== undefined) {
    for (const [id, paths] of words.wchc) draft(id).watches = [...paths];
  } else if (words.wchp !== undefined) {
    for (const [path, ids] of words.wchp) for (const id of ids) draft(id).watches = [...draft(id).watches, path];
  }
  return [...byId].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, entry]) => entry);
}

/** Paths by how many sessions watch them, most first (ties by path); from wchp, else inverted wchc. */
export function hotPaths(words: SessionWords): { path: string; watchers: number }[] {
  const counts = new Map<string, number>();
  if (words.wchp !== undefined) {
    for (const [path, ids] of words.wchp) counts.set(path, new Set(ids).size);
  } else if (words.wchc !== undefined) {
    for (const paths of words.wchc.values()) for (const path of new Set(paths)) counts.set(path, (counts.get(path) ?? 0) + 1);
  }
  return [...counts]
    .map(([path, watchers]) => ({ path, watchers }))
    .sort((a, b) => b.watchers - a.watchers || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
