/**
 * The exports tests every package runs (packages/<pkg>/test/unit/exports.test.ts): each entry point of its
 * package.json `exports` against a committed list, and the runtime module against that list's values, so the
 * static view (surface.ts) and what an import really yields cannot drift apart.
 */
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { entryPoints, exportedNames, formatSurface, type EntryPoint, type ExportedName } from './surface.js';

/**
 * The exports tests of one package: one pinned list per entry point (`<pinnedDir>/<name>.txt`, name = 'root'
 * for '.', else the subpath without './'), and for each entry the runtime module's keys = the listed values.
 * `load` imports each entry (literal specifiers, so vitest's aliases apply); an entry missing from it, or from
 * package.json, fails.
 */
export function describeSurface(packageDir: string, pinnedDir: string, load: Record<string, () => Promise<object>>): void {
  const entries = entryPoints(packageDir);
  const name = (subpath: string): string => (subpath === '.' ? 'root' : subpath.slice(2).replaceAll('/', '-'));
  describe(`${entries[0]?.specifier ?? packageDir} entry points`, () => {
    let listed: Map<string, ExportedName[]> | undefined;
    const namesOf = (entry: EntryPoint): ExportedName[] => {
      listed ??= exportedNames(entries.map((e) => e.source));
      return listed.get(entry.source) ?? [];
    };

    it('has a loader for exactly the entry points package.json declares', () => {
      expect(Object.keys(load).sort()).toEqual(entries.map((e) => e.subpath).sort());
    });

    for (const entry of entries) {
      it(`${entry.specifier}: exports the pinned names`, async () => {
        await expect(formatSurface(entry, namesOf(entry))).toMatchFileSnapshot(join(pinnedDir, `${name(entry.subpath)}.txt`));
      });

      it(`${entry.specifier}: its value exports are the module's runtime keys`, async () => {
        const loader = load[entry.subpath];
        if (loader === undefined) throw new Error(`no loader for ${entry.subpath}`);
        const values = namesOf(entry).filter((n) => n.kind === 'value').map((n) => n.name);
        expect(Object.keys(await loader()).sort()).toEqual(values.sort());
      });
    }
  });
}
