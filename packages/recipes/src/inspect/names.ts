/**
 * What each library calls the recipe a layout belongs to, for titles: "Curator InterProcessMutex", "kazoo Lock",
 * "zkts Mutex"; a layout several libraries share on one path is named by the kind and the libraries.
 */
import type { RecipeLibrary } from './types.js';

const LIBRARY_TITLE: Readonly<Record<RecipeLibrary, string>> = { curator: 'Curator', kazoo: 'kazoo', zkts: 'zkts' };

/** `names[library]` when one library wrote every member, else `generic (Curator and kazoo layouts)`. */
export function recipeName(libraries: readonly RecipeLibrary[], names: Partial<Record<RecipeLibrary, string>>, generic: string): string {
  if (libraries.length === 1) {
    const only = libraries[0] as RecipeLibrary;
    const name = names[only];
    if (name !== undefined) return `${LIBRARY_TITLE[only]} ${name}`;
  }
  if (libraries.length === 0) return generic;
  const list = libraries.map((l) => LIBRARY_TITLE[l]);
  const joined = list.length === 1 ? list[0] : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
  return `${generic} (${joined} layout${list.length > 1 ? 's' : ''})`;
}
