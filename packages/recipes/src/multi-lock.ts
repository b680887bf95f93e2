/**
 * Several locks taken in a fixed order (the order given: callers that always list locks in one global order
 * cannot deadlock each other), under ONE deadline shared by all of them (Curator gives each lock the full
 * timeout, so N locks could wait N times as long). On failure, and on release, the locks taken are released in
 * reverse order.
 */
import type { Lease } from './lease.js';
import type { Lockable } from './queue-lock.js';
import { deadlineFrom, remaining, type WaitOptions } from './wait.js';

/** The leases of a MultiLock, released together in reverse order. */
export interface MultiLease extends AsyncDisposable {
  readonly leases: readonly Lease[];
  /** Fires when any of the leases is lost. */
  readonly lost: AbortSignal;
  readonly released: boolean;
  /** Releases every lease, last acquired first. */
  release(): Promise<void>;
}

/** Several locks taken in the given order under one deadline; if one cannot be had, those already taken are released. */
export class MultiLock {
  readonly locks: readonly Lockable[];

  constructor(locks: readonly Lockable[]) {
    this.locks = [...locks];
  }

  /** Takes every lock in order, or none. */
  async acquire(options: WaitOptions = {}): Promise<MultiLease> {
    const deadline = deadlineFrom(options.timeout);
    const taken: Lease[] = [];
    try {
      for (const lock of this.locks) {
        const rem = remaining(deadline);
        taken.push(await lock.acquire({ ...(options.signal !== undefined && { signal: options.signal }), ...(rem !== undefined && { timeout: rem }) }));
      }
    } catch (e) {
      await releaseReversed(taken);
      throw e;
    }
    return new Multi(taken);
  }
}

async function releaseReversed(leases: readonly Lease[]): Promise<void> {
  const errors: unknown[] = [];
  for (const lease of [...leases].reverse()) {
    try {
      await lease.release();
    } catch (e) {
      errors.push(e);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, 'releasing a multi-lock failed');
}

class Multi implements MultiLease {
  readonly leases: readonly Lease[];
  private done: Promise<void> | undefined;
  private lostSignal: AbortSignal | undefined;

  constructor(leases: readonly Lease[]) {
    this.leases = leases;
  }

  get lost(): AbortSignal {
    this.lostSignal ??= AbortSignal.any(this.leases.map((l) => l.lost));
    return this.lostSignal;
  }

  get released(): boolean {
    return this.done !== undefined;
  }

  release(): Promise<void> {
    this.done ??= releaseReversed(this.leases);
    return this.done;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.release();
  }
}
