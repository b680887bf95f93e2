// The guides for Curator and kazoo users map each foreign recipe to its zkts recipe, as the recipes README's
// table (its Origin column, test/support/doc-tables.ts) does: every recipe that comes from Curator (kazoo) is in
// that guide, under the zkts name the README gives it, and in one row only, so no guide can leave one out or
// map it twice or elsewhere (a raw addWatch for Curator's PersistentWatcher).
import { describe, expect, it } from 'vitest';

import { classNames, codeWords, recipeOrigins, tablesOf, type Library } from './support/doc-tables.js';

const GUIDES: Record<Library, { file: string; header: string }> = {
  Curator: { file: 'docs/guides/coming-from-curator.md', header: 'Curator' },
  kazoo: { file: 'docs/guides/coming-from-kazoo.md', header: 'kazoo' },
};

const origins = recipeOrigins();

describe.each(Object.entries(GUIDES) as [Library, { file: string; header: string }][])('coming from %s', (library, guide) => {
  const tables = tablesOf(guide.file);
  const named = new Set(origins.flatMap((o) => o.origins[library]));
  // The guide's table of recipes: of its tables headed by the library's name, the one naming most of them.
  const score = (t: (typeof tables)[number]): number => t.rows.flatMap((r) => classNames(r[0] ?? '')).filter((n) => named.has(n)).length;
  const recipeTable = tables.filter((t) => t.header[0] === guide.header && score(t) > 0).sort((a, b) => score(b) - score(a))[0];

  it("the recipes README names this library's recipes", () => {
    expect(named.size).toBeGreaterThan(5);
    expect(recipeTable, `${guide.file} has no table of ${library}'s recipes`).toBeDefined();
  });

  it("has every recipe the recipes README takes from it", () => {
    const inGuide = new Set(recipeTable?.rows.flatMap((r) => classNames(r[0] ?? '')) ?? []);
    expect([...named].filter((name) => !inGuide.has(name))).toEqual([]);
  });

  it('maps each to a zkts recipe the recipes README maps it to', () => {
    const wrong: string[] = [];
    for (const row of recipeTable?.rows ?? []) {
      const ours = new Set(codeWords(row[1] ?? ''));
      for (const name of classNames(row[0] ?? '').filter((n) => named.has(n))) {
        const expected = origins.filter((o) => o.origins[library].includes(name)).flatMap((o) => o.recipes);
        if (!expected.some((recipe) => ours.has(recipe))) wrong.push(`${name} → ${row[1] ?? ''} (the recipes README: ${expected.join(', ')})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('maps each once, in all its tables together', () => {
    const rows = tables.flatMap((t) => t.rows);
    const twice = [...named].filter((name) => rows.filter((r) => classNames(r[0] ?? '').includes(name)).length > 1);
    expect(twice).toEqual([]);
  });
});
