/**
 * Every byte the CLI prints goes through here: readable text by default, one JSON object per line with
 * `--json`. Longs (zxids, session ids) become decimal strings in JSON, since they exceed 2^53; the readable
 * text shows them in `0x` hex (ids.ts).
 */
import type { ACL, Stat, WatchEvent } from '@zkts/protocol';

import { hexId, hexIdText, ID_FIELDS } from './ids.js';

export interface Sink {
  write(text: string | Uint8Array): unknown;
}

/** What a JSON error carries besides its message: `code` (default ERROR), and e.g. `exitCode`, `command`. */
export interface ErrorFields {
  readonly code?: string;
  readonly [field: string]: unknown;
}

export class Output {
  readonly json: boolean;
  private readonly stdout: Sink;
  private readonly stderr: Sink;

  constructor(json: boolean, stdout: Sink = process.stdout, stderr: Sink = process.stderr) {
    this.json = json;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /** A line of readable output (ignored in JSON mode: the JSON record carries the same facts). */
  line(text: string): void {
    if (!this.json) this.stdout.write(`${text}\n`);
  }

  /** A JSON record in JSON mode; the readable text otherwise. */
  emit(record: object, text: string | (() => string)): void {
    if (this.json) this.stdout.write(`${toJson(record)}\n`);
    else this.stdout.write(`${typeof text === 'string' ? text : text()}\n`);
  }

  /** A JSON record in JSON mode; nothing otherwise (commands that are quiet on success). */
  record(record: object): void {
    if (this.json) this.stdout.write(`${toJson(record)}\n`);
  }

  raw(bytes: Uint8Array | string): void {
    this.stdout.write(bytes);
  }

  /**
   * An error, always on stderr: `zkts: message` for people; with --json one object per line,
   * `{"error":{"code","message",...fields}}`, so a script can parse every line it gets.
   */
  error(message: string, fields: ErrorFields = {}): void {
    if (this.json) this.stderr.write(`${toJson({ error: { code: fields.code ?? 'ERROR', message, ...fields } })}\n`);
    else this.stderr.write(`zkts: ${message}\n`);
  }

  note(message: string): void {
    this.stderr.write(`${message}\n`);
  }
}

export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return v.toString();
    if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');
    return v;
  });
}

/** A Stat as JSON: zxids and the owner as decimal strings, times in ms. Takes the client's Stat and the codec's (bigint times). */
export function statRecord(stat: Omit<Stat, 'ctime' | 'mtime'> & { ctime: number | bigint; mtime: number | bigint }): Record<string, string | number> {
  return {
    czxid: stat.czxid.toString(),
    mzxid: stat.mzxid.toString(),
    pzxid: stat.pzxid.toString(),
    ctime: Number(stat.ctime),
    mtime: Number(stat.mtime),
    version: stat.version,
    cversion: stat.cversion,
    aversion: stat.aversion,
    ephemeralOwner: stat.ephemeralOwner.toString(),
    dataLength: stat.dataLength,
    numChildren: stat.numChildren,
  };
}

const time = (ms: number | bigint): string => new Date(Number(ms)).toISOString();

export function formatStat(stat: Stat): string {
  return [
    `czxid = ${hexId(stat.czxid)}`,
    `ctime = ${time(stat.ctime)}`,
    `mzxid = ${hexId(stat.mzxid)}`,
    `mtime = ${time(stat.mtime)}`,
    `pzxid = ${hexId(stat.pzxid)}`,
    `cversion = ${stat.cversion}`,
    `dataVersion = ${stat.version}`,
    `aclVersion = ${stat.aversion}`,
    `ephemeralOwner = ${hexId(stat.ephemeralOwner)}`,
    `dataLength = ${stat.dataLength}`,
    `numChildren = ${stat.numChildren}`,
  ].join('\n');
}

const PERM_LETTERS: readonly (readonly [number, string])[] = [
  [4, 'c'],
  [8, 'd'],
  [1, 'r'],
  [2, 'w'],
  [16, 'a'],
];

export function permString(perms: number): string {
  return PERM_LETTERS.filter(([bit]) => (perms & bit) !== 0).map(([, letter]) => letter).join('');
}

/** The same `scheme:id:perms` form `acl set` takes, so output can be pasted back. */
export function formatAcl(acl: readonly ACL[]): string {
  return acl.map((entry) => `${entry.id.scheme}:${entry.id.id}:${permString(entry.perms)}`).join('\n');
}

export function aclRecord(acl: readonly ACL[]): { scheme: string; id: string; perms: string }[] {
  return acl.map((entry) => ({ scheme: entry.id.scheme, id: entry.id.id, perms: permString(entry.perms) }));
}

/** Servers before 3.9 send -1 as an event's zxid (no zxid at all): then the record has none either. */
export function eventRecord(event: WatchEvent): Record<string, string> {
  const record: Record<string, string> = { type: event.type, path: event.path };
  if (event.zxid >= 0n) record['zxid'] = event.zxid.toString();
  return record;
}

export function formatEvent(event: WatchEvent): string {
  return `${event.type} ${event.path}`;
}

