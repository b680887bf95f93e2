/**
 * The data of kazoo's lease node (kazoo/recipe/lease.py), byte for byte: Python's `json.dumps` of
 * `{"version": 1, "holder": <identifier>, "end": <end>}` in that key order, with json.dumps' default
 * separators (", " and ": ") and `ensure_ascii` (every character outside printable ASCII as a lowercase
 * `\uXXXX`, astral ones as surrogate pairs), encoded as UTF-8. <end> is a naive UTC time written with
 * strftime("%Y-%m-%dT%H:%M:%S"), so the fraction of a second is dropped; kazoo reads it back with strptime
 * and compares `utcnow() < end`, so a lease lasts until that whole second.
 */
import { DataFormatError } from '../errors.js';

/** kazoo's storage format version (`_version`): a node with another version is left alone. */
export const LEASE_FORMAT_VERSION = 1;

/** A lease node as read: kazoo's current format, or another version (left to a client that knows it). */
export type LeaseRecord =
  | { readonly kind: 'current'; readonly holder: string; /** The end, ms since the Unix epoch (a whole second). */ readonly endMs: number }
  | { readonly kind: 'other-version'; readonly version: unknown };

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** strftime("%Y-%m-%dT%H:%M:%S") of the UTC time `ms`, fraction dropped (Python truncates). */
export function formatEnd(ms: number): string {
  const d = new Date(Math.floor(ms / 1000) * 1000);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

// What Python's strptime accepts for these directives (fields may drop their leading zero).
const END = /^(\d{4})-(1[0-2]|0[1-9]|[1-9])-(3[01]|[12]\d|0[1-9]|[1-9]| [1-9])T(2[0-3]|[01]\d|\d):([0-5]\d|\d):([0-5]\d|\d)$/;

/** strptime(text, "%Y-%m-%dT%H:%M:%S") as UTC ms; undefined when Python would raise ValueError. */
export function parseEnd(text: string): number | undefined {
  const m = END.exec(text);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map((f) => Number(f.trim()));
  const ms = Date.UTC(year as number, (month as number) - 1, day, hour, minute, second);
  // Date.UTC rolls 31 February over into March; Python rejects it.
  return new Date(ms).getUTCDate() === day && year !== undefined && year >= 1 ? ms : undefined;
}

/** Python's json.dumps(str) with ensure_ascii: JSON.stringify, then everything outside printable ASCII escaped. */
function pythonJsonString(s: string): string {
  return JSON.stringify(s).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The node data kazoo writes for `holder` until `endMs`. */
export function encodeLease(holder: string, endMs: number): Uint8Array {
  const json = `{"version": ${LEASE_FORMAT_VERSION}, "holder": ${pythonJsonString(holder)}, "end": ${pythonJsonString(formatEnd(endMs))}}`;
  return new TextEncoder().encode(json);
}

/**
 * Reads a lease node. Another version is returned as is (holder and end unread: kazoo leaves such a lease to
 * a newer client); anything kazoo could not read either is a DataFormatError.
 */
export function decodeLease(bytes: Uint8Array, where: string): LeaseRecord {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (e) {
    throw new DataFormatError(`${where}: not a kazoo lease (not UTF-8 JSON)`, { cause: e });
  }
  if (typeof value !== 'object' || value === null || !('version' in value)) {
    throw new DataFormatError(`${where}: not a kazoo lease (no "version")`);
  }
  const record = value as { version: unknown; holder?: unknown; end?: unknown };
  if (record.version !== LEASE_FORMAT_VERSION) return { kind: 'other-version', version: record.version };
  const endMs = typeof record.end === 'string' ? parseEnd(record.end) : undefined;
  if (typeof record.holder !== 'string' || endMs === undefined) {
    throw new DataFormatError(`${where}: not a kazoo lease (needs a string "holder" and an "end" like 2026-01-02T03:04:05)`);
  }
  return { kind: 'current', holder: record.holder, endMs };
}
