/**
 * Argument checks the recipes share, so that a bad path or name is always the same typed error
 * (RecipeArgumentError, code INVALID_USE) with protocol's own message as its cause, and never a late server
 * error from deep inside a background loop.
 */
import { validatePath } from '@zkts/protocol';

import { RecipeArgumentError } from '../errors.js';

/** Throws RecipeArgumentError unless `path` is a valid absolute ZooKeeper path. */
export function checkPath(path: string): void {
  try {
    validatePath(path);
  } catch (e) {
    throw new RecipeArgumentError(e instanceof Error ? e.message : String(e), { cause: e });
  }
}

/**
 * Throws RecipeArgumentError unless `name` can be one path segment (a node name): a non-empty string with no
 * `/`, not `.` or `..`, and no character ZooKeeper refuses.
 */
export function checkNodeName(what: string, name: unknown): asserts name is string {
  if (typeof name !== 'string' || name === '' || name.includes('/')) {
    throw new RecipeArgumentError(`${what} must be a non-empty string without "/", got ${JSON.stringify(name)}`);
  }
  try {
    validatePath(`/${name}`);
  } catch (e) {
    throw new RecipeArgumentError(`${what} ${JSON.stringify(name)} cannot be a node name: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}
