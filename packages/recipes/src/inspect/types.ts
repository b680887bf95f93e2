/**
 * What inspectRecipe returns: a node read as the recipe whose layout it follows, with its members in queue order.
 * Plain data (no classes), so the console maps it to its JSON `RecipeInfo` field for field.
 */

/** The recipe kinds a layout can show. */
export type RecipeKind =
  | 'mutex' | 'read-write-lock' | 'semaphore' | 'election' | 'queue' | 'counter' | 'discovery'
  | 'group' | 'partitioner' | 'lease' | 'barrier' | 'double-barrier';

/** Whose node layout a member follows (zkts writes Curator's and kazoo's layouts too: see library.ts). */
export type RecipeLibrary = 'curator' | 'kazoo' | 'zkts';

/** One node of a recipe: a lock contender, a candidate, a queue item, a service instance, a member… */
export interface RecipeMember {
  /** 'holder' | 'waiter' | 'reader' | 'writer' | 'leader' | 'candidate' | 'instance' | 'item' | 'member' | 'lease' … */
  readonly role: string;
  /** The node's name (no parent path). */
  readonly name: string;
  readonly path: string;
  /** Its sequence suffix, when it has one. */
  readonly sequence: number | undefined;
  /** The node's data decoded as text when it is an identifier, or the id part of the name. */
  readonly owner: string | undefined;
  readonly library: RecipeLibrary | undefined;
  /** stat.ephemeralOwner; undefined for a persistent node. */
  readonly session: bigint | undefined;
  /** stat.ctime (ms since the epoch). */
  readonly since: number | undefined;
  /** Extra facts in display order (address, port, priority, size…). */
  readonly details: readonly (readonly [string, string])[];
}

/** A node recognised as a recipe. */
export interface RecipeInspection {
  readonly kind: RecipeKind;
  readonly path: string;
  /** Every library whose layout one of its members follows, in the order curator, kazoo, zkts. */
  readonly libraries: readonly RecipeLibrary[];
  /** One line, e.g. "Curator InterProcessMutex: held, 2 waiting". */
  readonly title: string;
  /** Facts in display order, e.g. [['holder', …], ['waiting', '2'], ['held for', '12 s']]. */
  readonly summary: readonly (readonly [string, string])[];
  /** In queue order: the holder(s) first, then the waiters in order. */
  readonly members: readonly RecipeMember[];
}

/** Options of inspectRecipe. */
export interface InspectOptions {
  /** Abandons the reads. */
  signal?: AbortSignal;
  /** ms since the epoch, for ages and lease ends (default Date.now). */
  now?: () => number;
}
