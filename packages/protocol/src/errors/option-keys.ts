/**
 * The one policy for keys an options object does not know, and the one way a refused value is shown in an
 * error message. A near miss of a known key (same letters in another case, or at most two edits away) is almost
 * surely a typo whose option would otherwise be silently ignored, so it is refused with a suggestion; any other
 * unknown key only warns (once per function and key in the process), because one options object is often shared
 * between calls and may carry keys meant for another of them.
 */
import { describeValue } from './describe-value.js';
import { InvalidArgumentError } from './errors.js';

export { describeValue };

/** The `code` of the process warning an unknown, not-near-miss option key raises. */
export const UNKNOWN_OPTION_WARNING = 'ZKTS_UNKNOWN_OPTION';

const warned = new Set<string>();

/**
 * Checks an options object before anything else reads it: `undefined` passes (no options), anything that is
 * not a plain object (null, an array, a primitive, a function) is an InvalidArgumentError naming `where`. A key
 * not in `knownKeys` that is a near miss of one (case-insensitively equal, or at most two edits away and fewer
 * edits than the known key has letters, so short keys do not match everything) throws InvalidArgumentError
 * "unknown option 'sessionTimout' of createClient: did you mean 'sessionTimeout'?"; any other unknown key emits
 * `process.emitWarning(message, { code: 'ZKTS_UNKNOWN_OPTION' })` once per (where, key) in the process.
 *
 * @param where the function the options belong to, as a user would name it ('createClient', 'zk.create').
 */
export function checkOptionKeys(options: unknown, knownKeys: readonly string[], where: string): void {
  if (!Array.isArray(knownKeys)) throw new InvalidArgumentError('knownKeys', `checkOptionKeys needs an array of keys, got ${describeValue(knownKeys)}`);
  if (typeof where !== 'string' || where === '') throw new InvalidArgumentError('where', `checkOptionKeys needs a non-empty function name, got ${describeValue(where)}`);
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidArgumentError('options', `${where} options must be an object, got ${describeValue(options)}`);
  }
  // for…in over own keys: no key array per call (operations check their options on every call).
  for (const key in options) {
    if (!Object.hasOwn(options, key) || knownKeys.includes(key)) continue;
    const near = nearMiss(key, knownKeys);
    if (near !== undefined) {
      throw new InvalidArgumentError('options', `unknown option '${key}' of ${where}: did you mean '${near}'?`);
    }
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
