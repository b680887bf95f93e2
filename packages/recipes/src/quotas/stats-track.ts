/**
 * The text of a quota node, as ZooKeeper's StatsTrack reads and writes it: `key=long` pairs separated by `,` or
 * `;`, e.g. `count=5,bytes=-1=;byteHardLimit=-1;countHardLimit=10` in a `zookeeper_limits` node and
 * `count=3,bytes=12` in a `zookeeper_stats` node. -1 (any negative) means "not set".
 *
 * Writing follows StatsTrack.toString byte for byte, because the server and zkCli parse what we write: `count`
 * then `bytes` first, and when other keys follow, one extra `=` after the bytes value (so a 3.4 parser, which
 * splits on `,` only, still reads `bytes`) and the rest sorted by key, each after a `;`. Reading is bounded (text
 * length, number of pairs, key length, values within a safe integer) and strict where StatsTrack would throw; a
 * text it cannot read is a QuotaFormatError, never a wrong number. Keys we do not know are kept, so rewriting a
 * node another tool extended loses nothing. Pure: no I/O.
 */
import { QuotaFormatError } from './errors.js';

/** A quota node's pairs, in the order they were read (the writer sorts). */
export type StatsPairs = Map<string, number>;

/** The keys StatsTrack knows (note `byteHardLimit`, singular, where the soft one is `bytes`). */
export const KEYS = { count: 'count', bytes: 'bytes', countHardLimit: 'countHardLimit', byteHardLimit: 'byteHardLimit' } as const;

/** The longest quota text read: StatsTrack's four longs need under 120 bytes. */
export const MAX_TEXT_BYTES = 4096;
const MAX_PAIRS = 64;
const MAX_KEY_LENGTH = 128;

const SEPARATOR = /[,;]+/;
/** What Long.parseLong takes (a sign, then decimal digits). */
const LONG = /^[+-]?\d{1,19}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a quota node's bytes. `path` names the node in errors. Empty data is an empty map (StatsTrack's "no
 * values"). Throws QuotaFormatError for text StatsTrack would refuse, and for what we bound.
 */
export function parseStatsTrack(data: Uint8Array, path: string): StatsPairs {
  if (data.byteLength > MAX_TEXT_BYTES) throw new QuotaFormatError(path, `${data.byteLength} bytes, more than a quota text (${MAX_TEXT_BYTES})`);
  let text: string;
  try {
    text = utf8.decode(data);
  } catch (e) {
    throw new QuotaFormatError(path, 'not UTF-8 text', { cause: e });
  }
  const pairs: StatsPairs = new Map();
  if (text === '') return pairs;
  const pieces = text.split(SEPARATOR);
  if (pieces.length > MAX_PAIRS) throw new QuotaFormatError(path, `more than ${MAX_PAIRS} pairs`);
  for (const piece of pieces) {
    // A separator at either end leaves an empty piece; Java's split drops the trailing ones, we drop both.
    if (piece === '') continue;
    const parts = piece.split('=');
    // Java's split drops trailing empty strings: `bytes=5=` is ["bytes", "5"].
    while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
    const [key, raw] = parts;
    if (key === undefined || key === '' || raw === undefined) throw new QuotaFormatError(path, `'${clip(piece)}' is not key=value`);
    if (key.length > MAX_KEY_LENGTH) throw new QuotaFormatError(path, `a key of ${key.length} characters`);
    // `key==5`: StatsTrack reads the empty value as -1 (not set) and ignores what follows.
    pairs.set(key, raw === '' ? -1 : parseLong(raw, key, path));
  }
  return pairs;
}

function parseLong(raw: string, key: string, path: string): number {
  if (!LONG.test(raw)) throw new QuotaFormatError(path, `${key}=${clip(raw)} is not an integer`);
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new QuotaFormatError(path, `${key}=${raw} is beyond what zkts reads exactly (2^53-1)`);
  return value;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** StatsTrack.toString: `count=C,bytes=B`, then for other keys `=` and `;key=value` each, sorted by key. */
export function formatStatsTrack(pairs: StatsPairs): string {
  const at = (key: string): number => pairs.get(key) ?? -1;
  let text = `${KEYS.count}=${at(KEYS.count)},${KEYS.bytes}=${at(KEYS.bytes)}`;
  // Java sorts with String.compareTo: UTF-16 code units, as JavaScript's default sort.
  const rest = [...pairs.keys()].filter((k) => k !== KEYS.count && k !== KEYS.bytes).sort();
  if (rest.length > 0) text += `=${rest.map((k) => `;${k}=${at(k)}`).join('')}`;
  return text;
}

/** A value as the API reports it: undefined when not set (StatsTrack's -1, or any negative, which the server ignores too). */
export function limitOf(pairs: StatsPairs, key: string): number | undefined {
  const value = pairs.get(key);
  return value === undefined || value < 0 ? undefined : value;
}
