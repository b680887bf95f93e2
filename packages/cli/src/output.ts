/**
 * Every byte the CLI prints goes through here: readable text by default, one JSON object per line with
 * `--json`. Longs (zxids, session ids) become decimal strings in JSON, since they exceed 2^53.
 */
import type { ACL, Stat, WatchEvent } from '@zkts/protocol';

export interface Sink {
  write(text: string | Uint8Array): unknown;
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

  /** Diagnostics for people, always on stderr, in both modes. */
  error(message: string): void {
    this.stderr.write(`zkts: ${message}\n`);
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

export function statRecord(stat: Stat): Record<string, string | number> {
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

const hex = (value: bigint): string => `0x${value.toString(16)}`;
const time = (ms: bigint): string => new Date(Number(ms)).toISOString();

export function formatStat(stat: Stat): string {
  return [
    `czxid = ${hex(stat.czxid)}`,
    `ctime = ${time(stat.ctime)}`,
    `mzxid = ${hex(stat.mzxid)}`,
    `mtime = ${time(stat.mtime)}`,
    `pzxid = ${hex(stat.pzxid)}`,
    `cversion = ${stat.cversion}`,
    `dataVersion = ${stat.version}`,
    `aclVersion = ${stat.aversion}`,
    `ephemeralOwner = ${hex(stat.ephemeralOwner)}`,
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

export function eventRecord(event: WatchEvent): Record<string, string> {
  return { type: event.type, path: event.path, zxid: event.zxid.toString() };
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
