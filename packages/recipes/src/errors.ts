/**
 * Recipe-level errors. Failures of the ZooKeeper calls themselves surface as @zkts/protocol's ZkError family
 * (TimeoutError for a missed deadline, AbortError for a fired signal, SessionExpiredError…); these classes cover
 * misuse and lock-state conditions that have no server counterpart. Each carries a stable `code`.
 */
import { isBrandedInstance } from '@zkts/protocol';

/** The stable `code` of every RecipeError. */
export type RecipeErrorCode =
  | 'LOCK_NOT_HELD'
  | 'LOCK_BUSY'
  | 'LOCK_UPGRADE'
  | 'LOCK_LOST'
  | 'CLOSED'
  | 'INVALID_USE'
  | 'OUTCOME_UNKNOWN'
  | 'DATA_FORMAT'
  | 'QUEUE_ITEM_CORRUPT'
  | 'CACHE_DECODE'
  | 'CACHE_READ'
  | 'INSTANCE_FORMAT'
  | 'NOT_REGISTERED'
  | 'QUOTA_FORMAT'
  | 'QUOTA_CONFLICT'
  | 'COMPRESSED_CORRUPT'
  | 'DECOMPRESSED_TOO_LARGE'
  | 'QUEUE_EMPTY';

const BRAND = Symbol.for('zkts.recipes.error');

/** The base of the recipes' own errors (failures of ZooKeeper calls are @zkts/protocol errors). Branch on `code`. */
export class RecipeError extends Error {
  readonly code: RecipeErrorCode;

  constructor(code: RecipeErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, BRAND, { value: this.constructor.name });
  }

  /** The class name, also for errors made by another installed copy of the package. */
  override get name(): string {
    return this.constructor.name;
  }

  /** Brand-based, so `instanceof` also works across two installed copies of the package (as ZkError does). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBrandedInstance(BRAND, RecipeError, this, value);
  }
}

/** release() on a lock this handle does not hold (over-release). */
export class LockNotHeldError extends RecipeError {
  constructor(message = 'the lock is not held by this instance', options?: ErrorOptions) {
    super('LOCK_NOT_HELD', message, options);
  }
}

/**
 * A non-reentrant lock instance asked to acquire while it holds the lock, or any instance asked to acquire
 * while another acquire of the same instance is still in progress. Rejected at once rather than waiting: an
 * instance is one contender, and waiting on yourself would deadlock.
 */
export class LockBusyError extends RecipeError {
  constructor(message: string, options?: ErrorOptions) {
    super('LOCK_BUSY', message, options);
  }
}

/** A write lock asked for while the same read-write lock instance holds the read side (upgrade would deadlock). */
export class LockUpgradeError extends RecipeError {
  constructor(message = 'cannot upgrade a held read lock to a write lock; release the read lock first', options?: ErrorOptions) {
    super('LOCK_UPGRADE', message, options);
  }
}

/** Our contender node vanished while we waited or held (session lost, or someone deleted it). */
export class LockLostError extends RecipeError {
  constructor(message: string, options?: ErrorOptions) {
    super('LOCK_LOST', message, options);
  }
}

/** Bad arguments to a recipe (e.g. more semaphore leases than exist). */
export class RecipeArgumentError extends RecipeError {
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_USE', message, options);
  }
}

/** The recipe object was closed (e.g. a LeaderElection) while a call on it was waiting. */
export class RecipeClosedError extends RecipeError {
  constructor(message: string, options?: ErrorOptions) {
    super('CLOSED', message, options);
  }
}

/**
 * A write whose reply was lost in a session that then ended: whether it was applied cannot be known (its
 * receipt, an ephemeral node, went with the session). Read the state and decide; the recipes never guess.
 */
export class OutcomeUnknownError extends RecipeError {
  constructor(message: string, options?: ErrorOptions) {
    super('OUTCOME_UNKNOWN', message, options);
  }
}

/** A counter write whose outcome is unknown (see OutcomeUnknownError). Read the counter and decide. */
export class CounterOutcomeUnknownError extends OutcomeUnknownError {}

/**
 * A node holds data this recipe cannot read in the format it shares with another library (e.g. a kazoo lease
 * node that is not kazoo's JSON). Nothing was changed; `cause` has the parse failure, if there was one.
 */
export class DataFormatError extends RecipeError {
  constructor(message: string, options?: ErrorOptions) {
    super('DATA_FORMAT', message, options);
  }
}

/**
 * A service instance's node data is not an instance in Curator's JSON (not UTF-8 or JSON, too large, a field of
 * the wrong type, or a payload its codec refused). `path` names the node when the data was read from one.
 */
export class InstanceFormatError extends RecipeError {
  readonly path: string | undefined;

  constructor(message: string, options?: ErrorOptions & { path?: string | undefined }) {
    super('INSTANCE_FORMAT', options?.path === undefined ? message : `${options.path}: ${message}`, options);
    this.path = options?.path;
  }
}

/** updateService() for an instance id this ServiceDiscovery has not registered (register it first). */
export class ServiceNotRegisteredError extends RecipeError {
  constructor(message: string, options?: ErrorOptions) {
    super('NOT_REGISTERED', message, options);
  }
}

/**
 * A Curator queue item whose data is not Curator's item format, or that the queue's deserializer rejected.
 * Reported to the queue's `onError`; the node is removed, as Curator does, so it cannot block the queue.
 */
export class QueueItemCorruptError extends RecipeError {
  constructor(message: string, options?: ErrorOptions) {
    super('QUEUE_ITEM_CORRUPT', message, options);
  }
}

/** Data given to decompressLikeCurator (or a gunzip decoder) is not valid gzip: bad header, deflate stream or trailer. */
export class CompressedDataError extends RecipeError {
  constructor(message: string, options?: ErrorOptions) {
    super('COMPRESSED_CORRUPT', message, options);
  }
}

/** Decompressed data would pass the `maxBytes` limit (a zip bomb, or a limit set too low): nothing is returned. */
export class DecompressedTooLargeError extends RecipeError {
  readonly maxBytes: number;

  constructor(maxBytes: number, options?: ErrorOptions) {
    super('DECOMPRESSED_TOO_LARGE', `decompressed data passes the limit of ${maxBytes} bytes`, options);
    this.maxBytes = maxBytes;
  }
}

/** element() or remove() on an empty queue (Curator's NoSuchElementException). */
export class QueueEmptyError extends RecipeError {
  readonly path: string;

  constructor(path: string) {
    super('QUEUE_EMPTY', `queue ${path} is empty`);
    this.path = path;
  }
}
