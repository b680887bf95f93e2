/**
 * The mapping tables of the documentation, read as data: which Curator and kazoo recipe each zkts recipe takes
 * after. The recipes README's table (its Origin column) is the one source; the guides for Curator and kazoo users
 * carry copies under the foreign names, which guides.test.ts holds to it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { repoRoot } from './doc-blocks.js';

export type Library = 'Curator' | 'kazoo';

/** A markdown table: its header cells and its rows' cells (pipes escaped as `\|` stay inside a cell). */
export interface Table {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

/** Every table of a markdown file (repository-relative). */
export function tablesOf(file: string): Table[] {
  const tables: Table[] = [];
  let lines: string[] = [];
  const flush = (): void => {
    if (lines.length >= 2 && /^\|[\s|:-]+\|$/.test(lines[1] ?? '')) tables.push({ header: cells(lines[0] ?? ''), rows: lines.slice(2).map(cells) });
    lines = [];
  };
  for (const line of readFileSync(join(repoRoot, file), 'utf8').split('\n')) {
    if (line.startsWith('|')) lines.push(line);
    else flush();
  }
  flush();
  return tables;
}

/** The words inside a cell's `code` spans: `new Mutex(client, path)` gives new, Mutex, client, path. */
export function codeWords(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].flatMap((m) => (m[1] ?? '').match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []);
}

/** The class-like names inside a cell's code spans (the foreign recipes are classes: LeaderLatch, DataWatch…). */
export function classNames(cell: string): string[] {
  return codeWords(cell).filter((w) => /^[A-Z][a-z]/.test(w));
}

/** One row of the recipes README's table: the zkts names, and the Curator and kazoo names it takes after. */
export interface RecipeOrigin {
  readonly recipes: readonly string[];
  readonly origins: Readonly<Record<Library, readonly string[]>>;
}

/**
 * The recipes README's "Recipe | Origin | …" table. In an Origin cell, a name in backquotes belongs to the
 * library last named before it ("Curator `SharedCount`", "kazoo `TreeCache` / `DataWatch`"); names under
 * neither (zkts's own recipes) are no one's.
 */
export function recipeOrigins(): RecipeOrigin[] {
  const table = tablesOf('packages/recipes/README.md').find((t) => t.header[0] === 'Recipe' && t.header[1] === 'Origin');
  if (table === undefined) throw new Error('packages/recipes/README.md has no "Recipe | Origin" table');
  return table.rows.map((row) => {
    const origins: Record<Library, string[]> = { Curator: [], kazoo: [] };
    let library: Library | undefined;
    for (const token of (row[1] ?? '').matchAll(/`([^`]+)`|\b(Curator|kazoo)\b/g)) {
      if (token[2] !== undefined) library = token[2] as Library;
      else if (library !== undefined) origins[library].push(...classNames(`\`${token[1] ?? ''}\``));
    }
    return { recipes: codeWords(row[0] ?? ''), origins };
  });
}
