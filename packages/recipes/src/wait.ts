/**
 * Deadlines and cancellation for recipe waits. A recipe computes ONE absolute deadline per call and hands the
 * remaining time to each step, so several steps (MultiLock's locks, a semaphore's inner mutex and lease wait)
 * share one budget.
 */
import { TimeoutError, abortErrorFrom } from '@zkts/protocol';

/** How long a recipe may wait: `timeout` in ms and/or an AbortSignal. */
export interface WaitOptions {
  /** Abandon the wait when this fires; the recipe then cleans up without it. */
  signal?: AbortSignal;
  /** ms from the call; absent = no limit. */
  timeout?: number;
}

/** An absolute point in time (ms since epoch, from Date.now()) or undefined for "never". */
export type Deadline = number | undefined;

export function deadlineFrom(timeout: number | undefined): Deadline {
  return timeout === undefined ? undefined : Date.now() + Math.max(0, timeout);
}

export function remaining(deadline: Deadline): number | undefined {
  return deadline === undefined ? undefined : Math.max(0, deadline - Date.now());
}

/** Throws if the signal fired or the deadline passed. */
export function checkpoint(signal: AbortSignal | undefined, deadline: Deadline, what: string): void {
  if (signal?.aborted === true) throw abortErrorFrom(signal);
  if (deadline !== undefined && Date.now() >= deadline) throw new TimeoutError(`${what}: timed out`);
}

/**
 * Waits for `promise`, giving up (with AbortError / TimeoutError) when the signal fires or the deadline passes.
 * The promise itself keeps running; the caller owns whatever it produces.
 */
export function raceWith<T>(promise: Promise<T>, signal: AbortSignal | undefined, deadline: Deadline, what: string): Promise<T> {
  // If we give up before it settles, its rejection must not surface as an unhandled one.
  promise.catch(() => undefined);
  checkpoint(signal, deadline, what);
  if (signal === undefined && deadline === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = (): void => {
      finish();
      reject(abortErrorFrom(signal as AbortSignal));
    };
    const finish = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    if (deadline !== undefined) {
      timer = setTimeout(() => {
        finish();
        reject(new TimeoutError(`${what}: timed out`));
      }, Math.max(0, deadline - Date.now()));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        finish();
        resolve(v);
      },
      (e: unknown) => {
        finish();
        reject(e);
      },
    );
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