/** Data shown as text when it is valid UTF-8, as base64 otherwise (JSON mode). */
export function dataRecord(data: Uint8Array | null): { data: string | null; encoding: 'utf8' | 'base64' } {
  if (data === null) return { data: null, encoding: 'utf8' };
  try {
    return { data: new TextDecoder('utf-8', { fatal: true }).decode(data), encoding: 'utf8' };
  } catch {
    return { data: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64'), encoding: 'base64' };
  }
}

// ---- decoded traffic (decode, proxy) ----

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface ConversationLineLike {
  readonly conn: number;
  readonly time: number;
  readonly t: number;
  readonly dir: 'c2s' | 's2c';
  readonly latencyMs?: number;
  readonly entry: {
    readonly kind: string;
    readonly xid?: number;
    readonly op?: string;
    readonly path?: string | null;
    readonly zxid?: string;
    readonly err?: string;
    readonly errCode?: number;
    readonly body?: { [key: string]: Json };
    readonly notes?: string[];
    readonly error?: string;
    readonly length: number;
  };
}

export function conversationRecord(line: ConversationLineLike): Record<string, unknown> {
  const { entry } = line;
  const record: Record<string, unknown> = { conn: line.conn, t: round(line.t), dir: line.dir, kind: entry.kind };
  for (const key of ['xid', 'op', 'path', 'zxid', 'err', 'errCode', 'body', 'notes', 'error', 'length'] as const) {
    if (entry[key] !== undefined) record[key] = entry[key];
  }
  if (line.latencyMs !== undefined) record['latencyMs'] = round(line.latencyMs);
  return record;
}

/**
 * To the microsecond, as --stats rounds the same samples (a reply on a local network comes well within 1 ms);
 * printed without trailing zeros, so a capture that only has whole milliseconds does not look finer than it is.
 */
function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** A bytes preview from the codec ({length, utf8|hex, truncated?}) as `"text"` or `0xhex`. */
function preview(value: { [key: string]: Json }): string | undefined {
  if (typeof value['length'] !== 'number') return undefined;
  const more = value['truncated'] === true ? `…(${value['length']} bytes)` : '';
  if (typeof value['utf8'] === 'string') return `${JSON.stringify(value['utf8'])}${more}`;
  if (typeof value['hex'] === 'string') return value['hex'] === '' ? '""' : `0x${value['hex']}${more}`;
  if (value['redacted'] === true) return `<${value['length']} bytes>`;
  return undefined;
}

/** A field of a decoded record: ids in hex (ids.ts), everything else as compact() shows it. */
function field(key: string, value: Json): string {
  return ID_FIELDS.has(key) && typeof value === 'string' ? hexIdText(value) : compact(value);
}

function compact(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(compact).join(',')}]`;
  if (typeof value === 'object') {
    const bytes = preview(value);
    if (bytes !== undefined) return bytes;
    // A Stat is long; its version is what a person reads it for.
    if ('czxid' in value && 'version' in value) return `{version=${compact(value['version'] ?? null)},czxid=${field('czxid', value['czxid'] ?? null)}}`;
    if ('perms' in value && typeof value['id'] === 'object' && value['id'] !== null && !Array.isArray(value['id'])) {
      return `${compact(value['id']['scheme'] ?? null)}:${compact(value['id']['id'] ?? null)}:${permString(Number(value['perms']))}`;
    }
    return `{${Object.entries(value).map(([k, v]) => `${k}=${field(k, v)}`).join(',')}}`;
  }
  return String(value);
}

/** `key=value` pairs of a decoded body; the path is already on the line, unless it differs (created paths). */
function bodyFields(body: { [key: string]: Json } | undefined, path: string | null | undefined): string {
  if (body === undefined) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if ((key === 'path' || key === 'prefixPath') && value === path) continue;
    if (key === 'stat' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      parts.push(`version=${compact(value['version'] ?? null)}`, `czxid=${field('czxid', value['czxid'] ?? null)}`);
      continue;
    }
    parts.push(`${key}=${field(key, value)}`);
  }
  return parts.join(' ');
}

export function formatConversationLine(line: ConversationLineLike): string {
  const { entry } = line;
  const arrow = line.dir === 'c2s' ? '->' : '<-';
  const head = `#${line.conn} ${(line.t / 1000).toFixed(3).padStart(8)} ${arrow}`;
  const words: string[] = [];
  if (entry.kind === 'error') {
    words.push('DECODE ERROR', entry.error ?? 'undecodable frame');
  } else {
    words.push(entry.kind);
    if (entry.xid !== undefined && entry.kind !== 'event') words.push(`xid=${entry.xid}`);
    if (entry.op !== undefined && entry.kind !== 'event' && entry.kind !== 'ping') words.push(entry.op);
    if (entry.kind === 'event' && entry.body !== undefined) {
      words.push(String(entry.body['type']), entry.path ?? '', `state=${String(entry.body['state'])}`);
    } else {
      if (entry.path !== undefined && entry.path !== null) words.push(entry.path);
      if (entry.err !== undefined) words.push(entry.err);
      if (entry.zxid !== undefined && entry.kind === 'reply') words.push(`zxid=${hexIdText(entry.zxid)}`);
      if (line.latencyMs !== undefined) words.push(`(${round(line.latencyMs)} ms)`);
      const fields = bodyFields(entry.body, entry.path);
      if (fields !== '') words.push(fields);
    }
  }
  if (entry.notes !== undefined) words.push(`[${entry.notes.join('; ')}]`);
  return `${head} ${words.filter((w) => w !== '').join(' ')}`;
}
