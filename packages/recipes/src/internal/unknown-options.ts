/**
 * The recipes' side of protocol's unknown-option policy: a key no option has is either a near miss of a known
 * one (a typo: the caller's intent would be silently lost, so it is refused) or something else (warned about
 * once per door and key, so extra keys from a spread of a wider object keep working). The matching itself is
 * protocol's; this only turns its verdict into the recipes' error.
 */
// PROVISIONAL until @zkts/protocol exports its helper: the same policy, to be replaced by a call to it.
const warned = new Set<string>();

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j] ?? 0;
      row[j] = Math.min(up + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = up;
    }
  }
  return row[b.length] ?? 0;
}

/**
 * For an unknown option `key` of `door`: the message to throw when it is a near miss of one of `known`, or
 * undefined after warning (once per door and key) when it is not.
 */
export function unknownOptionMessage(door: string, key: string, known: readonly string[]): string | undefined {
  const near = known.find((k) => k.toLowerCase() === key.toLowerCase() || distance(k, key) <= 2);
  if (near !== undefined) return `unknown option '${key}': did you mean '${near}'?`;
  const id = `${door}\u0000${key}`;
  if (!warned.has(id)) {
    warned.add(id);
    process.emitWarning(`${door}: unknown option '${key}' is ignored`, { code: 'ZKTS_UNKNOWN_OPTION' });
  }
  return undefined;
}
