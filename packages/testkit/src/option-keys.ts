/**
 * The unknown-option-key policy and the way a refused value is shown, as @zkts/protocol has them
 * (checkOptionKeys, describeValue). A copy, not an import: the testkit starts servers for any client, so it
 * depends on no zkts package (a testkit → protocol edge would also close a cycle with the packages whose tests
 * use the testkit). The policy is the same: a near miss of a known key (same letters in another case, or at most
 * two edits away and fewer edits than the key has letters) is refused with a suggestion; any other unknown key
 * warns once per (function, key) with code ZKTS_UNKNOWN_OPTION, since an options object may be shared.
 */
import { InvalidOptionError } from './errors.js';

/** The `code` of the process warning an unknown, not-near-miss option key raises (as @zkts/protocol's). */
export const UNKNOWN_OPTION_WARNING = 'ZKTS_UNKNOWN_OPTION';

const warned = new Set<string>();

/** A value as an error message shows it: numbers as printed, strings quoted, the kind of anything else. */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'number':
    case 'boolean':
      return String(value);
    case 'bigint':
      return `${value}n`;
    case 'string':
      return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}… (${value.length} characters)` : JSON.stringify(value);
    case 'symbol':
      return value.toString();
    case 'function':
      return 'a function';
    case 'undefined':
      return 'undefined';
    default:
      if (value === null) return 'null';
      if (Array.isArray(value)) return `an array of ${value.length}`;
      if (value instanceof Uint8Array) return `${value.byteLength} bytes`;
      return 'an object';
  }
}

/**
 * Checks an options object before anything reads it: undefined passes, a non-object (null, an array, a
 * primitive, a function) is refused, a near-miss key is refused with "did you mean", another unknown key warns.
 * @param where the function as a user names it ('startZooKeeper', 'startZooKeeper sasl').
 */
export function checkOptionKeys(options: unknown, knownKeys: readonly string[], where: string): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidOptionError('options', `${where} options must be an object, got ${describeValue(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (knownKeys.includes(key)) continue;
    const near = nearMiss(key, knownKeys);
    if (near !== undefined) throw new InvalidOptionError(key, `unknown option '${key}' of ${where}: did you mean '${near}'?`);
    const id = `${where}\u0000${key}`;
    if (warned.has(id)) continue;
    warned.add(id);
    process.emitWarning(`unknown option '${key}' of ${where} is ignored (known: ${knownKeys.join(', ')})`, { code: UNKNOWN_OPTION_WARNING });
  }
}

function nearMiss(key: string, knownKeys: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = 3;
  for (const known of knownKeys) {
    if (known.toLowerCase() === lower) return known;
    const d = editDistance(lower, known.toLowerCase(), bestDistance);
    if (d < bestDistance && d < known.length) {
      best = known;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance, giving up (returning `limit`) once every path is at least `limit` edits long. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin >= limit) return limit;
    previous = current;
  }
  return Math.min(previous[b.length] ?? limit, limit);
}
