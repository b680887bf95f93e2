/**
 * A mutex with kazoo's Lock node layout (kazoo/recipe/lock.py): `<path>/<uuidhex>__lock__<seq>`, data = the
 * identifier. kazoo's Lock counts only `__lock__` / `__rlock__` children as contenders (unless it is given
 * extra_lock_patterns), so a recipe that shares a lock with kazoo processes (SetPartitioner per item, the kazoo
 * leases around their read-then-write) must write this layout to be seen. Everything else is our Mutex: the one lock rule (lock-rule.ts counts `__lock__` as a
 * writer), the recovery of a lost create reply by the uuid prefix, guaranteed removal, fencing tokens.
 */
import { kazooPrefix } from '../internal/index.js';
import type { ContenderSpec } from './contender.js';
import { FairLock } from './fair-lock.js';
import type { TracedAs } from './lock-trace.js';

const TRACED: TracedAs = { recipe: 'UuidHexLock', kind: 'exclusive' };

/** A fair mutex whose nodes are kazoo's (`<uuidhex>__lock__<seq>`), so kazoo's Lock queues with it. */
export class UuidHexLock extends FairLock {
  /** kazoo's writer marker; lock-rule.ts counts `__lock__` nodes as writers. */
  protected readonly marker = '__lock__';
  protected readonly tracedAs = TRACED;

  protected override spec(): ContenderSpec {
    return { ...super.spec(), prefix: kazooPrefix };
  }
}
