/**
 * "Did you mean": the known words nearest to a mistyped one. Case is ignored when comparing, since the
 * commonest slip from zkCli is the case of a camelCase name (`getacl` for `getAcl`); a swap of two
 * neighbouring letters counts as one edit (`tsat` for `stat`).
 */

/** Edits (insert, delete, substitute, swap neighbours) from `a` to `b`: the optimal string alignment distance. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] as number;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i * cols + j] = best;
    }
  }
  return at(rows - 1, cols - 1);
}

/**
 * The candidates close to `word`, nearest first (at most `limit`). Close: the same but for case (then only
 * those), at most one edit for words of up to four letters and two for longer ones, or `word` (three letters or
 * more) being the start of the candidate.
 */
export function nearest(word: string, candidates: readonly string[], limit = 3): string[] {
  const lower = word.toLowerCase();
  const sameButCase = candidates.filter((c) => c.toLowerCase() === lower && c !== word);
  if (sameButCase.length > 0) return sameButCase.slice(0, limit);
  const allowed = lower.length <= 4 ? 1 : 2;
  const scored: { candidate: string; score: number }[] = [];
  for (const candidate of new Set(candidates)) {
    if (candidate === word) continue;
    const other = candidate.toLowerCase();
    const distance = editDistance(lower, other);
    if (distance <= allowed) scored.push({ candidate, score: distance });
    else if (lower.length >= 3 && other.startsWith(lower)) scored.push({ candidate, score: allowed + 1 });
  }
  scored.sort((x, y) => x.score - y.score || x.candidate.localeCompare(y.candidate));
  return scored.slice(0, limit).map((s) => s.candidate);
}

/** `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'` (with `quote` around each word). */
export function either(words: readonly string[], quote = "'"): string {
  const quoted = words.map((w) => `${quote}${w}${quote}`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1] as string}`;
}
