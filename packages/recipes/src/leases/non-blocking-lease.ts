/**
 * kazoo's NonBlockingLease and MultiNonBlockingLease (kazoo/recipe/lease.py), sharing kazoo's nodes:
 *
 *   <path>/lease_holder             PERSISTENT, data = kazoo's JSON {version, holder, end} (holder-format.ts)
 *   <path>/<...>__lock__<seq>       the lock every contender takes around its read-then-write (kazoo's Lock)
 *   MultiNonBlockingLease: the same under <path>/<n> for each slot n < count
 *
 * A lease is a time-boxed claim, not a session-bound lock: it holds until its end time even if its holder dies,
 * and the holder renews it by asking again with the same identifier. Times are client clocks (UTC), so clocks
 * must roughly agree, as kazoo says.
 *
 * kazoo 2.8 takes its Lock, reads the node, and if the lease is free (or ours) deletes and re-creates it in two
 * calls. We take a kazoo-compatible lock the same way, but write with one multi
 * [check our lock node, delete lease_holder at the version we read, create lease_holder]: it commits only
 * while we still hold the lock and nobody changed the node since we read it, and the node is never missing
 * in between. A lost reply needs no receipt: asking again with the same identifier either renews what we
 * wrote or writes it, and both leave us the holder.
 */
import { joinPath, MultiError, systemClock, type Clock, type ACL } from '@zkts/protocol';

import { DataFormatError } from '../errors.js';
import {
  aclRule, withAcl,
  checkArg, checkClientAndPath, checkOptions, checkWait, ensureDir, isConnectionLoss, rules, type OptionRules, isExpiry, isNoNode, reconnected, retrying, type RecipeClient, type WaitOptions,
} from '../internal/index.js';
import { UuidHexLock, type LockHandle } from '../locks/index.js';
import { decodeLease, encodeLease } from './holder-format.js';

/** Options of NonBlockingLease and MultiNonBlockingLease. */
export interface NonBlockingLeaseOptions {
  /** How long a lease lasts from when it is taken or renewed, in ms (kazoo stores the end to the second, rounded down). */
  duration: number;
  /**
   * Who holds the lease; asking again with the same identifier renews it. Required: kazoo defaults to the host
   * name, which makes two processes on one host the same holder (pass `os.hostname()` for kazoo's behaviour).
   */
  identifier: string;
  /** Time source; its `now()` is read as ms since the Unix epoch (the system clock's is). Tests pass a manual one. */
  clock?: Clock;
  /** The ACL of every node this recipe creates (default: the client's aclProvider, see ZkClient.aclFor). */
  acl?: ACL[];
}

/** A lease as it stands in ZooKeeper: who holds it until when. */
export interface LeaseTerm {
  /** The lease's path (the parent of its `lease_holder` node); for a multi lease, the slot's path. */
  readonly path: string;
  readonly holder: string;
  /** The end kazoo's format keeps: a whole second, UTC. The lease is held while now < expiresAt. */
  readonly expiresAt: Date;
  /** The slot, for MultiNonBlockingLease. */
  readonly slot?: number;
}

const RESTART = Symbol('restart');

const OPTION_RULES: OptionRules<NonBlockingLeaseOptions> = {
  // The end is written as a date: a duration past any date is no duration.
  duration: rules.number(0, 8.64e15, { above: true }),
  identifier: rules.nonEmptyString,
  clock: rules.clock,
  acl: aclRule,
};

/** The options are required, and so are `duration` and `identifier` in them. */
function checkLeaseOptions(what: string, options: NonBlockingLeaseOptions): void {
  checkArg(what, 'options', options, rules.object);
  checkOptions(what, options, OPTION_RULES);
  checkArg(what, 'duration', options.duration, OPTION_RULES.duration);
  checkArg(what, 'identifier', options.identifier, OPTION_RULES.identifier);
}

/** kazoo's NonBlockingLease: `tryAcquire()` takes or renews the lease if it is free, expired or ours, and never waits for another holder. */
export class NonBlockingLease {
  readonly client: RecipeClient;
  readonly path: string;
  private readonly options: NonBlockingLeaseOptions;
  private readonly clock: Clock;
  private readonly holderPath: string;

  constructor(client: RecipeClient, path: string, options: NonBlockingLeaseOptions) {
    checkClientAndPath('NonBlockingLease', client, path);
    checkLeaseOptions('NonBlockingLease', options);
    this.client = client = withAcl(client, options.acl);
    this.path = path;
    this.options = options;
    this.clock = options.clock ?? systemClock;
    this.holderPath = joinPath(path, 'lease_holder');
  }

  /**
   * Takes the lease (or renews it, for the same identifier) if nobody else holds it now: the new term, or
   * null. It waits only for the short lock around the check (`{ timeout, signal }` bound that wait: TimeoutError
   * / AbortError). A node in another kazoo format version gives null (kazoo leaves it to a newer client);
   * one kazoo could not read either rejects with DataFormatError.
   */
  async tryAcquire(options: WaitOptions = {}): Promise<LeaseTerm | null> {
    checkWait('NonBlockingLease.tryAcquire', options);
    const { client } = this;
    for (;;) {
      await ensureDir(client, this.path, { persistent: true }); // kazoo's ensure_path: a persistent node
      const lock = new UuidHexLock(client, this.path, { data: this.options.identifier, ...(this.options.clock && { clock: this.options.clock }) });
      let held: LockHandle;
      try {
        held = await lock.acquire(options);
      } catch (e) {
        if (isNoNode(e)) continue; // the path went while we queued
        throw e;
      }
      try {
        const outcome = await this.underLock(held);
        if (outcome !== RESTART) return outcome;
      } finally {
        await held.release();
      }
    }
  }

