/**
 * Retry policies for operations that are safe to repeat: reads, `exists`, `sync`, `getChildren`… (never a
 * plain write: a write whose reply was lost may have been applied, and repeating it blindly could apply it
 * twice). A policy says how long to wait before the next try, or that it is time to give up, like Curator's
 * RetryPolicy and kazoo's KazooRetry. Only errors that say "the request may not have reached the server, or the
 * server could not answer" are retried: connection loss, and the server's OPERATION_TIMEOUT / SESSION_MOVED.
 */
import { ConnectionLossError, ServerError, type ZkError } from '../errors/errors.js';
import { checkOptionKeys } from '../errors/option-keys.js';
import { checkBoolean, checkFunction, checkInteger, checkTimeout } from './validation.js';
import { KeeperCode } from '../errors/codes.js';
import { sleep } from './cancel.js';
import type { Clock } from './clock.js';

/** How long to wait before each retry of an operation that is safe to repeat, and when to give up. */
export interface RetryPolicy {
  /**
   * ms to wait before retry number `retry` (1 for the first retry), given the time since the first try and the
   * error of the last one; undefined to give up (the caller then gets that error).
   */
  delayBefore(retry: number, elapsed: number, error: ZkError): number | undefined;
}

/** Options of exponentialBackoff(). */
export interface BackoffOptions {
  /** Delay before the first retry, ms (default 100). */
  baseDelay?: number;
  /** Cap on any one delay, ms (default 10_000). */
  maxDelay?: number;
  /** Retries after the first try (default 5). */
  maxRetries?: number;
  /** Give up once this much time has passed since the first try, ms (default: no limit). */
  maxElapsed?: number;
  /** Full jitter (a uniformly random delay up to the exponential one), so clients cut off together do not retry together (default true). */
  jitter?: boolean;
  /** For tests. */
  random?: () => number;
}

/** Exponential backoff: baseDelay · 2^(retry-1), capped, with full jitter, bounded in retries and time. */
export function exponentialBackoff(options: BackoffOptions = {}): RetryPolicy {
  checkOptionKeys(options, ['baseDelay', 'maxDelay', 'maxRetries', 'maxElapsed', 'jitter', 'random'], 'exponentialBackoff');
  checkTimeout(options.baseDelay, 'baseDelay');
  checkTimeout(options.maxDelay, 'maxDelay');
  checkInteger(options.maxRetries, 'maxRetries', 0, Number.MAX_SAFE_INTEGER);
  checkTimeout(options.maxElapsed, 'maxElapsed');
  checkBoolean(options.jitter, 'jitter');
  checkFunction(options.random, 'random');
  const base = options.baseDelay ?? 100;
  const cap = options.maxDelay ?? 10_000;
  const maxRetries = options.maxRetries ?? 5;
  const maxElapsed = options.maxElapsed;
  const jitter = options.jitter ?? true;
  const random = options.random ?? Math.random;
  return {
    delayBefore(retry: number, elapsed: number): number | undefined {
      if (retry > maxRetries) return undefined;
      const exponential = Math.min(cap, base * 2 ** (retry - 1));
      const delay = jitter ? Math.floor(random() * exponential) : exponential;
      if (maxElapsed !== undefined && elapsed + delay > maxElapsed) return undefined;
      return delay;
    },
  };
}

/** Never retries (the default). */
export const noRetry: RetryPolicy = Object.freeze({ delayBefore: () => undefined });

/** An error after which a safe operation may be tried again. */
export function isRetryable(error: unknown): error is ZkError {
  if (error instanceof ConnectionLossError) return true;
  return error instanceof ServerError && (error.keeperCode === KeeperCode.OPERATION_TIMEOUT || error.keeperCode === KeeperCode.SESSION_MOVED);
}

/**
 * Runs `attempt` (with its number: 1, 2…) until it succeeds, fails with an error that is not retryable, or the
 * policy gives up. The waits between tries are cancelled by `signal` (rejecting with its reason).
 */
export async function retrying<T>(attempt: (n: number) => Promise<T>, policy: RetryPolicy, clock: Clock, signal?: AbortSignal): Promise<T> {
  const started = clock.now();
  for (let retry = 1; ; retry++) {
    try {
      return await attempt(retry);
    } catch (error) {
      if (!isRetryable(error)) throw error;
      const delay = policy.delayBefore(retry, clock.now() - started, error);
      if (delay === undefined) throw error;
      // A policy's negative delay means 'at once', as it always did (sleep itself refuses negatives).
      await sleep(Math.max(0, delay), { signal }, clock);
    }
  }
}
