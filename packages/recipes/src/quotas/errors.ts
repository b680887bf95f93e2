/**
 * The quotas' own errors: a quota node whose text is not StatsTrack's, and a quota refused because an ancestor or
 * a descendant of the path already has one (the rule zkCli's setquota enforces: quotas never nest).
 */
import { RecipeError } from '../errors.js';

/** A `zookeeper_limits` or `zookeeper_stats` node whose data is not StatsTrack text. `path` is that node. */
export class QuotaFormatError extends RecipeError {
  readonly path: string;

  constructor(path: string, reason: string, options?: ErrorOptions) {
    super('QUOTA_FORMAT', `${path}: not a quota (${reason})`, options);
    this.path = path;
  }
}

/**
 * setQuota on a path whose ancestor or descendant has a quota already: the server counts a node for the nearest
 * quota above it only, so nested quotas would count wrong. Remove the other quota first. Nothing was written.
 */
export class QuotaConflictError extends RecipeError {
  /** The path setQuota was given. */
  readonly path: string;
  /** The path that has the quota already. */
  readonly conflictingPath: string;
  /** Where that path is: above `path` or below it. */
  readonly relation: 'ancestor' | 'descendant';

  constructor(path: string, conflictingPath: string, relation: 'ancestor' | 'descendant', options?: ErrorOptions) {
    const word = relation === 'ancestor' ? 'a parent' : 'a child';
    super('QUOTA_CONFLICT', `${path} has ${word} ${conflictingPath} which has a quota`, options);
    this.path = path;
    this.conflictingPath = conflictingPath;
    this.relation = relation;
  }
}