  /** The lease as it stands now (null: never taken). It may have expired: compare `expiresAt`. */
  async current(): Promise<LeaseTerm | null> {
    try {
      const { data } = await retrying(this.client, () => this.client.getData(this.holderPath));
      const record = decodeLease(data, this.holderPath);
      if (record.kind !== 'current') return null;
      return { path: this.path, holder: record.holder, expiresAt: new Date(record.endMs) };
    } catch (e) {
      if (isNoNode(e)) return null;
      throw e;
    }
  }

  /** Read, decide and write while we hold the lock; RESTART when the lock went with our session. */
  private async underLock(lock: LockHandle): Promise<LeaseTerm | null | typeof RESTART> {
    const { client } = this;
    const { identifier, duration } = this.options;
    for (;;) {
      if (lock.lost.aborted) return RESTART;
      let version: number | undefined;
      try {
        const { data, stat } = await client.getData(this.holderPath);
        const record = decodeLease(data, this.holderPath);
        if (record.kind !== 'current') return null;
        if (record.holder !== identifier && this.clock.now() < record.endMs) return null;
        version = stat.version;
      } catch (e) {
        if (!isNoNode(e)) {
          if (!isConnectionLoss(e) && !isExpiry(e)) throw e;
          await reconnected(client);
          continue;
        }
      }
      // kazoo takes `now` before it reads; we take it after, which can only make the term end later by the
      // length of one read.
      const endMs = Math.floor((this.clock.now() + duration) / 1000) * 1000;
      const write = { op: 'create' as const, path: this.holderPath, data: encodeLease(identifier, endMs), mode: 'persistent' as const };
      const ops = version === undefined
        ? [{ op: 'check' as const, path: lock.node }, write]
        : [{ op: 'check' as const, path: lock.node }, { op: 'delete' as const, path: this.holderPath, version }, write];
      try {
        await client.multi(ops);
        return { path: this.path, holder: identifier, expiresAt: new Date(endMs) };
      } catch (e) {
        if (isConnectionLoss(e) || isExpiry(e)) {
          await reconnected(client); // then read again: a write of ours that landed reads as ours, and is renewed
          continue;
        }
        // Index 0: our lock node is gone (our session ended), index 1/2: someone wrote the node without the lock.
        if (e instanceof MultiError) {
          if (e.failedIndex === 0) return RESTART;
          continue;
        }
        throw e;
      }
    }
  }
}

/** kazoo's MultiNonBlockingLease: up to `count` holders at once, one per slot `<path>/<n>`. */
export class MultiNonBlockingLease {
  readonly client: RecipeClient;
  readonly path: string;
  readonly count: number;
  private readonly options: NonBlockingLeaseOptions;
  private readonly clock: Clock;

  constructor(client: RecipeClient, path: string, count: number, options: NonBlockingLeaseOptions) {
    checkClientAndPath('MultiNonBlockingLease', client, path);
    checkArg('MultiNonBlockingLease', 'count', count, rules.integer(1, 2 ** 31 - 1));
    checkLeaseOptions('MultiNonBlockingLease', options);
    this.client = withAcl(client, options.acl);
    this.path = path;
    this.count = count;
    this.options = options;
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Takes a free slot, as kazoo does trying 0, 1, … count-1 in turn, but first the slot this identifier already
   * holds, if any, so a renewal stays in its slot instead of taking a second one. The term (with `slot`), or
   * null when every slot is held by others.
   */
  async tryAcquire(options: WaitOptions = {}): Promise<LeaseTerm | null> {
    checkWait('MultiNonBlockingLease.tryAcquire', options);
    const terms = await this.holders();
    const own = terms.find((t) => t.holder === this.options.identifier && this.clock.now() < t.expiresAt.getTime());
    const order = Array.from({ length: this.count }, (_, n) => n);
    if (own?.slot !== undefined) order.unshift(...order.splice(own.slot, 1));
    for (const slot of order) {
      const term = await this.slot(slot).tryAcquire(options);
      if (term !== null) return { ...term, slot };
    }
    return null;
  }

  /** The term of every slot that was ever taken, expired or not, by slot. */
  async holders(): Promise<LeaseTerm[]> {
    const terms = await Promise.all(Array.from({ length: this.count }, async (_, n) => {
      const term = await this.slot(n).current().catch((e: unknown) => {
        if (e instanceof DataFormatError) return null; // a slot kazoo could not read either is nobody's
        throw e;
      });
      return term === null ? null : { ...term, slot: n };
    }));
    return terms.filter((t): t is LeaseTerm & { slot: number } => t !== null);
  }

  private slot(n: number): NonBlockingLease {
    return new NonBlockingLease(this.client, joinPath(this.path, String(n)), this.options);
  }
}
