/**
 * Inspect: recognising a node's recipe layout (Curator's, kazoo's, zkts's) from a read-only look at it and its
 * children, for consoles and diagnostics. Reuses the other families' layout knowledge (marker tables, name
 * parsers, data formats) through their index.ts.
 */
export { inspectRecipe } from './inspect.js';
export type { InspectOptions, RecipeInspection, RecipeKind, RecipeLibrary, RecipeMember } from './types.js';
