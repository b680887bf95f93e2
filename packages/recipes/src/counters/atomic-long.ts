/**
 * Curator's DistributedAtomicLong: a 64-bit counter in one node whose data is the value as 8 bytes, big-endian
 * (Java's ByteBuffer.putLong); no node or empty data reads as 0. Changes are optimistic compare-and-sets on the
 * node's version, retried under a RetryPolicy; when the policy gives up, an optional promotion takes a Mutex
 * (Curator InterProcessMutex layout, so Curator's PromotedToLock on the same lock path excludes us) and tries
 * again under it with its own policy. Like Curator, a change that still did not get through resolves with
 * `succeeded: false` rather than throwing: the caller decides.
 *
 * Exact under lost replies: every write goes through counter-cas.ts, whose receipt tells whether a write whose
 * reply was lost committed, so an increment is applied once or reported not applied, never twice.
 */
import { exponentialBackoff, ServerError, sleep, type RetryPolicy, type ACL } from '@zkts/protocol';

import { RecipeArgumentError } from '../errors.js';
import { aclRule, checkArg, checkClientAndPath, checkOptions, rules, withAcl, type OptionRules, type RecipeClient } from '../internal/index.js';
import { Mutex } from '../locks/index.js';
import { CasNode, type CasStats, type Codec, type Versioned } from './counter-cas.js';

/** The outcome of a change: whether it was applied, and the value before and after (Curator's AtomicValue). */
export interface AtomicResult<T> {
  /** false: the retry policy (and the lock promotion, if any) gave up; nothing was written. */
  readonly succeeded: boolean;
  /** The value the change was computed from (the last one read). */
  readonly preValue: T;
  /** The value written (when succeeded; otherwise the value that would have been). */
  readonly postValue: T;
}

/** Curator's PromotedToLock: after optimistic retries fail, take a lock and try again under it. */
export interface PromotedToLock {
  /** The lock path (an InterProcessMutex there in Curator). */
  path: string;
  /** How long to wait for the lock, ms (default: no limit). */
  timeout?: number;
  /** Retries under the lock (default: exponentialBackoff with 5 retries from 10 ms). */
  retry?: RetryPolicy;
}

/** Options of a DistributedAtomicLong. */
export interface DistributedAtomicLongOptions {
  /** Optimistic retries (default: exponentialBackoff with 10 retries from 10 ms). */
  retry?: RetryPolicy;
  /** Take a lock when the optimistic retries give up (default: no promotion). */
  promoteToLock?: PromotedToLock;
  /** The ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  acl?: ACL[];
}

const LONG: Codec<bigint> = {
  encode(value) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setBigInt64(0, value);
    return bytes;
  },
  decode(bytes) {
    if (bytes.length === 0) return 0n;
    if (bytes.length !== 8) throw new RecipeArgumentError(`not an 8-byte long: ${bytes.length} bytes`);
    return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigInt64(0);
  },
};

const RETRY = rules.withMethods('a RetryPolicy', 'delayBefore');

const OPTION_RULES: OptionRules<DistributedAtomicLongOptions> = { retry: RETRY, promoteToLock: rules.object, acl: aclRule };

const PROMOTE_RULES: OptionRules<PromotedToLock> = { path: rules.path, timeout: rules.timeout, retry: RETRY };

/** Curator DistributedAtomicLong: an 8-byte big-endian long, changed by optimistic compare-and-set (optionally promoted to a lock). */
export class DistributedAtomicLong {
  readonly client: RecipeClient;
  readonly path: string;
  private readonly cas: CasNode<bigint>;
  private readonly options: DistributedAtomicLongOptions;
  private readonly mutex: Mutex | undefined;

  constructor(client: RecipeClient, path: string, options: DistributedAtomicLongOptions = {}) {
    checkClientAndPath('DistributedAtomicLong', client, path);
    checkOptions('DistributedAtomicLong', options, OPTION_RULES);
    if (options.promoteToLock !== undefined) {
      checkOptions('DistributedAtomicLong', options.promoteToLock, PROMOTE_RULES, 'promoteToLock');
      checkArg('DistributedAtomicLong', 'promoteToLock.path', options.promoteToLock.path, rules.path);
    }
    this.client = client = withAcl(client, options.acl);
    this.path = path;
    this.options = options;
    this.cas = new CasNode(client, path, LONG);
    this.mutex = options.promoteToLock === undefined ? undefined : new Mutex(client, options.promoteToLock.path);
  }

