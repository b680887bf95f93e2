/**
 * The caches' own errors. They reach `onError` (CacheOptions), never a caller: a cache goes on without the node
 * concerned. Both carry the path and the underlying error as `cause`.
 */
import { RecipeError } from '../errors.js';

/** The decoder (CacheOptions.data) threw for a node; the node is cached with `data` undefined. */
export class CacheDecodeError extends RecipeError {
  readonly path: string;

  constructor(path: string, cause: unknown) {
    super('CACHE_DECODE', `cannot decode the data of ${path}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.path = path;
  }
}

/**
 * A read of the cache failed for another reason than a lost connection or session (those are repaired by the
 * resync that follows): the server refused it (no permission: the node is left out) or it timed out (the cache
 * reads everything again shortly).
 */
export class CacheReadError extends RecipeError {
  readonly path: string;

  constructor(path: string, cause: unknown) {
    super('CACHE_READ', `cannot read ${path}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.path = path;
  }
}