  /** Attempts, conflicts and lost replies settled (diagnostics). */
  get stats(): Readonly<CasStats> {
    return this.cas.stats;
  }

  /** The current value (0 when there is no node). */
  async get(): Promise<bigint> {
    return (await this.cas.read()).value;
  }

  /** Adds 1. */
  async increment(): Promise<AtomicResult<bigint>> {
    return this.add(1n);
  }

  /** Subtracts 1. */
  async decrement(): Promise<AtomicResult<bigint>> {
    return this.add(-1n);
  }

  /** Adds `delta` (wrapping at 64 bits, as Java's long does). */
  async add(delta: bigint): Promise<AtomicResult<bigint>> {
    checkArg('DistributedAtomicLong.add', 'delta', delta, rules.long);
    return this.change((v) => BigInt.asIntN(64, v + delta));
  }

  /** Subtracts `delta`. */
  async subtract(delta: bigint): Promise<AtomicResult<bigint>> {
    checkArg('DistributedAtomicLong.subtract', 'delta', delta, rules.long);
    return this.add(BigInt.asIntN(64, -delta));
  }

  /** Sets `value` if the current value is `expected` (one attempt per read; retried only on version races). */
  async compareAndSet(expected: bigint, value: bigint): Promise<AtomicResult<bigint>> {
    checkArg('DistributedAtomicLong.compareAndSet', 'expected', expected, rules.long);
    checkArg('DistributedAtomicLong.compareAndSet', 'value', value, rules.long);
    return this.change((v) => (v === expected ? value : undefined));
  }

  /** Sets `value` whatever the current value, by compare-and-set under the retry policy. */
  async trySet(value: bigint): Promise<AtomicResult<bigint>> {
    checkArg('DistributedAtomicLong.trySet', 'value', value, rules.long);
    return this.change(() => value);
  }

  /** Creates the node with `value` if it does not exist; false if it does (Curator's initialize). */
  async initialize(value: bigint): Promise<boolean> {
    checkArg('DistributedAtomicLong.initialize', 'value', value, rules.long);
    return this.cas.trySet({ value: 0n, version: undefined }, value);
  }

  /** Deletes this instance's receipt node (the counter stays). */
  close(): Promise<void> {
    return this.cas.close();
  }

  /**
   * The retry loop: read, compute, compare-and-set. `next` returning undefined means "no change wanted" (a
   * compareAndSet whose expectation failed): an unsucceeded result at once.
   */
  private async change(next: (value: bigint) => bigint | undefined): Promise<AtomicResult<bigint>> {
    const { final, ...optimistic } = await this.attempt(next, this.options.retry ?? exponentialBackoff({ baseDelay: 10, maxRetries: 10 }));
    const promote = this.options.promoteToLock;
    if (optimistic.succeeded || final || promote === undefined || this.mutex === undefined) return optimistic;
    const lease = await this.mutex.acquire(promote.timeout === undefined ? {} : { timeout: promote.timeout }).catch(() => undefined);
    if (lease === undefined) return optimistic;
    try {
      const { final: _, ...locked } = await this.attempt(next, promote.retry ?? exponentialBackoff({ baseDelay: 10, maxRetries: 5 }));
      return locked;
    } finally {
      await lease.release();
    }
  }

  private async attempt(
    next: (value: bigint) => bigint | undefined,
    policy: RetryPolicy,
  ): Promise<AtomicResult<bigint> & { final: boolean }> {
    const started = Date.now();
    for (let retry = 1; ; retry++) {
      const current: Versioned<bigint> = await this.cas.read();
      const value = next(current.value);
      if (value === undefined) return { succeeded: false, preValue: current.value, postValue: current.value, final: true };
      if (await this.cas.trySet(current, value)) return { succeeded: true, preValue: current.value, postValue: value, final: true };
      const delay = policy.delayBefore(retry, Date.now() - started, new ServerError(-103, this.path));
      if (delay === undefined) return { succeeded: false, preValue: current.value, postValue: value, final: false };
      if (delay > 0) await sleep(delay);
    }
  }
}
